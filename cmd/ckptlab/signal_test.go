package main

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"ckptlab/folder"
	"ckptlab/internal/signals"
)

// mainEnv, set in the environment, makes TestHelperMain run ckptlab with
// the arguments after "--". The test binary becomes the command.
// So a test can signal a real process without building one.
const mainEnv = "GO_TEST_RUN_CKPTLAB_MAIN" // not CKPTLAB_..., which the loader reads as a key

func TestHelperMain(t *testing.T) {
	if os.Getenv(mainEnv) != "1" {
		t.Skip("runs only as a subprocess of TestInterruptedRun")
	}
	args := os.Args
	for i, a := range args {
		if a == "--" {
			args = args[i+1:]
			break
		}
	}
	w := watchSignals(args, os.Stderr) // as main does
	os.Exit(w.exitCode(Main(args, os.Stdout, os.Stderr)))
}

// TestMain leaves the signals to the commands in the tests that call Main
// in this process. Only a subprocess running TestHelperMain watches them
// from its start, as main does.
func TestMain(m *testing.M) {
	if os.Getenv(mainEnv) != "1" {
		signals.Release()
	}
	os.Exit(m.Run())
}

// TestSignalAtStart sends SIGTERM or SIGINT to ckptlab at its first moments.
// The first is as soon as the handler is installed, at the package init
// that the runtime's init trace reports. Others fall in the middle of the
// other packages' inits, and long before the command line is read. The
// last is while a command waits on standard input that never comes.
// Before the handler's package init, in the runtime's own, a signal still
// ends a Go program the default way.
// Each case must exit 130 within a second of the signal, and say so.
// It must leave nothing in the folder it was to write.
func TestSignalAtStart(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	moments := []struct {
		name  string
		trace string        // signal when the init trace shows this package, or
		after time.Duration // this long after the start
	}{
		{"at the handler's install", "ckptlab/internal/signals", 0},
		{"during the workbook package's init", "github.com/xuri/excelize/v2", 0},
		{"in a blocking read", "", 300 * time.Millisecond},
	}
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		for _, m := range moments {
			t.Run(sig.String()+" "+m.name, func(t *testing.T) {
				out := t.TempDir()
				cmd := helper(t, "run", "-q", "-o", out, "-")
				cmd.Env = append(cmd.Env, "GODEBUG=inittrace=1")
				stdin, err := cmd.StdinPipe() // held open: run waits on it
				if err != nil {
					t.Fatal(err)
				}
				defer stdin.Close()
				stderr, err := cmd.StderrPipe()
				if err != nil {
					t.Fatal(err)
				}
				if err := cmd.Start(); err != nil {
					t.Fatal(err)
				}
				// Should the trace line never come, the test fails rather
				// than waits with the process.
				hung := time.AfterFunc(time.Minute, func() { cmd.Process.Kill() })
				defer hung.Stop()
				lines := make(chan string)
				var said strings.Builder
				go func() {
					sc := bufio.NewScanner(stderr)
					for sc.Scan() {
						lines <- sc.Text()
					}
					close(lines)
				}()
				if m.trace != "" {
					for line := range lines {
						if strings.HasPrefix(line, "init "+m.trace+" @") {
							break
						}
					}
				} else {
					time.Sleep(m.after)
				}
				sent := time.Now()
				if err := cmd.Process.Signal(sig); err != nil {
					t.Fatal(err)
				}
				for line := range lines {
					if !strings.HasPrefix(line, "init ") {
						said.WriteString(line + "\n")
					}
				}
				err = cmd.Wait()
				took := time.Since(sent)
				var exit *exec.ExitError
				if !errors.As(err, &exit) || exit.ExitCode() != exitInterrupted {
					t.Fatalf("ckptlab ended with %v, want exit %d; stderr: %s", err, exitInterrupted, said.String())
				}
				if took > time.Second {
					t.Errorf("ckptlab took %v to exit after the signal, want at most a second", took)
				}
				if !strings.Contains(said.String(), "ckptlab run: stopped by ") {
					t.Errorf("stderr = %q, want it to say the signal stopped the run", said.String())
				}
				if entries, _ := os.ReadDir(out); len(entries) > 0 {
					t.Errorf("%s holds %v after the signal, want nothing", out, entries)
				}
			})
		}
	}
}

// largeRun is a run whose files take seconds to write.
// It has 300,006 grid rows from 20,000 subscribers, in every format.
var largeRun = []string{"--format", "csv,xlsx,md",
	"--set", "subscribers=20000", "--set", "probabilities={from: 0, to: 1, step: 0.00002}", lessonFile}

// isTemporary reports whether a name in an output folder, or beside it, is
// a write's staging folder, temporary file or scratch folder.
func isTemporary(name string) bool {
	return strings.HasPrefix(name, ".") && (strings.Contains(name, ".tmp-") || strings.HasPrefix(name, ".ckptlab-xlsx-"))
}

// TestInterruptedRun writes the lesson's results, then starts a run with a
// large grid into the same folder. It stops the run while it writes, with
// SIGKILL, SIGINT or SIGTERM. The moments are while it writes grid.csv,
// while it builds the workbook's sheets, and while it assembles the
// workbook's archive. The previous files must stay byte for byte as they
// were. No file at a final name may be anything else. SIGINT and SIGTERM
// must also leave no temporary file and exit 130.
func TestInterruptedRun(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts several runs of a large grid")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// phases are the moments to stop the run at, each known by the
	// temporary file it makes.
	phases := []struct {
		name  string
		until func(folder string) bool
	}{
		{"writing grid.csv", func(folder string) bool { return globs(folder, "..", ".lesson.tmp-*", "grid.csv") }},
		{"building the workbook", func(folder string) bool { return globs(folder, "..", ".lesson.tmp-*", ".ckptlab-xlsx-*") }},
		{"assembling the workbook", func(folder string) bool {
			// The archive excelize saved, when it is too large to keep in
			// memory, or a sheet being packed with its rows.
			return globs(folder, "..", ".lesson.tmp-*", ".ckptlab-xlsx-*", "workbook-*.zip") ||
				globs(folder, "..", ".lesson.tmp-*", ".ckptlab-xlsx-*", "sheet-*.deflate")
		}},
	}
	for _, sig := range []syscall.Signal{syscall.SIGKILL, syscall.SIGINT, syscall.SIGTERM} {
		for i, phase := range phases {
			if sig == syscall.SIGTERM && i > 0 {
				break // SIGTERM takes SIGINT's path; once is enough
			}
			t.Run(sig.String()+" while "+phase.name, func(t *testing.T) {
				out := t.TempDir()
				var stdout, stderr bytes.Buffer
				if code := Main([]string{"run", "-o", out, "--format", "csv,xlsx,md", lessonFile}, &stdout, &stderr); code != 0 {
					t.Fatalf("run exited %d: %s", code, stderr.String())
				}
				setDir := filepath.Join(out, "lesson")
				before := map[string][]byte{}
				for _, name := range []string{"grid.csv", "failures.csv", "decisions.csv", "breakeven.csv", "lesson.xlsx", "lesson.md", "experiment.yaml", folder.MarkerFile} {
					before[name], err = os.ReadFile(filepath.Join(setDir, name))
					if err != nil {
						t.Fatal(err)
					}
				}

				cmd := exec.Command(exe, append([]string{"-test.run=^TestHelperMain$", "--", "run", "-o", out}, largeRun...)...)
				cmd.Env = append(os.Environ(), mainEnv+"=1")
				cmd.Stdout, cmd.Stderr = &stdout, &stderr
				stdout.Reset()
				stderr.Reset()
				if err := cmd.Start(); err != nil {
					t.Fatal(err)
				}
				exited := make(chan error, 1)
				go func() { exited <- cmd.Wait() }()
				if !waitFor(func() bool { return phase.until(setDir) }, exited) {
					t.Fatalf("the run ended before it was %s; stderr: %s", phase.name, stderr.String())
				}
				if err := cmd.Process.Signal(sig); err != nil {
					t.Fatal(err)
				}
				err := <-exited

				var exit *exec.ExitError
				if !errors.As(err, &exit) {
					t.Fatalf("the run ended with %v, want it stopped by %v (it finished before the signal?); stderr: %s", err, sig, stderr.String())
				}
				status := exit.Sys().(syscall.WaitStatus)
				if sig == syscall.SIGKILL {
					if !status.Signaled() || status.Signal() != syscall.SIGKILL {
						t.Errorf("the run ended with %v, want killed", err)
					}
				} else if status.ExitStatus() != exitInterrupted || !strings.Contains(stderr.String(), "ckptlab run: stopped by ") {
					t.Errorf("the run exited %v, want %d and a message; stderr: %s", err, exitInterrupted, stderr.String())
				}

				entries, err := os.ReadDir(setDir)
				if err != nil {
					t.Fatal(err)
				}
				beside, err := os.ReadDir(out)
				if err != nil {
					t.Fatal(err)
				}
				entries = append(entries, beside...)
				for _, e := range entries {
					name := e.Name()
					if isTemporary(name) {
						if sig != syscall.SIGKILL {
							t.Errorf("%s left %s behind", sig, name)
						} else {
							t.Logf("SIGKILL left %s behind, as it may: no process can clean up after it", name)
						}
						continue
					}
					if name == "lesson" || name == ".lesson.lock" {
						continue // the folder itself, and its lock
					}
					want, ok := before[name]
					if !ok {
						t.Errorf("%s appeared at a final name", name)
						continue
					}
					got, err := os.ReadFile(filepath.Join(setDir, name))
					if err != nil {
						t.Fatal(err)
					}
					if !bytes.Equal(got, want) {
						t.Errorf("%s changed: %d bytes, was %d", name, len(got), len(want))
					}
					delete(before, name)
				}
				for name := range before {
					t.Errorf("%s is gone", name)
				}
			})
		}
	}
}

// waitFor polls until ready and reports whether it became true before the
// process ended.
func waitFor(ready func() bool, exited chan error) bool {
	for !ready() {
		select {
		case err := <-exited:
			exited <- err
			return false
		case <-time.After(time.Millisecond):
		}
	}
	return true
}

// globs reports whether a path matching the patterns, one per level below
// folder, exists.
func globs(folder string, patterns ...string) bool {
	matches, _ := filepath.Glob(filepath.Join(append([]string{folder}, patterns...)...))
	return len(matches) > 0
}

//go:build linux

package deploy

import (
	"bytes"
	"ckptlab/internal/testkit"
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The engine tests run the recipes of deploy/ on real engines (Slurm in
// slurm_engine_test.go, podman in podman_test.go) and compare what the
// engines' merges write with one unsharded run. They are slow tests
// (internal/testkit): .ci/run installs the engines and asks for them.

// needEngine skips the test unless the slow tests are asked for (internal/testkit).
// Then it fails the test where a command it needs is missing.
// It also fails it when not run as root, which the daemons and containers need.
func needEngine(t *testing.T, commands ...string) {
	t.Helper()
	testkit.RequireSlow(t, commands...)
	if os.Geteuid() != 0 {
		t.Fatal("not running as root: the engine tests start daemons and containers")
	}
}

// tempRoot returns a new temporary folder that every user may enter.
// munged insists on that for its socket's path, and containers run as another user.
// The folder is removed when the test ends, after the daemons registered
// later are stopped.
func tempRoot(t *testing.T, pattern string) string {
	t.Helper()
	dir, err := os.MkdirTemp("", pattern)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// buildCkptlab builds a static ckptlab into dir and returns its path.
// It sets CGO_ENABLED=0, as the image wants.
func buildCkptlab(t *testing.T, dir string) string {
	t.Helper()
	bin := filepath.Join(dir, "ckptlab")
	cmd := exec.Command("go", "build", "-trimpath", "-o", bin, "./cmd/ckptlab")
	cmd.Dir = ".."
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS=linux")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/ckptlab: %v\n%s", err, out)
	}
	return bin
}

// run runs a command with extra environment and returns its stdout.
// It fails the test, showing stderr, if the command fails.
func run(t *testing.T, dir string, env []string, name string, args ...string) string {
	t.Helper()
	out, err := tryRun(dir, env, name, args...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// tryRun runs a command with extra environment and returns its stdout.
// Its error holds the command, its exit and its stderr.
func tryRun(dir string, env []string, name string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return stdout.String(), fmt.Errorf("%s %s: %v\n%s%s", name, strings.Join(args, " "), err, stdout.Bytes(), stderr.Bytes())
	}
	return stdout.String(), nil
}

// startDaemon starts a daemon that stays in the foreground.
// Its output goes to logDir/name.log.
// It stops the daemon when the test ends.
// It sends SIGTERM to its PID, then SIGKILL if it has not exited 15 s later.
// If the test failed, the end of the log is printed.
func startDaemon(t *testing.T, logDir, name string, env []string, args ...string) {
	t.Helper()
	logPath := filepath.Join(logDir, name+".log")
	logFile, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	if err := cmd.Start(); err != nil {
		logFile.Close()
		t.Fatalf("%s: %v", name, err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-done:
		case <-time.After(15 * time.Second):
			t.Logf("%s (pid %d) ignored SIGTERM for 15 s; killing it", name, cmd.Process.Pid)
			cmd.Process.Kill()
			<-done
		}
		logFile.Close()
		if t.Failed() {
			showLog(t, logPath)
		}
	})
}

// showLog prints the last lines of a log file.
func showLog(t *testing.T, path string) {
	data, err := os.ReadFile(path)
	if err != nil {
		return
	}
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	lines = lines[max(0, len(lines)-30):]
	t.Logf("end of %s:\n%s", path, strings.Join(lines, "\n"))
}

// waitFor polls ok every 200 ms until it holds.
// It fails the test if ok does not hold within limit.
// The limit bounds a hang; it is not a measure of speed.
func waitFor(t *testing.T, what string, limit time.Duration, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("still waiting after %v for %s", limit, what)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// sameTables checks that folder got holds the files of folder want, byte for
// byte, and no others.
// The shards/ folder of a sharded run is left out.
func sameTables(t *testing.T, want, got string) {
	t.Helper()
	wantFiles, gotFiles := filesIn(t, want), filesIn(t, got)
	if !slices.Equal(wantFiles, gotFiles) {
		t.Fatalf("%s holds %v, want the files of one run: %v", got, gotFiles, wantFiles)
	}
	if len(wantFiles) == 0 {
		t.Fatalf("%s holds no tables", want)
	}
	for _, name := range wantFiles {
		a, errA := os.ReadFile(filepath.Join(want, name))
		b, errB := os.ReadFile(filepath.Join(got, name))
		if errA != nil || errB != nil {
			t.Fatal(errA, errB)
		}
		if !bytes.Equal(a, b) {
			t.Errorf("%s differs from one unsharded run's (%d bytes, want %d)", filepath.Join(got, name), len(b), len(a))
		}
	}
}

// filesIn lists the regular files directly in dir, sorted.
func filesIn(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		if e.Type().IsRegular() {
			names = append(names, e.Name())
		}
	}
	return names
}

// statAll returns the file info of every file in dir by name.
func statAll(t *testing.T, dir string) map[string]fs.FileInfo {
	t.Helper()
	infos := map[string]fs.FileInfo{}
	for _, name := range filesIn(t, dir) {
		info, err := os.Stat(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		infos[name] = info
	}
	return infos
}

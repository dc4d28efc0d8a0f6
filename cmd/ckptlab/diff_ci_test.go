//go:build unix

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"gopkg.in/yaml.v3"
)

// ciStep returns the shell script of the step of deploy/github/diff.yml
// with the given id.
func ciStep(t *testing.T, id string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "deploy", "github", "diff.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var wf struct {
		Jobs map[string]struct {
			Steps []struct {
				ID  string `yaml:"id"`
				Run string `yaml:"run"`
			} `yaml:"steps"`
		} `yaml:"jobs"`
	}
	if err := yaml.Unmarshal(data, &wf); err != nil {
		t.Fatal(err)
	}
	for _, s := range wf.Jobs["diff"].Steps {
		if s.ID == id {
			return s.Run
		}
	}
	t.Fatalf("deploy/github/diff.yml has no step %s", id)
	return ""
}

// TestDiffCIRecipe runs the shell step of deploy/github/diff.yml as written,
// as GitHub runs it (bash -e). The repository holds experiments with bases
// in the folder and in base/, on branches cut from main.
// There `go run ./cmd/ckptlab` is this test binary.
func TestDiffCIRecipe(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash is not installed")
	}
	script := ciStep(t, "diff")
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	goScript := "#!/bin/sh\n[ \"$1 $2\" = \"run ./cmd/ckptlab\" ] || { echo \"unexpected go $*\" >&2; exit 99; }\nshift 2\nexec " + exe + " -test.run='^TestHelperMain$' -- \"$@\"\n"
	if err := os.WriteFile(filepath.Join(bin, "go"), []byte(goScript), 0o755); err != nil {
		t.Fatal(err)
	}
	dir := gitRepo(t, map[string]string{
		"experiments/base/stream.yaml": "intervals: [none, 6, 4, 3, 2, 1]\n",
		"experiments/common.yaml":      "extends: base/stream.yaml\nworkers: 2\n",
		"experiments/job-a.yaml":       "extends: common.yaml\nname: job-a\n",
		"experiments/job-b.yaml":       "extends: base/stream.yaml\nname: job-b\n",
		"experiments/job-c.yaml":       "name: job-c\n",
	})
	git(t, dir, "update-ref", "refs/remotes/origin/main", "HEAD")
	for _, tt := range []struct {
		name    string
		change  map[string]string // files written on the branch
		code    int               // of the step
		differs string            // the step's output, "" for none
		want    []string          // in diff.md
	}{
		{"a base changed", map[string]string{"experiments/base/stream.yaml": "intervals: [none, 6, 4]\n"}, 0, "1", []string{
			"## ckptlab diff: 2 of 3 experiments changed\n", "### job-a\n", "### job-b\n", "### Unchanged (1)\n\n- job-c: unchanged (origin/main:experiments/job-c.yaml → experiments/job-c.yaml, 24 points)\n",
		}},
		{"a comment", map[string]string{"experiments/job-c.yaml": "# the lesson\nname: job-c\n"}, 0, "0", []string{"## ckptlab diff: 0 of 3 experiments changed\n"}},
		{"an invalid file", map[string]string{"experiments/job-c.yaml": "name: job-c\nworkers: 0\n"}, 2, "", nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			git(t, dir, "checkout", "-q", "-B", "pr", "origin/main")
			for name, src := range tt.change {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			git(t, dir, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-am", tt.name)
			out, summary := filepath.Join(t.TempDir(), "output"), filepath.Join(t.TempDir(), "summary")
			cmd := exec.Command("bash", "-e", "-c", script)
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), mainEnv+"=1",
				"GITHUB_OUTPUT="+out, "GITHUB_STEP_SUMMARY="+summary)
			log, err := cmd.CombinedOutput()
			code := 0
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if code != tt.code {
				t.Fatalf("the step exited %d, want %d:\n%s", code, tt.code, log)
			}
			output, _ := os.ReadFile(out)
			if tt.differs != "" && string(output) != "differs="+tt.differs+"\n" {
				t.Errorf("the step's output is %q, want differs=%s", output, tt.differs)
			}
			md, _ := os.ReadFile(filepath.Join(dir, "diff.md"))
			for _, w := range tt.want {
				if !strings.Contains(string(md), w) {
					t.Errorf("diff.md lacks %q:\n%s", w, md)
				}
			}
			if tt.code == 0 {
				if s, _ := os.ReadFile(summary); string(s) != string(md) {
					t.Errorf("the job summary is not diff.md:\n%s", s)
				}
			}
			os.Remove(filepath.Join(dir, "diff.md"))
		})
	}
}

// TestDiffSignal checks that SIGTERM ends a diff blocked in a read (a FIFO
// as grid.csv) with exit 130 within a second. A diff that refuses the FIFO
// before the signal, with exit 2, is as good.
func TestDiffSignal(t *testing.T) {
	dir := t.TempDir()
	if code, _, stderr := ckptlab("run", "-q", "--format", "csv", "-o", dir, lessonFile); code != 0 {
		t.Fatal(stderr)
	}
	old, new := filepath.Join(dir, "lesson"), filepath.Join(t.TempDir(), "lesson")
	if err := os.CopyFS(new, os.DirFS(old)); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(new, "grid.csv"))
	if err := syscall.Mkfifo(filepath.Join(new, "grid.csv"), 0o644); err != nil {
		t.Skip("no FIFO here:", err)
	}
	cmd := helper(t, "diff", old, new)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	select {
	case err := <-exited:
		if code := cmd.ProcessState.ExitCode(); code != exitBadUser {
			t.Fatalf("diff of a FIFO ended before the signal with %v, %d: %s", err, code, stderr.String())
		}
		return
	case <-time.After(500 * time.Millisecond):
	}
	cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-exited:
		if code := cmd.ProcessState.ExitCode(); code != exitInterrupted || !strings.Contains(stderr.String(), "ckptlab diff: stopped by terminated") {
			t.Errorf("after SIGTERM: exit %d, %q; want 130", code, stderr.String())
		}
	case <-time.After(time.Second):
		cmd.Process.Kill()
		<-exited
		t.Errorf("SIGTERM did not end a diff blocked in a read within a second")
	}
}

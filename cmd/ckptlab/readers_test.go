//go:build linux

package main

// Hostile files against every reader of ckptlab: each shape a file may
// take (a link to a device, a FIFO, an endless line, a file far past its
// limits, one of too many rows, a byte order mark, lines of a secret) put
// where each reader reads (an output folder's files for diff and --check,
// an experiment file and a base, a shard file, a file at a git revision).
// Every case runs ckptlab in a process of its own under an address-space
// cap and a timeout.

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"ckptlab/internal/testkit"
)

// secret is what the lines of a file not meant as an experiment hold.
// No output may quote it.
const secret = "SECRETHASH"

// secretLines are the lines of such a file, /etc/shadow's shape.
const secretLines = "root:$6$" + secret + "1:19000:0:99999:7:::\nsvc:" + secret + "2:19000:0:99999:7:::\n"

// A shape makes the file at path hostile. orig is what the reader would
// find there. It returns false where the shape cannot be made there, such
// as a FIFO in a git tree.
type shape struct {
	name string
	make func(t *testing.T, path string, orig []byte, git bool) bool
}

var shapes = []shape{
	{"a link to /dev/zero", func(t *testing.T, path string, _ []byte, _ bool) bool {
		return os.Symlink("/dev/zero", path) == nil
	}},
	{"a FIFO", func(t *testing.T, path string, _ []byte, git bool) bool {
		if git {
			return false
		}
		testkit.MakeFIFO(t, path)
		return true
	}},
	{"a line of 1 GiB", func(t *testing.T, path string, _ []byte, git bool) bool {
		return !git && sparse(t, path, nil, 1<<30)
	}},
	{"600 MiB after a header", func(t *testing.T, path string, orig []byte, git bool) bool {
		header, _, _ := bytes.Cut(orig, []byte("\n"))
		return !git && sparse(t, path, append(header, '\n'), 600<<20)
	}},
	{"2,000,001 rows", func(t *testing.T, path string, orig []byte, _ bool) bool {
		header, _, _ := bytes.Cut(orig, []byte("\n"))
		return write(t, path, append(append(header, '\n'), bytes.Repeat([]byte("1\n"), 2_000_001)...))
	}},
	{"a byte order mark", func(t *testing.T, path string, orig []byte, _ bool) bool {
		return write(t, path, append([]byte("\xef\xbb\xbf"), orig...))
	}},
	{"lines of a secret", func(t *testing.T, path string, _ []byte, _ bool) bool {
		return write(t, path, []byte(secretLines))
	}},
	{"a link to a secret outside", func(t *testing.T, path string, _ []byte, _ bool) bool {
		outside := filepath.Join(t.TempDir(), "shadow")
		write(t, outside, []byte(secretLines))
		return os.Symlink(outside, path) == nil
	}},
}

// sparse writes head and extends the file to size bytes of zeros, which
// take no room on the disk.
func sparse(t *testing.T, path string, head []byte, size int64) bool {
	write(t, path, head)
	if err := os.Truncate(path, size); err != nil {
		t.Fatal(err)
	}
	return true
}

func write(t *testing.T, path string, data []byte) bool {
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return true
}

// A reader is where ckptlab reads a file.
// It names the file in a case's folder that a shape replaces, and the
// command that reads it. It also gives the exit code a byte order mark
// gives. A hostile shape gives 1 or 2, refused.
type reader struct {
	name string
	file string // relative to the case's folder
	args []string
	git  bool // the file is committed and read at HEAD
	bom  int  // exit code with a byte order mark; -1 for refused
}

var readers = []reader{
	{"diff, experiment.yaml of a folder", "new/x/experiment.yaml", []string{"diff", "old/x", "new/x"}, false, 0},
	{"diff, grid.csv of a folder", "new/x/grid.csv", []string{"diff", "old/x", "new/x"}, false, 0},
	{"diff, decisions.csv of a folder", "new/x/decisions.csv", []string{"diff", "old/x", "new/x"}, false, 0},
	{"diff, breakeven.csv of a folder", "new/x/breakeven.csv", []string{"diff", "old/x", "new/x"}, false, 0},
	{"diff, an experiment file", "y.yaml", []string{"diff", "x.yaml", "y.yaml"}, false, 0},
	{"diff, a file at a revision", "y.yaml", []string{"diff", "HEAD:y.yaml", "x.yaml"}, true, 0},
	{"run --check, grid.csv", "old/x/grid.csv", []string{"run", "-q", "--check", "--format", "csv", "-o", "old", "x.yaml"}, false, 1},
	{"validate, an experiment file", "y.yaml", []string{"validate", "y.yaml"}, false, 0},
	{"validate, a base", "base.yaml", []string{"validate", "top.yaml"}, false, 0},
	{"merge, a shard file", "old/x/shards/1-of-1", []string{"merge", "-q", "--format", "csv", "-o", "old", "x.yaml"}, false, -1},
}

// TestHostileFiles runs every shape against every reader.
// Each case must end within its timeout and its memory cap. It must refuse
// the file (exit 1 or 2) with a message and no crash, or take a byte order
// mark as its reader does. It must never print a secret's lines.
func TestHostileFiles(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a process per case")
	}
	skipUncapped(t)
	// The folders every case starts from hold a run's set with a shard beside
	// it, the experiment, a copy of it, and a base with a file extending it.
	src := t.TempDir()
	x := exp(t, src, "x.yaml", "x", "subscribers: 50\n")
	write(t, filepath.Join(src, "y.yaml"), mustRead(t, x))
	write(t, filepath.Join(src, "base.yaml"), []byte("workers: 2\n"))
	write(t, filepath.Join(src, "top.yaml"), []byte("name: top\nextends: base.yaml\n"))
	for _, args := range [][]string{
		{"run", "-q", "--format", "csv", "-o", "old", "x.yaml"},
		{"run", "-q", "--shard", "1/1", "-o", "old", "x.yaml"},
		{"run", "-q", "--format", "csv", "-o", "new", "x.yaml"},
	} {
		if code, _, stderr := capped(t, src, args...); code != exitOK {
			t.Fatalf("%v = %d: %s", args, code, stderr)
		}
	}
	for _, r := range readers {
		for _, s := range shapes {
			t.Run(r.name+", "+s.name, func(t *testing.T) {
				t.Parallel()
				dir := t.TempDir()
				copyTree(t, src, dir)
				path := filepath.Join(dir, r.file)
				orig := mustRead(t, path)
				os.Remove(path)
				if !s.make(t, path, orig, r.git) {
					t.Skip("this shape cannot be made there")
				}
				if r.git {
					gitIn(t, dir, "init", "-q")
					gitIn(t, dir, "add", "x.yaml", "y.yaml")
					gitIn(t, dir, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "x")
				}
				code, stdout, stderr := capped(t, dir, r.args...)
				if strings.Contains(stdout+stderr, secret) {
					t.Errorf("the output quotes the secret's lines:\n%s%s", stdout, stderr)
				}
				for _, crash := range []string{"fatal error", "panic", "goroutine ", "internal error"} {
					if strings.Contains(stderr, crash) {
						t.Fatalf("ckptlab crashed (%s), exit %d:\n%.2000s", crash, code, stderr)
					}
				}
				want := "1 or 2"
				ok := code == exitFailed || code == exitBadUser
				if s.name == "a byte order mark" && r.bom >= 0 {
					want, ok = string(rune('0'+r.bom)), code == r.bom
				}
				if !ok || (code != exitOK && stderr == "" && stdout == "") {
					t.Errorf("exit %d, want %s with a message:\n%.2000s%.2000s", code, want, stdout, stderr)
				}
			})
		}
	}
}

// skipUncapped skips a test whose cases cannot be capped.
// That is without prlimit, or under the race detector.
// The race detector's shadow memory takes more address space than the cap.
// go test ./... runs these tests without it.
func skipUncapped(t *testing.T) {
	t.Helper()
	if raceBuild {
		t.Skip("the race detector's address space does not fit the cap")
	}
	if _, err := exec.LookPath("prlimit"); err != nil {
		t.Skip("prlimit (util-linux) is not installed; it caps each case's memory")
	}
}

// caseTimeout and caseMemory bound every case.
// No reader may wait on a file or hold much of it.
const (
	caseTimeout = 20 * time.Second
	caseMemory  = 2 << 30 // address space, which the Go runtime reserves ahead
)

// capped runs ckptlab in dir under the address-space cap and the timeout.
func capped(t *testing.T, dir string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), caseTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "prlimit", append([]string{"--as=" + strconv.Itoa(caseMemory), "--", exe, "-test.run=^TestHelperMain$", "--"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), mainEnv+"=1")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err = cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("ckptlab %v did not end within %v; stderr: %.2000s", args, caseTimeout, errb.String())
	}
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		code = exit.ExitCode()
	case err != nil:
		t.Fatal(err)
	}
	return code, out.String(), errb.String()
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// copyTree copies the folders and regular files under src into dst.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		to := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(to, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(to, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

func gitIn(t *testing.T, dir string, args ...string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	git(t, dir, args...)
}

// TestHostileBases attacks extends under the same cap and timeout.
// The bases are one of 120,000 seeds listed 255 times, one of 120,000
// errors listed 255 times, and a link to a secret. The last is a base
// outside the root, which only --allow-outside-root reads.
func TestHostileBases(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a process per case")
	}
	skipUncapped(t)
	root := t.TempDir()
	dir := filepath.Join(root, "exp")
	seeds := make([]string, 120_000)
	bad := make([]string, 120_000)
	for i := range seeds {
		seeds[i], bad[i] = strconv.Itoa(i), "x"
	}
	many := func(name string) string { return "[" + strings.Repeat(name+", ", 254) + name + "]" }
	outsideSecret := filepath.Join(root, "shadow")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, src := range map[string]string{
		"exp/seeds.yaml": "seeds: [" + strings.Join(seeds, ", ") + "]\n",
		"exp/errs.yaml":  "workers: [" + strings.Join(bad, ", ") + "]\n",
		"exp/big.yaml":   "name: big\nprobabilities: [1]\nintervals: [none, 2]\nsubscribers: 2\nperiods: 3\nfailure_period: 2026-02\nextends: " + many("seeds.yaml") + "\n",
		"exp/bad.yaml":   "name: bad\nextends: " + many("errs.yaml") + "\n",
		"exp/sh.yaml":    "name: sh\nextends: shadow.yaml\n",
		"exp/up.yaml":    "name: up\nprobabilities: [1, 0.5]\nextends: ../outside.yaml\n",
		"outside.yaml":   "workers: 2\n",
		"shadow":         secretLines,
	} {
		write(t, filepath.Join(root, name), []byte(src))
	}
	if err := os.Symlink(outsideSecret, filepath.Join(dir, "shadow.yaml")); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args []string
		code int
		want string // in stderr
	}{
		{[]string{"plan", "big.yaml"}, exitOK, ""},
		{[]string{"validate", "bad.yaml"}, exitBadUser, "more errors"},
		{[]string{"validate", "sh.yaml"}, exitBadUser, "base shadow.yaml is a link to a file outside"},
		{[]string{"run", "-q", "-o", "out", "sh.yaml"}, exitBadUser, "base shadow.yaml is a link to a file outside"},
		{[]string{"validate", "up.yaml"}, exitBadUser, "base ../outside.yaml is outside"},
		{[]string{"plan", "up.yaml"}, exitBadUser, "base ../outside.yaml is outside"},
		{[]string{"diff", "up.yaml", "up.yaml"}, exitBadUser, "base ../outside.yaml is outside"},
		{[]string{"validate", "--allow-outside-root", "up.yaml"}, exitOK, ""},
		{[]string{"plan", "--allow-outside-root", "up.yaml"}, exitOK, ""},
		{[]string{"diff", "--allow-outside-root", "up.yaml", "up.yaml"}, exitOK, ""},
		{[]string{"run", "-q", "--format", "csv", "-o", "out", "--allow-outside-root", "up.yaml"}, exitOK, ""},
		{[]string{"validate", "--allow-outside-root", "sh.yaml"}, exitBadUser, "is not an experiment file"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			code, stdout, stderr := capped(t, dir, tt.args...)
			if code != tt.code || !strings.Contains(stderr, tt.want) {
				t.Errorf("exit %d, want %d with %q:\n%.2000s", code, tt.code, tt.want, stderr)
			}
			if strings.Contains(stdout+stderr, secret) {
				t.Errorf("the output quotes the secret's lines:\n%s%s", stdout, stderr)
			}
		})
	}
}

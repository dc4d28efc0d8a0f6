package gitrev

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// repo commits files (and a link to a.yaml) in a fresh repository and
// opens its tree at HEAD.
func repo(t *testing.T, files map[string]string) *Tree {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	dir := t.TempDir()
	for name, src := range files {
		path := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("a.yaml", filepath.Join(dir, "link.yaml")); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "."}, {"-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "files"}} {
		if out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	tree, err := Open(dir, "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tree.Close() })
	return tree
}

func TestTree(t *testing.T) {
	long := strings.Repeat("x", MaxBlob+10)
	tree := repo(t, map[string]string{"a.yaml": "name: a\n", "dir/b.yaml": "name: b\n", "dir/deeper/c.yml": "", "long.yaml": long})
	for _, tt := range []struct {
		name    string
		content string // read whole
		mode    fs.FileMode
		err     error // of Open
		readErr string
	}{
		{"a.yaml", "name: a\n", 0o644, nil, ""},
		{"dir/b.yaml", "name: b\n", 0o644, nil, ""},
		{"dir/deeper/c.yml", "", 0o644, nil, ""},
		{"dir", "", fs.ModeDir, nil, "is not a regular file"},
		{".", "", fs.ModeDir, nil, "is not a regular file"},
		{"link.yaml", "", fs.ModeSymlink, nil, "is not a regular file"},
		{"missing.yaml", "", 0, fs.ErrNotExist, ""},
		{"dir/missing/c.yml", "", 0, fs.ErrNotExist, ""},
		{"a.yaml/x", "", 0, fs.ErrNotExist, ""},
		{"../a.yaml", "", 0, fs.ErrInvalid, ""},
		{"long.yaml", long[:MaxBlob], 0o644, nil, "more than the 16777216 a blob is read for"},
	} {
		f, err := tree.Open(tt.name)
		if !errors.Is(err, tt.err) || (err == nil) != (tt.err == nil) {
			t.Errorf("Open(%q): %v, want %v", tt.name, err, tt.err)
			continue
		}
		if err != nil {
			continue
		}
		fi, _ := f.Stat()
		if fi.Mode() != tt.mode {
			t.Errorf("%s: mode %v, want %v", tt.name, fi.Mode(), tt.mode)
		}
		data, err := io.ReadAll(f)
		if tt.readErr == "" && (err != nil || string(data) != tt.content) {
			t.Errorf("%s: read %d bytes, %v; want %q", tt.name, len(data), err, tt.content)
		}
		if tt.readErr != "" && (err == nil || !strings.Contains(err.Error(), tt.readErr) || string(data) != tt.content) {
			t.Errorf("%s: read %d bytes, %v; want %d bytes and %q", tt.name, len(data), err, len(tt.content), tt.readErr)
		}
	}
	entries, err := tree.ReadDir(".")
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if err != nil || strings.Join(names, " ") != "a.yaml dir link.yaml long.yaml" {
		t.Errorf("ReadDir(.) = %v, %v", names, err)
	}
	if _, err := tree.ReadDir("a.yaml"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("ReadDir of a file: %v, want not exist", err)
	}
	// A read after a long blob still works: the batch stayed in step.
	if data, err := fs.ReadFile(tree, "dir/b.yaml"); err != nil || string(data) != "name: b\n" {
		t.Errorf("after the long blob: %q, %v", data, err)
	}
}

func TestOpenRefuses(t *testing.T) {
	tree := repo(t, map[string]string{"a.yaml": "name: a\n"})
	for _, rev := range []string{"", "-x", "--output=/tmp/x", "no-such-rev", "HEAD\nHEAD"} {
		if _, err := Open(tree.Root, rev); err == nil {
			t.Errorf("Open(%q) opened a tree", rev)
		}
	}
}

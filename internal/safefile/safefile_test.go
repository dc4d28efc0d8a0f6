//go:build unix

package safefile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestOpenRefuses checks that Open keeps regular files only, and refuses
// each other kind by name without blocking or following it.
func TestOpenRefuses(t *testing.T) {
	dir := t.TempDir()
	regular := filepath.Join(dir, "file")
	os.WriteFile(regular, []byte("data"), 0o644)
	link := filepath.Join(dir, "link")
	os.Symlink(regular, link)
	dangling := filepath.Join(dir, "dangling")
	os.Symlink(filepath.Join(dir, "nowhere"), dangling)
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path, kind string
	}{
		{link, "symbolic link"},
		{dangling, "symbolic link"},
		{fifo, "FIFO"}, // an open that waited for a writer would hang the test
		{dir, "folder"},
		{"/dev/null", "device"},
	}
	for _, tt := range tests {
		f, _, err := Open(tt.path)
		var nr *NotRegularError
		if !errors.As(err, &nr) || nr.Kind != tt.kind || !errors.Is(err, ErrNotRegular) {
			t.Errorf("Open(%s) = %v, %v; want a %s refused", tt.path, f, err, tt.kind)
		}
	}
	// OpenLinked follows a link, to a regular file only.
	fifoLink := filepath.Join(dir, "fifo-link")
	os.Symlink(fifo, fifoLink)
	devLink := filepath.Join(dir, "dev-link")
	os.Symlink("/dev/zero", devLink)
	for _, tt := range []struct{ path, kind string }{{fifoLink, "FIFO"}, {devLink, "device"}, {dir, "folder"}} {
		f, _, err := OpenLinked(tt.path)
		var nr *NotRegularError
		if !errors.As(err, &nr) || nr.Kind != tt.kind {
			t.Errorf("OpenLinked(%s) = %v, %v; want a %s refused", tt.path, f, err, tt.kind)
		}
	}
	if f, fi, err := OpenLinked(link); err != nil || fi.Size() != 4 {
		t.Errorf("OpenLinked(a link to a file) = %v, %v", fi, err)
	} else {
		f.Close()
	}
	if _, err := os.Stat(filepath.Join(dir, "nowhere")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the dangling link's target was created: %v", err)
	}
	f, fi, err := Open(regular)
	if err != nil || fi.Size() != 4 {
		t.Fatalf("Open(regular) = %v, %v", fi, err)
	}
	f.Close()
	if _, _, err := Open(filepath.Join(dir, "missing")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Open(missing) = %v", err)
	}
}

// TestReadFileLimit checks the size limit, by size and by what a file that
// claims no size gives.
func TestReadFileLimit(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f")
	os.WriteFile(path, []byte(strings.Repeat("x", 100)), 0o644)
	if data, err := ReadFile(path, 100); err != nil || len(data) != 100 {
		t.Errorf("ReadFile at the limit = %d bytes, %v", len(data), err)
	}
	var tl *TooLargeError
	if _, err := ReadFile(path, 99); !errors.As(err, &tl) {
		t.Errorf("ReadFile past the limit = %v", err)
	}
	// /proc/self/status is a regular file of size 0 that reads on.
	if _, err := os.Stat("/proc/self/status"); err == nil {
		if _, err := ReadFile("/proc/self/status", 10); !errors.As(err, &tl) {
			t.Errorf("ReadFile of /proc/self/status with a limit of 10 = %v", err)
		}
	}
}

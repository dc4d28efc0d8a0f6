package atomicfs

import (
	"bufio"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// entries returns the names in dir, sorted.
func entries(t *testing.T, dir string) []string {
	t.Helper()
	des, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, de := range des {
		names = append(names, de.Name())
	}
	slices.Sort(names)
	return names
}

func writeString(s string) func(*bufio.Writer) error {
	return func(w *bufio.Writer) error {
		_, err := w.WriteString(s)
		return err
	}
}

func TestWriteFile(t *testing.T) {
	errWrite := errors.New("the disk is full")
	tests := []struct {
		name    string
		write   func(*bufio.Writer) error
		want    string
		wantErr error
	}{
		{"complete", writeString("new\n"), "new\n", nil},
		{"failed halfway", func(w *bufio.Writer) error {
			w.WriteString("half a ta")
			w.Flush()
			return errWrite
		}, "old\n", errWrite},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "grid.csv")
			if err := os.WriteFile(path, []byte("old\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			err := WriteFile(path, tt.write)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("WriteFile: %v, want %v", err, tt.wantErr)
			}
			got, _ := os.ReadFile(path)
			if string(got) != tt.want {
				t.Errorf("file holds %q, want %q", got, tt.want)
			}
			if names := entries(t, dir); !slices.Equal(names, []string{"grid.csv"}) {
				t.Errorf("folder holds %v, want only grid.csv", names)
			}
		})
	}
}

func TestBatchRenamesTogether(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.csv"), filepath.Join(dir, "b.csv")
	for _, p := range []string{a, b} {
		os.WriteFile(p, []byte("old\n"), 0o644)
	}

	var bt batch
	if err := bt.add(a, writeString("new\n")); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(a); string(got) != "old\n" {
		t.Fatalf("a.csv holds %q before the batch is committed, want the old content", got)
	}
	if err := bt.add(b, func(*bufio.Writer) error { return errors.New("interrupted") }); err == nil {
		t.Fatal("add of a failing write succeeded")
	}
	bt.discard()
	for _, p := range []string{a, b} {
		if got, _ := os.ReadFile(p); string(got) != "old\n" {
			t.Errorf("%s holds %q after a discarded batch, want the old content", filepath.Base(p), got)
		}
	}
	if names := entries(t, dir); !slices.Equal(names, []string{"a.csv", "b.csv"}) {
		t.Errorf("folder holds %v after a discarded batch, want no temporary file", names)
	}

	bt = batch{}
	for _, p := range []string{a, b} {
		if err := bt.add(p, writeString("new\n")); err != nil {
			t.Fatal(err)
		}
	}
	if err := bt.commit(); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{a, b} {
		if got, _ := os.ReadFile(p); string(got) != "new\n" {
			t.Errorf("%s holds %q after commit, want the new content", filepath.Base(p), got)
		}
	}
}

func TestRegistryRemoveAll(t *testing.T) {
	dir := t.TempDir()
	r := new(registry)
	f, err := r.createTemp(dir, ".grid.csv.tmp-*")
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	scratch, err := r.mkdirTemp(dir, ".scratch-*")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(scratch, "sheet"), []byte("rows"), 0o644)

	r.removeAll()

	if names := entries(t, dir); len(names) != 0 {
		t.Errorf("folder holds %v after removeAll, want nothing", names)
	}
	if _, err := r.createTemp(dir, "x-*"); !errors.Is(err, ErrInterrupted) {
		t.Errorf("createTemp after removeAll: %v, want ErrInterrupted", err)
	}
	if _, err := r.mkdirTemp(dir, "x-*"); !errors.Is(err, ErrInterrupted) {
		t.Errorf("mkdirTemp after removeAll: %v, want ErrInterrupted", err)
	}
	if err := r.rename([]string{filepath.Join(dir, "a")}, []string{filepath.Join(dir, "b")}); !errors.Is(err, ErrInterrupted) {
		t.Errorf("rename after removeAll: %v, want ErrInterrupted", err)
	}
}

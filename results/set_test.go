package results

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
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

func TestFilesNamesWhatWriteWrites(t *testing.T) {
	s := Set{Name: "lesson", Grid: Table{Name: "grid"}, Failures: Table{Name: "failures"},
		Decisions: Table{Name: "decisions", Columns: DecisionColumns},
		Breakeven: Table{Name: "breakeven", Columns: BreakevenColumns}}
	for _, formats := range [][]string{
		{FormatCSV},
		{FormatCSV, FormatXLSX},
		{FormatMD, FormatXLSX, FormatCSV},
	} {
		files, err := s.files(formats)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, f := range files {
			names = append(names, f.name)
		}
		if want := Files(s.Name, formats); !slices.Equal(names, want) {
			t.Errorf("formats %v: Write writes %v, Files says %v", formats, names, want)
		}
	}
}

func TestWriteRejectsUnknownFormat(t *testing.T) {
	dir := t.TempDir()
	err := Set{Name: "lesson"}.Write(dir, []string{"ods"})
	if err == nil || !strings.Contains(err.Error(), `"ods"`) {
		t.Errorf("Write of format ods: %v, want an error naming it", err)
	}
}

func TestConfigHash(t *testing.T) {
	tests := []struct {
		config []Setting
		want   string // sha256sum of the lines
	}{
		{nil, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
		{[]Setting{{Key: "a", Value: "1"}, {Key: "b", Value: "[x, y]"}}, "7363bc72e98a8d578ce05d4f6b327fdcd60f3a17fe98db8c14d79a65ae4e1db2"},
	}
	for _, tt := range tests {
		if got := (Set{Config: tt.config}).ConfigHash(); got != tt.want {
			t.Errorf("ConfigHash of %q = %s, want %s", tt.config, got, tt.want)
		}
	}
}

func TestWriteContextCancelled(t *testing.T) {
	// rows returns a table of n rows that calls cancel as it yields row
	// cancelAt, past the first look at the context.
	rows := func(n int, cancelAt int, cancel func()) Table {
		return Table{Name: "grid", Columns: []Column{{Name: "n", Kind: Int}}, Rows: func(yield func([]Value) bool) {
			for i := range n {
				if i == cancelAt {
					cancel()
				}
				if !yield([]Value{IntValue(int64(i))}) {
					return
				}
			}
		}}
	}
	failures := Table{Name: "failures", Columns: []Column{{Name: "n", Kind: Int}}, Rows: func(func([]Value) bool) {}}
	for _, format := range []string{FormatCSV, FormatXLSX} {
		t.Run(format, func(t *testing.T) {
			dir := t.TempDir()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			old := Set{Name: "x", Grid: rows(3, -1, cancel), Failures: failures}
			if err := old.Write(dir, []string{format}); err != nil {
				t.Fatal(err)
			}
			folder := filepath.Join(dir, "x")
			before := entries(t, folder)
			var contents [][]byte
			for _, name := range before {
				data, _ := os.ReadFile(filepath.Join(folder, name))
				contents = append(contents, data)
			}

			s := Set{Name: "x", Grid: rows(100_000, 10, cancel), Failures: failures}
			err := s.WriteContext(ctx, dir, []string{format})
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("WriteContext: %v, want context.Canceled", err)
			}
			if after := entries(t, folder); !slices.Equal(after, before) {
				t.Errorf("folder holds %v after a cancelled write, want %v", after, before)
			}
			for i, name := range before {
				if data, _ := os.ReadFile(filepath.Join(folder, name)); !bytes.Equal(data, contents[i]) {
					t.Errorf("%s changed", name)
				}
			}
		})
	}
}

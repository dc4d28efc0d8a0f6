package folder_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"ckptlab/folder"
	"ckptlab/results"
)

func TestWriteRejectsUnknownFormat(t *testing.T) {
	dir := t.TempDir()
	err := folder.Replace(context.Background(), dir, results.Set{Name: "lesson"}, []string{"ods"})
	if err == nil || !strings.Contains(err.Error(), `"ods"`) {
		t.Errorf("Replace of format ods: %v, want an error naming it", err)
	}
}

func TestReplaceCancelled(t *testing.T) {
	// rows returns a table of n rows that calls cancel as it yields row
	// cancelAt, past the first look at the context.
	rows := func(n int, cancelAt int, cancel func()) results.Table {
		return results.Table{Name: "grid", Columns: []results.Column{{Name: "n", Kind: results.Int}}, Rows: func(yield func([]results.Value) bool) {
			for i := range n {
				if i == cancelAt {
					cancel()
				}
				if !yield([]results.Value{results.IntValue(int64(i))}) {
					return
				}
			}
		}}
	}
	failures := results.Table{Name: "failures", Columns: []results.Column{{Name: "n", Kind: results.Int}}, Rows: func(func([]results.Value) bool) {}}
	for _, format := range []string{results.FormatCSV, results.FormatXLSX} {
		t.Run(format, func(t *testing.T) {
			dir := t.TempDir()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			old := results.Set{Name: "x", Grid: rows(3, -1, cancel), Failures: failures}
			if err := folder.Replace(context.Background(), dir, old, []string{format}); err != nil {
				t.Fatal(err)
			}
			setDir := filepath.Join(dir, "x")
			before := names(t, setDir)
			var contents [][]byte
			for _, name := range before {
				data, _ := os.ReadFile(filepath.Join(setDir, name))
				contents = append(contents, data)
			}

			s := results.Set{Name: "x", Grid: rows(100_000, 10, cancel), Failures: failures}
			err := folder.Replace(ctx, dir, s, []string{format})
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("Replace: %v, want context.Canceled", err)
			}
			if after := names(t, setDir); !slices.Equal(after, before) {
				t.Errorf("folder holds %v after a cancelled write, want %v", after, before)
			}
			for i, name := range before {
				if data, _ := os.ReadFile(filepath.Join(setDir, name)); !bytes.Equal(data, contents[i]) {
					t.Errorf("%s changed", name)
				}
			}
		})
	}
}

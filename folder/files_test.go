package folder

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"ckptlab/results"
)

func TestFilesNamesWhatWriteWrites(t *testing.T) {
	s := results.Set{Name: "lesson", Grid: results.Table{Name: "grid"}, Failures: results.Table{Name: "failures"},
		Decisions: results.Table{Name: "decisions", Columns: []results.Column{{Name: "n", Kind: results.Int}}},
		Breakeven: results.Table{Name: "breakeven", Columns: []results.Column{{Name: "n", Kind: results.Int}}}}
	for _, formats := range [][]string{
		{results.FormatCSV},
		{results.FormatCSV, results.FormatXLSX},
		{results.FormatMD, results.FormatXLSX, results.FormatCSV},
	} {
		files, err := setFiles(s, formats)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, f := range files {
			names = append(names, f.name)
		}
		if want := results.Files(s.Name, formats); !slices.Equal(names, want) {
			t.Errorf("formats %v: Write writes %v, Files says %v", formats, names, want)
		}
	}
}

// TestWriteFilesRendersIntoTheFolderGiven renders a set into a folder.
// The folder must hold the files Files names and nothing else.
// An error must name the file at its path in the final folder.
func TestWriteFilesRendersIntoTheFolderGiven(t *testing.T) {
	n := []results.Column{{Name: "n", Kind: results.Int}}
	one := func(yield func([]results.Value) bool) { yield([]results.Value{results.IntValue(1)}) }
	table := func(name string) results.Table { return results.Table{Name: name, Columns: n, Rows: one} }
	s := results.Set{Name: "x", Grid: table("grid"), Failures: table("failures"), Decisions: table("decisions"), Breakeven: table("breakeven")}
	final := filepath.Join("out", "x")
	tests := []struct {
		name      string
		formats   []string
		cancelled bool
		wantErr   string // "" for none
	}{
		{"csv", []string{results.FormatCSV}, false, ""},
		{"an unknown format", []string{"ods"}, false, `format "ods" is not supported`},
		{"cancelled", []string{results.FormatCSV}, true, "writing " + filepath.Join(final, "grid.csv") + ": context canceled"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if tt.cancelled {
				cancel()
			}
			stage := t.TempDir()
			err := writeFiles(ctx, s, stage, final, tt.formats)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("writeFiles = %v, want an error with %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			des, err := os.ReadDir(stage)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, de := range des {
				got = append(got, de.Name())
			}
			want := slices.Sorted(slices.Values(results.Files(s.Name, tt.formats)))
			if !slices.Equal(got, want) {
				t.Errorf("the folder holds %v, want %v", got, want)
			}
		})
	}
}

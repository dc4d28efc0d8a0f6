package results

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

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

// TestWriteFilesRendersIntoTheFolderGiven renders a set into a folder.
// The folder must hold the files Files names and nothing else.
// An error must name the file at its path in the final folder.
func TestWriteFilesRendersIntoTheFolderGiven(t *testing.T) {
	n := []Column{{Name: "n", Kind: Int}}
	one := func(yield func([]Value) bool) { yield([]Value{IntValue(1)}) }
	table := func(name string) Table { return Table{Name: name, Columns: n, Rows: one} }
	s := Set{Name: "x", Grid: table("grid"), Failures: table("failures"), Decisions: table("decisions"), Breakeven: table("breakeven")}
	final := filepath.Join("out", "x")
	tests := []struct {
		name      string
		formats   []string
		cancelled bool
		wantErr   string // "" for none
	}{
		{"csv", []string{FormatCSV}, false, ""},
		{"an unknown format", []string{"ods"}, false, `format "ods" is not supported`},
		{"cancelled", []string{FormatCSV}, true, "writing " + filepath.Join(final, "grid.csv") + ": context canceled"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if tt.cancelled {
				cancel()
			}
			stage := t.TempDir()
			err := s.WriteFiles(ctx, stage, final, tt.formats)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("WriteFiles = %v, want an error with %q", err, tt.wantErr)
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
			want := slices.Sorted(slices.Values(Files(s.Name, tt.formats)))
			if !slices.Equal(got, want) {
				t.Errorf("the folder holds %v, want %v", got, want)
			}
		})
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

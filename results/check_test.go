package results_test

import (
	"context"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"ckptlab/folder"
	"ckptlab/internal/testkit"
	"ckptlab/results"
)

var allFormats = []string{results.FormatCSV, results.FormatXLSX, results.FormatMD}

// snapshot returns every file under dir with its content and time.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.Walk(dir, func(path string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		out[path] = info.ModTime().Format(time.RFC3339Nano) + "\n" + string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestCheckEqual(t *testing.T) {
	set := lessonSet(t)
	out := t.TempDir()
	if err := folder.Replace(context.Background(), out, set, allFormats); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, out)
	diffs, err := folder.Check(context.Background(), out, set, allFormats)
	if err != nil {
		t.Fatal(err)
	}
	if len(diffs) != 0 {
		t.Errorf("Check found differences in the files just written: %v", diffs)
	}
	if after := snapshot(t, out); !maps.Equal(before, after) {
		t.Error("Check changed the output folder")
	}
}

func TestCheckDifferences(t *testing.T) {
	set := lessonSet(t)
	other := lessonSet(t)
	other.Config = slices.Clone(other.Config)
	other.Config[0].Value = "2" // another configuration: only the experiment sheet differs

	tests := []struct {
		name    string
		formats []string
		spoil   func(t *testing.T, dir string)
		check   func(t *testing.T, d results.Difference)
	}{
		{
			name:    "a changed CSV row",
			formats: []string{results.FormatCSV},
			spoil: func(t *testing.T, dir string) {
				replaceInFile(t, filepath.Join(dir, "grid.csv"), ",945.4545454545455,", ",945.5,")
			},
			check: func(t *testing.T, d results.Difference) {
				if !strings.HasSuffix(d.File, "grid.csv") || d.Count != 4 || len(d.Lines) != 3 {
					t.Fatalf("got %s, want 4 lines of grid.csv (interval 6 at each probability)", d)
				}
				l := d.Lines[0]
				if l.Line != 3 || !strings.Contains(l.Want, ",945.4545454545455,") || !strings.Contains(l.Got, ",945.5,") {
					t.Errorf("first line %+v, want line 3 with both versions", l)
				}
				if len(l.Cells) != 1 || l.Cells[0].Want != "945.4545454545455" || l.Cells[0].Got != "945.5" {
					t.Fatalf("cells %+v, want the one cell that differs", l.Cells)
				}
				col := l.Cells[0].Column
				if !slices.ContainsFunc(results.GridColumns, func(c results.Column) bool { return c.Name == col }) {
					t.Errorf("the cell's column %q is not a column of grid.csv", col)
				}
				for _, want := range []string{"\n  in the column " + col + "\n", "\n  grid.csv row 2, " + col + ": want 945.4545454545455, got 945.5"} {
					if !strings.Contains(d.String(), want) {
						t.Errorf("the report lacks %q:\n%s", want, d)
					}
				}
			},
		},
		{
			name:    "a table replaced by a link to /dev/zero",
			formats: []string{results.FormatCSV},
			spoil: func(t *testing.T, dir string) {
				os.Remove(filepath.Join(dir, "grid.csv"))
				os.Symlink("/dev/zero", filepath.Join(dir, "grid.csv"))
			},
			check: func(t *testing.T, d results.Difference) {
				if !strings.HasSuffix(d.String(), "grid.csv: differs (a symbolic link, not a regular file; not read)") {
					t.Errorf("got %s, want grid.csv not a regular file", d)
				}
			},
		},
		{
			name:    "a line longer than the comparison reads",
			formats: []string{results.FormatCSV},
			spoil: func(t *testing.T, dir string) {
				long := strings.Repeat("9", 3<<20)
				os.WriteFile(filepath.Join(dir, "failures.csv"), []byte(long), 0o644)
			},
			check: func(t *testing.T, d results.Difference) {
				if !strings.Contains(d.String(), "line 1 is longer than 1 MiB; not compared further") {
					t.Errorf("got %s, want the long line reported", d)
				}
			},
		},
		{
			name:    "a truncated CSV",
			formats: []string{results.FormatCSV},
			spoil: func(t *testing.T, dir string) {
				path := filepath.Join(dir, "failures.csv")
				data, _ := os.ReadFile(path)
				os.WriteFile(path, data[:len(data)/2], 0o644)
			},
			check: func(t *testing.T, d results.Difference) {
				if !strings.HasSuffix(d.File, "failures.csv") || len(d.Lines) == 0 {
					t.Fatalf("got %s, want lines of failures.csv", d)
				}
				last := d.Lines[len(d.Lines)-1]
				if !last.GotEOF || last.WantEOF {
					t.Errorf("got %s, want the file to end before the rendering", d)
				}
			},
		},
		{
			name:    "a CSV that goes on past its end",
			formats: []string{results.FormatCSV},
			spoil: func(t *testing.T, dir string) {
				f, _ := os.OpenFile(filepath.Join(dir, "failures.csv"), os.O_WRONLY|os.O_APPEND, 0)
				for range 1000 {
					f.WriteString("junk\n")
				}
				f.Close()
			},
			check: func(t *testing.T, d results.Difference) {
				if d.Count != 1 || !strings.Contains(d.String(), "the file goes on after line 67, its last; not read further") {
					t.Errorf("got %s, want one difference past the end", d)
				}
			},
		},
		{
			name:    "a FIFO for a table, not waited on",
			formats: []string{results.FormatCSV},
			spoil: func(t *testing.T, dir string) {
				os.Remove(filepath.Join(dir, "breakeven.csv"))
				testkit.MakeFIFO(t, filepath.Join(dir, "breakeven.csv"))
			},
			check: func(t *testing.T, d results.Difference) {
				if !strings.HasSuffix(d.String(), "breakeven.csv: differs (a FIFO, not a regular file; not read)") {
					t.Errorf("got %s", d)
				}
			},
		},
		{
			name:    "a sparse workbook of a gigabyte",
			formats: []string{results.FormatXLSX},
			spoil: func(t *testing.T, dir string) {
				os.Truncate(filepath.Join(dir, "lesson.xlsx"), 1<<30)
			},
			check: func(t *testing.T, d results.Difference) {
				if !strings.Contains(d.String(), "1073741824 bytes, far more than the") {
					t.Errorf("got %s", d)
				}
			},
		},
		{
			name:    "a missing Markdown file",
			formats: []string{results.FormatMD},
			spoil:   func(t *testing.T, dir string) { os.Remove(filepath.Join(dir, "lesson.md")) },
			check: func(t *testing.T, d results.Difference) {
				if !d.Missing || !strings.HasSuffix(d.File, "lesson.md") || !strings.HasSuffix(d.String(), "lesson.md: missing") {
					t.Errorf("got %s, want lesson.md missing", d)
				}
			},
		},
		{
			name:    "a workbook of another configuration",
			formats: []string{results.FormatXLSX},
			spoil: func(t *testing.T, dir string) {
				elsewhere := t.TempDir()
				if err := folder.Replace(context.Background(), elsewhere, other, []string{results.FormatXLSX}); err != nil {
					t.Fatal(err)
				}
				data, err := os.ReadFile(filepath.Join(elsewhere, other.Name, other.Name+".xlsx"))
				if err != nil {
					t.Fatal(err)
				}
				os.WriteFile(filepath.Join(dir, "lesson.xlsx"), data, 0o644)
			},
			check: func(t *testing.T, d results.Difference) {
				if !strings.HasSuffix(d.File, "lesson.xlsx") || !slices.Contains(d.Parts, "sheet experiment") {
					t.Errorf("got %s, want lesson.xlsx differing in sheet experiment", d)
				}
				if slices.Contains(d.Parts, "sheet grid") {
					t.Errorf("got %s, want sheet grid the same", d)
				}
			},
		},
		{
			name:    "a file the set does not have",
			formats: []string{results.FormatCSV},
			spoil: func(t *testing.T, dir string) {
				os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("by hand"), 0o644)
				os.MkdirAll(filepath.Join(dir, folder.ShardsDir), 0o755) // input, not reported
				// A file of the set in a format not checked, not reported either.
				os.WriteFile(filepath.Join(dir, "lesson.md"), []byte("# lesson"), 0o644)
			},
			check: func(t *testing.T, d results.Difference) {
				if !d.Extra || !strings.HasSuffix(d.String(), "notes.txt: not a file of any set (a run will not replace the folder while it is there)") {
					t.Errorf("got %s, want notes.txt reported as not of the set", d)
				}
			},
		},
		{
			name:    "a workbook that is not one",
			formats: []string{results.FormatXLSX},
			spoil: func(t *testing.T, dir string) {
				os.WriteFile(filepath.Join(dir, "lesson.xlsx"), []byte("not a zip"), 0o644)
			},
			check: func(t *testing.T, d results.Difference) {
				if !strings.Contains(d.String(), "not a workbook") {
					t.Errorf("got %s, want a note that the file is not a workbook", d)
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := t.TempDir()
			if err := folder.Replace(context.Background(), out, set, tt.formats); err != nil {
				t.Fatal(err)
			}
			tt.spoil(t, filepath.Join(out, set.Name))
			diffs, err := folder.Check(context.Background(), out, set, tt.formats)
			if err != nil {
				t.Fatal(err)
			}
			if len(diffs) != 1 {
				t.Fatalf("%d differences, want 1: %v", len(diffs), diffs)
			}
			tt.check(t, diffs[0])
		})
	}
}

func replaceInFile(t *testing.T, path, old, new string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), old) {
		t.Fatalf("%s does not contain %q", path, old)
	}
	if err := os.WriteFile(path, []byte(strings.ReplaceAll(string(data), old, new)), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestCheckRejectsUnknownFormat(t *testing.T) {
	if _, err := folder.Check(context.Background(), t.TempDir(), lessonSet(t), []string{"ods"}); err == nil {
		t.Error("Check of format ods succeeded, want an error")
	}
}

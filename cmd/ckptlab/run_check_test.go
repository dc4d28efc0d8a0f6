package main

import (
	"bytes"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"ckptlab/folder"
)

var lessonFile = filepath.Join("..", "..", "experiments", "lesson.yaml")

// folderState returns every file under dir with its size, time and bytes.
func folderState(t *testing.T, dir string) map[string]string {
	t.Helper()
	state := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		data, err := os.ReadFile(path)
		state[path] = info.ModTime().String() + "\n" + string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return state
}

func TestRunCheck(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		spoil    func(t *testing.T, folder string)
		formats  string
		wantCode int
		wantOut  []string
	}{
		{
			name:     "as written",
			formats:  "csv,xlsx,md",
			wantCode: exitOK,
			wantOut:  []string{"all 7 files are as the experiments give them\n"},
		},
		{
			name:    "a changed row",
			formats: "csv,xlsx,md",
			spoil: func(t *testing.T, folder string) {
				path := filepath.Join(folder, "failures.csv")
				data, _ := os.ReadFile(path)
				lines := strings.SplitAfter(string(data), "\n")
				lines[6] = strings.Replace(lines[6], ",200,", ",201,", 1)
				os.WriteFile(path, []byte(strings.Join(lines, "")), 0o644)
			},
			wantCode: exitFailed,
			wantOut: []string{
				filepath.Join("lesson", "failures.csv") + ": 1 line differs\n  in the column subscribers\n" +
					"  failures.csv row 6, subscribers: want 200, got 201\n",
				"1 of 7 files differ from what the experiments give now\n",
			},
		},
		{
			name:    "the set of another run, of other formats",
			formats: "csv,xlsx,md",
			spoil: func(t *testing.T, folder string) {
				os.Remove(filepath.Join(folder, "lesson.md"))
				var stdout, stderr bytes.Buffer
				out := filepath.Dir(folder)
				if code := Main([]string{"run", "-o", out, "--format", "xlsx", "--set", "state_rows=400", lessonFile}, &stdout, &stderr); code != 0 {
					t.Fatalf("run exited %d: %s", code, stderr.String())
				}
			},
			wantCode: exitFailed,
			wantOut: []string{
				filepath.Join("lesson", "lesson.xlsx") + ": differs in ",
				"sheet grid",
				filepath.Join("lesson", "lesson.md") + ": missing\n",
				filepath.Join("lesson", "grid.csv") + ": missing\n",
				filepath.Join("lesson", "experiment.yaml") + ": 1 line differs",
				"7 of 7 files differ",
			},
		},
		{
			name:    "a missing file and a stray one",
			formats: "md",
			spoil: func(t *testing.T, folder string) {
				os.Remove(filepath.Join(folder, "lesson.md"))
				os.WriteFile(filepath.Join(folder, "notes.txt"), []byte("x\n"), 0o644)
			},
			wantCode: exitFailed,
			wantOut: []string{
				filepath.Join("lesson", "lesson.md") + ": missing\n",
				filepath.Join("lesson", "notes.txt") + ": not a file of any set",
				"1 of 2 files differ from what the experiments give now; 1 file is of no set\n",
			},
		},
		{
			name:     "only a stray file",
			formats:  "csv",
			spoil:    func(t *testing.T, folder string) { os.WriteFile(filepath.Join(folder, "notes.txt"), nil, 0o644) },
			wantCode: exitFailed,
			wantOut:  []string{"all 5 files are as the experiments give them; 1 file is of no set\n"},
		},
		{
			name:     "only the formats asked for",
			formats:  "csv",
			spoil:    func(t *testing.T, folder string) { os.Remove(filepath.Join(folder, "lesson.xlsx")) },
			wantCode: exitOK,
			wantOut:  []string{"all 5 files are as the experiments give them\n"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := t.TempDir()
			var stdout, stderr bytes.Buffer
			if code := Main([]string{"run", "-o", out, "--format", "csv,xlsx,md", lessonFile}, &stdout, &stderr); code != 0 {
				t.Fatalf("run exited %d: %s", code, stderr.String())
			}
			if tt.spoil != nil {
				tt.spoil(t, filepath.Join(out, "lesson"))
			}
			before := folderState(t, out)

			stdout.Reset()
			stderr.Reset()
			code := Main([]string{"run", "--check", "-o", out, "--format", tt.formats, lessonFile}, &stdout, &stderr)
			if code != tt.wantCode {
				t.Errorf("run --check exited %d, want %d; stderr: %s", code, tt.wantCode, stderr.String())
			}
			for _, want := range tt.wantOut {
				if !strings.Contains(stdout.String(), want) {
					t.Errorf("stdout lacks %q:\n%s", want, stdout.String())
				}
			}
			if after := folderState(t, out); !maps.Equal(before, after) {
				t.Error("run --check changed the output folder")
			}
		})
	}
}

func TestRunDefaultFormats(t *testing.T) {
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	if code := Main([]string{"run", "-o", out, lessonFile}, &stdout, &stderr); code != 0 {
		t.Fatalf("run exited %d: %s", code, stderr.String())
	}
	entries, err := os.ReadDir(filepath.Join(out, "lesson"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if want := []string{folder.MarkerFile, "breakeven.csv", "decisions.csv", "experiment.yaml", "failures.csv", "grid.csv", "lesson.xlsx"}; !slices.Equal(names, want) {
		t.Errorf("run wrote %v, want %v (csv and xlsx by default, nothing else)", names, want)
	}
}

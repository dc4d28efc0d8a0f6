package main

import (
	"bytes"
	"ckptlab/internal/testkit"
	"ckptlab/results"
	"os"
	"path/filepath"
	"testing"
)

// TestGolden runs every case under testdata/golden: a folder holding an
// experiment.yaml and the files a run of it must write. With -update the
// expected files are rewritten from the code, to be reviewed in the diff.
func TestGolden(t *testing.T) {
	cases, err := filepath.Glob(filepath.Join("testdata", "golden", "*", "experiment.yaml"))
	if err != nil || len(cases) == 0 {
		t.Fatalf("no golden cases: %v", err)
	}
	for _, exp := range cases {
		dir := filepath.Dir(exp)
		t.Run(filepath.Base(dir), func(t *testing.T) {
			out := t.TempDir()
			var stdout, stderr bytes.Buffer
			if code := Main([]string{"run", "-o", out, "--format", "csv", exp}, &stdout, &stderr); code != 0 {
				t.Fatalf("run exited %d: %s", code, stderr.String())
			}
			written, err := filepath.Glob(filepath.Join(out, "[^.]*")) // not the folder's lock
			if err != nil || len(written) != 1 {
				t.Fatalf("run wrote %v (%v), want one experiment folder", written, err)
			}
			folder := written[0]
			for _, name := range []string{"grid.csv", "failures.csv", "decisions.csv", "breakeven.csv"} {
				got, err := os.ReadFile(filepath.Join(folder, name))
				if err != nil {
					t.Fatal(err)
				}
				testkit.Golden(t, filepath.Join(dir, name), got)
			}
			for _, name := range results.ProcessFiles { // with the time model only
				got, err := os.ReadFile(filepath.Join(folder, name))
				if os.IsNotExist(err) {
					if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
						t.Errorf("%s not written", name)
					}
					continue
				}
				if err != nil {
					t.Fatal(err)
				}
				testkit.Golden(t, filepath.Join(dir, name), got)
			}
		})
	}
}

package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/ from the code")

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
				golden := filepath.Join(dir, name)
				if *update {
					if err := os.WriteFile(golden, got, 0o644); err != nil {
						t.Fatal(err)
					}
					continue
				}
				want, err := os.ReadFile(golden)
				if err != nil {
					t.Fatalf("%v (run with -update to create it)", err)
				}
				if !bytes.Equal(got, want) {
					t.Errorf("%s differs from %s:\n%s", name, golden, firstDiff(string(got), string(want)))
				}
			}
		})
	}
}

// firstDiff describes the first line where got and want differ.
func firstDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < max(len(g), len(w)); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			return fmt.Sprintf("line %d:\n got: %s\nwant: %s", i+1, gl, wl)
		}
	}
	return "(same lines, different bytes)"
}

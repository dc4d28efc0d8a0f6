// Golden files: a test compares what the code writes with a file under
// testdata/, and go test ./... -update rewrites every such file from the
// code instead. Review the diff of a rewritten file before committing it.
//
// The -update flag is defined here, once. A test binary refuses a flag it
// does not define, so every package with tests imports testkit; those
// without golden files import it for the flag alone (see their
// update_test.go).

package testkit

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

// Update reports whether the tests run with -update.
// Then they rewrite their golden files rather than compare with them.
func Update() bool { return *update }

// Golden compares got with the golden file at path.
// It reports the first differing line as an error of t.
// With -update it writes got to path instead, creating its folder if need be.
func Golden(t testing.TB, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -update writes it from the code)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the code's output (go test -update rewrites it; review the diff): %s",
			path, FirstDiff(string(got), string(want)))
	}
}

// FirstDiff describes the first line where got and want differ.
func FirstDiff(got, want string) string {
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

// Package slowtest gates the tests that run programs outside Go.
// These are spreadsheet clients, container and cluster engines, and
// whole-program memory runs.
//
// They run only in a build with the tag slow (go test -tags slow ./...), as
// .ci/run does. A plain go test ./... skips them. Once they are asked for,
// a missing program is a failure, not a skip. So a CI machine cannot pass
// them by accident.
package slowtest

import (
	"os/exec"
	"testing"
)

// Require skips t unless the slow tests are asked for.
// Then it fails t unless every program is on the PATH.
// It returns the programs' paths in the order given.
func Require(t testing.TB, programs ...string) []string {
	t.Helper()
	if !On {
		t.Skip("a slow test: go test -tags slow runs it (.ci/run does)")
	}
	paths := make([]string, len(programs))
	for i, p := range programs {
		path, err := exec.LookPath(p)
		if err != nil {
			t.Fatalf("%s is not installed, and -tags slow asks for the tests that need it (.ci/run installs it)", p)
		}
		paths[i] = path
	}
	return paths
}

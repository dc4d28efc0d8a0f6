// Package testkit is what the project's tests share: golden files, the
// gate of the slow tests, FIFOs and the process's CPU time.
//
// The slow tests run programs outside Go: spreadsheet clients, container
// and cluster engines, and whole-program memory runs. They run only in a
// build with the tag slow (go test -tags slow ./...), as .ci/run does. A
// plain go test ./... skips them. Once they are asked for, a missing
// program is a failure, not a skip, so a CI machine cannot pass them by
// accident.
package testkit

import (
	"os/exec"
	"testing"
)

// RequireSlow skips t unless the slow tests are asked for.
// Then it fails t unless every program is on the PATH.
// It returns the programs' paths in the order given.
func RequireSlow(t testing.TB, programs ...string) []string {
	t.Helper()
	if !Slow {
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

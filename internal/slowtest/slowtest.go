// Package slowtest gates the tests that run programs outside Go: spreadsheet
// clients, container and cluster engines, and whole-program memory runs.
//
// They run only when the environment sets CKPTLAB_SLOW_TESTS=1, as .ci/run
// does; a plain go test ./... skips them. Once asked for, a missing program
// is a failure, not a skip, so a CI machine cannot pass them by accident.
package slowtest

import (
	"os"
	"os/exec"
	"testing"
)

// Variable is the environment variable that turns the slow tests on.
const Variable = "CKPTLAB_SLOW_TESTS"

// On reports whether the slow tests are asked for.
func On() bool { return os.Getenv(Variable) == "1" }

// Require skips t unless the slow tests are asked for, and then fails it
// unless every program is on the PATH. It returns the programs' paths in
// the order given.
func Require(t testing.TB, programs ...string) []string {
	t.Helper()
	if !On() {
		t.Skip("a slow test: " + Variable + "=1 runs it (.ci/run sets it)")
	}
	paths := make([]string, len(programs))
	for i, p := range programs {
		path, err := exec.LookPath(p)
		if err != nil {
			t.Fatalf("%s is not installed; %s=1 asks for the tests that need it (.ci/run installs it)", p, Variable)
		}
		paths[i] = path
	}
	return paths
}

package experiment

import "flag"

// update makes tests rewrite their golden files from the code instead of
// comparing with them: go test ./runner/experiment -update. Every test of the
// package that has a golden file uses this one flag.
var update = flag.Bool("update", false, "rewrite golden files")

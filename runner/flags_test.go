package runner

import "flag"

// runner has no golden files; it accepts -update so that the README's
// `go test ./... -update` runs in every package.
var _ = flag.Bool("update", false, "rewrite golden files (none in this package)")

package safefile

// This package has no golden files.
// It accepts the -update flag of go test ./... -update, which rewrites the
// golden files of the packages that have them (see internal/testkit).
import _ "ckptlab/internal/testkit"

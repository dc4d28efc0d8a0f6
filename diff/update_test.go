package diff

// This package has no golden files; it accepts the -update flag of
// go test ./... -update, which rewrites those of the packages that have
// them (see internal/testkit).
import _ "ckptlab/internal/testkit"

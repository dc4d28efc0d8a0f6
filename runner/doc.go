// Package runner evaluates experiments. It counts the sources of an
// experiment's grid, in parallel or cut into shards that merge back, and
// evaluates the recovery model at every point of the grid. It also writes
// the plan of a run and bounds its memory before any work. Package report
// turns the result into what a run writes.
package runner

// Package runner evaluates experiments: it counts the sources of an
// experiment's grid, in parallel or cut into shards that merge back,
// evaluates the recovery model at every point of the grid, and turns the
// result into the tables, views, charts, decisions and headline a run
// writes. It also writes the plan of a run and bounds its memory before
// any work. Reading an experiment file into an Experiment is package
// experiment's job.
package runner

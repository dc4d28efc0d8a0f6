// Package model is the recovery-cost model of the lesson "State in Stream Engines":
// the generated meter-reading source, its faults, the three pipeline stages, the
// partitioning of the stream over workers, and the recovery a failure costs.
//
// The lesson's Python blocks are the reference semantics; every function here
// reproduces them bit for bit. The package is pure: no I/O, no configuration files.
//
// A run evaluates a source with Count, which tallies the rows that survive
// the stages without generating a record (see count.go). The lesson's
// semantics record by record (Generate, Faults, Stages, Pipeline, Scan)
// live in the package's test files, reference_*_test.go: the executable
// reference Count is tested against, which no run needs.
package model

// Package model is the recovery-cost model of the lesson "State in Stream Engines".
// It models the generated meter-reading source and its faults.
// It models the three pipeline stages and the partitioning of the stream over workers.
// It computes the recovery a failure costs.
//
// The lesson's Python blocks are the reference semantics.
// Every function here reproduces them bit for bit.
// The package is pure, with no I/O and no configuration files.
//
// A run evaluates a source with Count (see count.go).
// Count tallies the rows that survive the stages without generating a record.
// The lesson's record-by-record semantics live in the test files, reference_*_test.go.
// They are Generate, Faults, Stages, Pipeline and Scan.
// They are the executable reference that Count is tested against.
// No run needs them.
package model

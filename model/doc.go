// Package model is the recovery-cost model of the lesson "State in Stream Engines":
// the generated meter-reading source, its faults, the three pipeline stages, the
// partitioning of the stream over workers, and the recovery a failure costs.
//
// The lesson's Python blocks are the reference semantics; every function here
// reproduces them bit for bit. The package is pure: no I/O, no configuration files.
//
// A run evaluates a source with Count, which tallies the rows that survive
// the stages without generating a record (see count.go). Generate, Faults,
// Stages, Pipeline and Scan carry the lesson's semantics record by record;
// they are the executable reference Count is tested against.
package model

// Package criteria chooses a checkpoint interval from what each interval of
// one source costs.
// The criteria are in docs/decisions.md.
// It ranks intervals by the expected total and by the tail of the cost (CVaR).
// It finds the optimum over every interval.
// It gives the textbook estimates of Young and Daly.
// It computes the exact break-even probabilities between declared intervals.
//
// Like model, the package is pure, with no I/O and no tables.
// Every function works from sums a run already holds.
// These are per-period counts and their prefix sums.
// So deciding never rescans the stream.
package criteria

// Package decide holds the decision criteria (docs/decisions.md): given what every
// checkpoint interval of one source costs, which interval to choose by the
// expected total, the tail of the cost (CVaR), the optimum over every
// interval, the textbook estimates of Young and Daly, and the exact
// break-even probabilities between the declared intervals.
//
// Like model, it is pure: no I/O, no tables. Every function works from sums
// a run already holds (per-period counts and their prefix sums), so deciding
// never rescans the stream.
package decide

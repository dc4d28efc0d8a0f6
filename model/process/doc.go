// Package process is the time model of failures: a job whose periods take
// seconds of work, failures arriving at random with a mean time between
// them, checkpoints and restarts that take time (SPEC section 15).
//
// It evaluates the exact expected time under exponential failures for an
// interval or a schedule of checkpoints, finds the optima over every
// interval and every schedule, gives the textbook optima in periods, and
// simulates the job (exponential or Weibull failures) for a Monte Carlo
// estimate. The package is pure: no I/O.
package process

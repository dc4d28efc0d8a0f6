//go:build race

package results_test

// raceDetector reports whether the tests run with the race detector, which
// allocates for its own bookkeeping.
const raceDetector = true

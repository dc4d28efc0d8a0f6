//go:build !race

package results_test

// raceDetector reports whether the tests run with the race detector.
const raceDetector = false

//go:build race

package report

// raceDetector reports whether the tests run with the race detector, which
// makes the test process several times larger.
const raceDetector = true

package runner

// Widths are the tables' widths the memory bound counts, for the tests of
// package runner_test.
var Widths = map[string]int{
	"grid":      gridWidth,
	"failures":  failuresWidth,
	"decisions": decisionsWidth,
	"breakeven": breakevenWidth,
}

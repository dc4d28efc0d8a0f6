package runner

// The tables' widths, in columns, that the memory bound counts. Package
// report declares the columns; a test holds these to its lists.
const (
	gridWidth      = 22
	failuresWidth  = 11
	decisionsWidth = 18
	breakevenWidth = 9
)

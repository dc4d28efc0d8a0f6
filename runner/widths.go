package runner

// tableShape is a table's width in columns, and how many of them hold
// text, as the memory bound counts them.
type tableShape struct{ columns, texts int }

// The shapes of the tables. Package report declares their columns; a test
// holds these to its tables.
var (
	gridShape      = tableShape{22, 2}
	failuresShape  = tableShape{11, 3}
	decisionsShape = tableShape{18, 7}
	breakevenShape = tableShape{9, 3}
)

package results

// A View is one of the lesson's own tables, as the lesson prints it: the
// recovery at the named failure, the failure × interval matrix, the cost
// table, the probability table with its best interval, and the partitioned
// recovery. An experiment with several sources, partitionings or state-row
// counts has one Block per combination.
type View struct {
	Name   string // sheet name: recovery, matrix, cost, probability, partition
	Title  string // what the table shows, in a sentence
	Blocks []Block
}

// Block is one table of a view, for one combination of the axes it depends
// on, which its Title names.
type Block struct {
	Title   string
	Columns []Column
	Rows    [][]Value
	// Marked lists cells to highlight, as (row, column) pairs: in the
	// probability view, the expected total of the best interval.
	Marked [][2]int
}

// Table returns the block as a Table, for writers of plain tables.
func (b Block) Table(name string) Table {
	return Table{Name: name, Columns: b.Columns, Rows: func(yield func([]Value) bool) {
		for _, r := range b.Rows {
			if !yield(r) {
				return
			}
		}
	}}
}

// ViewNames are the names of the lesson's views, in the lesson's order.
var ViewNames = []string{"recovery", "matrix", "cost", "probability", "partition"}

package results

import (
	"iter"
	"slices"
	"strings"
)

// A View is one of the lesson's own tables, as the lesson prints it: the
// recovery at the named failure, the failure × interval matrix, the cost
// table, the probability table with its best interval, and the partitioned
// recovery. An experiment with several sources, partitionings or state-row
// counts has one Block per combination.
type View struct {
	Name   string // sheet name: recovery, matrix, cost, probability, partition
	Title  string // what the table shows, in a sentence
	Blocks []Block
	// Each, when set, makes the blocks instead of Blocks holding them: one
	// at a time, in order, every time it is ranged over. A view of a sweep
	// has a block per value, so a writer holds one block at a time, not
	// the view.
	Each iter.Seq[Block]
}

// All ranges over the view's blocks in order: those Each makes, or Blocks.
func (v View) All() iter.Seq[Block] {
	if v.Each != nil {
		return v.Each
	}
	return slices.Values(v.Blocks)
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
	// Keys is how many leading columns name a row (the partition key,
	// workers and interval of a worker sweep's partition table): a writer
	// that splits a wide table repeats them in every part. 0 counts the
	// first column alone.
	Keys int
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

// A Chart is a figure that answers one of the experiment's questions, with
// the figures it plots: the workbook writes Data as a table and draws the
// chart beside it, the Markdown draws it as a Mermaid chart.
type Chart struct {
	// Data holds the points. Its Title is the chart's title; its first
	// column is the x axis, titled by the column's name, numeric (a scatter
	// chart) when the column holds numbers and categories otherwise; every
	// other column is one line, named by its header ("interval 4").
	Data Block
	// Answers, when it has rows, is a table written above the figures: what
	// the chart's lines answer.
	Answers Block
	// YTitle titles the y axis.
	YTitle string
	// Note says what was left out to keep the chart readable, or "".
	Note string
	// Recommended names the columns of the recommended intervals
	// ("interval 4"), the answer's: their lines are drawn wide, the others
	// thin, each in its interval's colour (IntervalStyle), and they lead the
	// legend. nil emphasises none.
	Recommended []string
	// Envelope names the column that follows the lower envelope, drawn as
	// a line of its own, or "".
	Envelope string
	// WholeRecommended scales the y axis to show the recommended lines
	// whole, not only the lower envelope (the best figure at each x): a
	// chart of the figure the headline states of the recommended
	// intervals, whose lowest line may be another's zeros. An
	// expected-total chart leaves it false: a recommended line is best on
	// its piece and may climb far above the others at the rest.
	WholeRecommended bool
	// Marks are the points marked on the chart, each labelled: the
	// break-even crossings, where the best line changes along the x axis,
	// or each line's best point.
	Marks []Mark
	// MarksName names the marks in the legend and heads their table.
	MarksName string
	// MarksNote says what the marks are, after the chart's note.
	MarksNote string
	// LogY draws the y axis on a log scale, for lines far apart: the time
	// lost at a short and a long MTBF.
	LogY bool
}

// A Mark is a labelled point of a chart: a break-even crossing, at which
// the best interval changes, on the lower envelope, or a line's best point.
type Mark struct {
	X, Y float64
	// Text is the label of a mark that is not a crossing, or "".
	Text string
	// Fraction is X as an exact fraction ("11/18"), or "".
	Fraction string
	// From and To name the lines best before and after X ("interval none",
	// "interval 6").
	From, To string
}

// Label is the mark's label on a chart: "p = 11/18: none → 6", the
// probability as a decimal when its fraction is long.
func (m Mark) Label() string {
	if m.Text != "" {
		return m.Text
	}
	x := m.Fraction
	if x == "" || len(x) > len("11/18") {
		x = Probability.Format(m.X) // 2200/3501 reads worse than 0.6284
	}
	return "p = " + x + ": " + strings.TrimPrefix(m.From, "interval ") + " → " + strings.TrimPrefix(m.To, "interval ")
}

// IsRecommended reports whether the column named name is a recommended
// interval's.
func (c Chart) IsRecommended(name string) bool { return slices.Contains(c.Recommended, name) }

// Numeric reports whether the chart's x values are numbers.
func (c Chart) Numeric() bool {
	return len(c.Data.Columns) > 0 && c.Data.Columns[0].Kind != Text && c.Data.Columns[0].Kind != Bool
}

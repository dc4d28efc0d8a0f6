package report

import (
	"fmt"
	"slices"

	"ckptlab/results"
)

// A tableColumn is one column of a table whose rows are made from values
// of R (a grid point, a decision, a piece of an envelope): its name and
// kind, and the function that gives a row its cell, the one of its kind.
// Each table declares its columns once, as a list of them next to the code
// that makes its rows; the header, the kinds and every row's cells follow
// that list, so adding a column is one line.
type tableColumn[R any] struct {
	results.Column
	int   func(r *R) int64
	float func(r *R) float64
	text  func(r *R) string
	bool  func(r *R) bool
}

// intColumn, floatColumn, textColumn and boolColumn make columns of each
// kind. A float column shows decimals digits after the point to a reader
// of the workbook (-1: every digit); the CSV holds the exact value.
func intColumn[R any](name string, value func(r *R) int64) tableColumn[R] {
	return tableColumn[R]{Column: results.Column{Name: name, Kind: results.Int}, int: value}
}

func floatColumn[R any](name string, decimals int, value func(r *R) float64) tableColumn[R] {
	return tableColumn[R]{Column: results.Column{Name: name, Kind: results.Float, Decimals: decimals}, float: value}
}

func textColumn[R any](name string, value func(r *R) string) tableColumn[R] {
	return tableColumn[R]{Column: results.Column{Name: name, Kind: results.Text}, text: value}
}

func boolColumn[R any](name string, value func(r *R) bool) tableColumn[R] {
	return tableColumn[R]{Column: results.Column{Name: name, Kind: results.Bool}, bool: value}
}

// shownAs returns the column with its numbers shown as the quantity q
// rather than as its kind suggests (see results.Column.Shown).
func (c tableColumn[R]) shownAs(q results.Quantity) tableColumn[R] {
	c.Quantity = q
	return c
}

// numbers marks a text column of numbers but for a label, such as an
// interval (4 or none): JSON writes its numbers as numbers.
func (c tableColumn[R]) numbers() tableColumn[R] {
	c.Numeric = true
	return c
}

// header returns the columns as a table declares them.
func header[R any](cols []tableColumn[R]) []results.Column {
	out := make([]results.Column, len(cols))
	for i, c := range cols {
		out[i] = c.Column
	}
	return out
}

// columnsNamed returns the columns of cols of the given names, in cols's
// order: a table that shows some columns of another takes them from its
// declaration rather than declaring them again. A name cols does not have
// is a mistake of the program, and panics as the package starts.
func columnsNamed[R any](cols []tableColumn[R], names ...string) []tableColumn[R] {
	var out []tableColumn[R]
	for _, c := range cols {
		if slices.Contains(names, c.Name) {
			out = append(out, c)
		}
	}
	if len(out) != len(names) {
		panic(fmt.Sprintf("report: columns %q are not all among the table's", names))
	}
	return out
}

// appendRow appends r's cells, one per column, to dst.
func appendRow[R any](dst []results.Value, cols []tableColumn[R], r *R) []results.Value {
	for i := range cols {
		c := &cols[i]
		switch c.Kind {
		case results.Int:
			dst = append(dst, results.IntValue(c.int(r)))
		case results.Float:
			dst = append(dst, results.FloatValue(c.float(r)))
		case results.Text:
			dst = append(dst, results.TextValue(c.text(r)))
		case results.Bool:
			dst = append(dst, results.BoolValue(c.bool(r)))
		}
	}
	return dst
}

// GridColumns, DecisionColumns and BreakevenColumns return the columns of
// grid.csv, decisions.csv and breakeven.csv, for a reader of those files.
func GridColumns() []results.Column      { return header(gridColumns) }
func DecisionColumns() []results.Column  { return header(decisionColumns) }
func BreakevenColumns() []results.Column { return header(breakevenColumns) }

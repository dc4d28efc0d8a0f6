// Package results holds ckptlab's result tables and their writers. A table
// is a model (columns and rows of typed values) kept apart from its
// renderings: CSV for CI and diffs, XLSX for analysts, Markdown for job
// summaries. Package folder puts the files in place.
package results

import (
	"iter"
	"math"
	"strconv"
)

// Kind is the type of a column's values.
type Kind uint8

// The kinds of values.
const (
	Int Kind = iota
	Float
	Text
	Bool
)

// Column describes one column of a table.
type Column struct {
	Name string
	Kind Kind
	// Decimals, for a Float column, is how many decimals a reader should be
	// shown (the lesson prints averages with one); -1 shows every digit.
	// The CSV always holds the exact value.
	Decimals int
	// Quantity is the kind of quantity the column holds, which fixes how
	// every writer shows it; when not set, Shown derives it from the kind.
	Quantity Quantity
	// Numeric marks a Text column of numbers but for a label (an interval:
	// 4 or none): JSON writes its numbers as numbers.
	Numeric bool
}

// Shown returns the kind of quantity a column's numbers are shown as: its
// Quantity, or else a count for whole numbers, a total for a Float with
// decimals and a probability for one shown with every digit (the
// probability columns of every table).
func (c Column) Shown() Quantity {
	if c.Quantity != FromKind {
		return c.Quantity
	}
	switch c.Kind {
	case Int:
		return Count
	case Float:
		if c.Decimals < 0 {
			return Probability
		}
		return Total
	}
	return General
}

// Value is one cell. Only the field of its kind is meaningful.
type Value struct {
	Kind  Kind
	Int   int64
	Float float64
	Text  string
	Bool  bool
}

// IntValue, FloatValue, TextValue and BoolValue make cells.
func IntValue(v int64) Value     { return Value{Kind: Int, Int: v} }
func FloatValue(v float64) Value { return Value{Kind: Float, Float: v} }
func TextValue(v string) Value   { return Value{Kind: Text, Text: v} }
func BoolValue(v bool) Value     { return Value{Kind: Bool, Bool: v} }

// AppendText appends the value as the CSV writes it: integers without a
// decimal point, floats in the shortest decimal form that reads back to the
// same float64 and without an exponent, true/false for booleans.
func (v Value) AppendText(dst []byte) []byte {
	switch v.Kind {
	case Int:
		return strconv.AppendInt(dst, v.Int, 10)
	case Float:
		if math.IsNaN(v.Float) || math.IsInf(v.Float, 0) {
			return strconv.AppendFloat(dst, v.Float, 'g', -1, 64)
		}
		return strconv.AppendFloat(dst, v.Float, 'f', -1, 64)
	case Bool:
		return strconv.AppendBool(dst, v.Bool)
	}
	return append(dst, v.Text...)
}

// String returns the value as AppendText writes it: a text as it is, any
// other value formatted on the stack, so that only the string allocates.
func (v Value) String() string {
	if v.Kind == Text {
		return v.Text
	}
	var buf [32]byte
	return string(v.AppendText(buf[:0]))
}

// Table is a result table whose rows are produced on demand, so that a
// table of millions of rows is never held in memory. The slice a row is
// yielded in may be reused for the next row.
type Table struct {
	Name    string
	Columns []Column
	Rows    iter.Seq[[]Value]
	// Len is the number of rows, when it is known without reading them;
	// 0 means not known. The workbook writer names a sheet's rows before
	// writing them, and reads a table of unknown length once more to
	// count them. A Len that Rows does not keep to fails the write.
	Len int
	// Count, where Len is not known, counts the rows without making
	// them, for a table cheaper to count than to read; nil: Rows is read
	// to count them. Only the workbook writer asks, so a run without a
	// workbook never counts.
	Count func() int
}

// Header returns the column names.
func (t Table) Header() []string {
	out := make([]string, len(t.Columns))
	for i, c := range t.Columns {
		out[i] = c.Name
	}
	return out
}

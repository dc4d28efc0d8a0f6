package workbook

import (
	"math"
	"slices"
	"unicode/utf8"

	"ckptlab/results"

	"github.com/xuri/excelize/v2"
)

// viewWidths are each column's width in characters: its widest header
// or value over the blocks added, within bounds. Titles are left out:
// they run on over the empty cells to their right.
type viewWidths struct {
	widths []float64
	buf    []byte
}

// add widens the columns to fit the block.
func (vw *viewWidths) add(blk results.Block) {
	grow := func(i, n int) {
		for len(vw.widths) <= i {
			vw.widths = append(vw.widths, 8)
		}
		vw.widths[i] = max(vw.widths[i], float64(min(n+2, 40)))
	}
	for i, c := range blk.Columns {
		grow(i, utf8.RuneCountInString(c.Name))
	}
	for _, r := range blk.Rows {
		for i, v := range r {
			if shownAtMost(v, blk.Columns[i], int(vw.widths[i])-2) {
				continue // it cannot widen the column
			}
			vw.buf = appendShown(vw.buf[:0], v, blk.Columns[i])
			grow(i, utf8.RuneCount(vw.buf))
		}
	}
}

// shownAtMost reports whether the value, shown in its column
// (appendShown), is known to take at most n characters without writing
// it: a number of a fixed number of decimals, from its magnitude. Most of
// a view's numbers are no wider than their column already is, and
// writing each as it is shown was most of measuring the columns.
func shownAtMost(v results.Value, c results.Column, n int) bool {
	q := c.Shown()
	if q == results.Seconds || q == results.Share { // words, not digits
		return false
	}
	var neg bool
	var digits int // at most this many digits before the point
	switch {
	case v.Kind == results.Float && q.Decimals() >= 0 && math.Abs(v.Float) < 1e15:
		// Rounded to its decimals, a number below 10^k - 1 stays below 10^k.
		a := math.Abs(v.Float)
		neg, digits = math.Signbit(v.Float), 1
		for p := 10.0; a >= p-1; p *= 10 {
			digits++
		}
	case v.Kind == results.Int && q != results.General && v.Int != math.MinInt64:
		a := v.Int
		neg, digits = a < 0, 1
		if neg {
			a = -a
		}
		for ; a >= 10; a /= 10 {
			digits++
		}
	default:
		return false
	}
	width := digits
	if neg {
		width++
	}
	if q.Thousands() {
		width += (digits - 1) / 3
	}
	if q.Decimals() > 0 {
		width += 1 + q.Decimals()
	}
	return width <= n
}

// of returns the widths, at least one column's.
func (vw *viewWidths) of() []float64 {
	if len(vw.widths) == 0 {
		return []float64{8}
	}
	return vw.widths
}

// widthsOf returns the widths of the blocks' columns (see viewWidths).
func widthsOf(blocks []results.Block) []float64 {
	var vw viewWidths
	for _, blk := range blocks {
		vw.add(blk)
	}
	return vw.of()
}

// setWidths sets the columns' widths (see setColWidths).
func (vs viewSheet) setWidths(widths []float64) error { return setColWidths(vs.sw, widths) }

// setColWidths sets the widths of a stream-written sheet's columns, from
// the last column, so that excelize writes <cols> in the ascending order
// Excel requires.
func setColWidths(sw *excelize.StreamWriter, widths []float64) error {
	for i, w := range slices.Backward(widths) {
		if err := sw.SetColWidth(i+1, i+1, w); err != nil {
			return err
		}
	}
	return nil
}

// appendShown appends a value as a sheet shows it in its column.
func appendShown(dst []byte, v results.Value, c results.Column) []byte {
	switch v.Kind {
	case results.Float:
		return c.Shown().Append(dst, v.Float)
	case results.Int:
		if q := c.Shown(); q != results.General {
			return q.AppendInt(dst, v.Int)
		}
	}
	return v.AppendText(dst)
}

package results

import (
	"encoding/csv"
	"io"
	"math"
	"strconv"
)

// WriteCSV writes the table as RFC 4180 CSV with a header row and \n line
// ends. Values are written as Value.AppendText gives them.
//
// encoding/csv does the writing and the quoting. What WriteCSV adds is the
// turning of cells into the strings encoding/csv takes, which for a table of
// millions of rows costs more than the writing: a string per cell would be
// an allocation per cell, and formatting a float takes longer than writing
// it. So text cells are passed as they are and booleans as constants;
// numbers are looked up among the numbers their column held lately, as the
// grid repeats most of its numbers (its axes change slowly, and every
// metric but expected_total is the same at every probability); and the
// numbers left are formatted into one buffer that becomes one string for
// the row.
func WriteCSV(w io.Writer, t Table) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(t.Header()); err != nil {
		return err
	}
	var (
		record = make([]string, len(t.Columns))
		lately = make([]recentTexts, len(t.Columns))
		buf    []byte
		fresh  []freshCell // the cells formatted into buf for this row
	)
	for row := range t.Rows {
		buf, fresh = buf[:0], fresh[:0]
		for i := range row {
			v := &row[i] // a Value is six words; do not copy it
			switch v.Kind {
			case Text:
				record[i] = v.Text
				continue
			case Bool:
				record[i] = strconv.FormatBool(v.Bool)
				continue
			}
			n := numberOf(v)
			if r := lately[i].slot(n); r.n == n {
				record[i] = r.text
				continue
			}
			start := len(buf)
			buf = v.AppendText(buf)
			fresh = append(fresh, freshCell{i, start, len(buf)})
		}
		if len(fresh) > 0 {
			s := string(buf)
			for _, c := range fresh {
				n := numberOf(&row[c.col])
				record[c.col] = s[c.start:c.end]
				*lately[c.col].slot(n) = recentText{n, record[c.col]}
			}
		}
		if err := cw.Write(record); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// freshCell locates a cell's text in the row's buffer.
type freshCell struct{ col, start, end int }

// number identifies the text of a numeric cell: its kind and its bits.
// Floats are told apart by their bits, as 0 and -0 are equal numbers
// written differently. The zero number is no number: an empty slot.
type number struct {
	ok   bool
	kind Kind
	bits uint64
}

func numberOf(v *Value) number {
	if v.Kind == Float {
		return number{true, Float, math.Float64bits(v.Float)}
	}
	return number{true, v.Kind, uint64(v.Int)}
}

// recentTexts remembers the text of numbers one column held lately: a
// table of slots indexed by a hash of the number, where a number takes the
// slot of whatever was there before. A lookup costs a multiplication and a
// comparison. The number of the row above is always there, as no other
// number of the column came in between.
type recentTexts struct {
	slots *[recentSlots]recentText // made at the first number
}

// recentSlots is a power of two above the 121 intervals of a 120-period
// grid, whose metrics repeat at every probability.
const recentSlots = 256

type recentText struct {
	n    number
	text string
}

// slot returns the slot of number n: the top bits of a Fibonacci hash of
// its bits, which spreads nearby integers and floats alike.
func (r *recentTexts) slot(n number) *recentText {
	if r.slots == nil {
		r.slots = new([recentSlots]recentText)
	}
	return &r.slots[n.bits*0x9E3779B97F4A7C15>>(64-8)]
}

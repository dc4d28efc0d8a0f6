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
// encoding/csv does the writing and quoting; WriteCSV only turns cells into
// the strings it takes, which is most of the cost of a table of millions of
// rows. So it avoids a string per cell: text cells are passed as they are,
// booleans as constants, a number equal to the one above it in its column
// (the axes of the grid change slowly) reuses that cell's string, and the
// numbers left are formatted into one buffer that becomes one string for
// the row.
func WriteCSV(w io.Writer, t Table) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(t.Header()); err != nil {
		return err
	}
	var (
		record = make([]string, len(t.Columns))
		held   = make([]number, len(t.Columns)) // the number each record cell holds
		buf    []byte
		fresh  []freshCell // the cells formatted into buf for this row
	)
	for row := range t.Rows {
		buf, fresh = buf[:0], fresh[:0]
		for i, v := range row {
			var n number
			switch v.Kind {
			case Text:
				record[i] = v.Text
			case Bool:
				record[i] = strconv.FormatBool(v.Bool)
			default:
				if n = numberOf(v); n != held[i] {
					start := len(buf)
					buf = v.AppendText(buf)
					fresh = append(fresh, freshCell{i, start, len(buf)})
				}
			}
			held[i] = n
		}
		if len(fresh) > 0 {
			s := string(buf)
			for _, c := range fresh {
				record[c.col] = s[c.start:c.end]
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
// written differently. The zero number stands for a cell that holds no
// number: a text or boolean cell, or none yet. A number holds no pointer,
// so keeping one per column costs no garbage-collector write barrier.
type number struct {
	ok   bool
	kind Kind
	bits uint64
}

func numberOf(v Value) number {
	if v.Kind == Float {
		return number{true, Float, math.Float64bits(v.Float)}
	}
	return number{true, v.Kind, uint64(v.Int)}
}

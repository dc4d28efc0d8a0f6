package results

import (
	"encoding/csv"
	"io"
)

// WriteCSV writes the table as RFC 4180 CSV with a header row and \n line
// ends. Values are written as Value.AppendText gives them.
func WriteCSV(w io.Writer, t Table) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(t.Header()); err != nil {
		return err
	}
	record := make([]string, len(t.Columns))
	var buf []byte
	var ends []int
	for row := range t.Rows {
		buf, ends = buf[:0], ends[:0]
		for _, v := range row {
			buf = v.AppendText(buf)
			ends = append(ends, len(buf))
		}
		// One string for the whole row, sliced per field: one allocation
		// a row instead of one a cell.
		s := string(buf)
		start := 0
		for i, end := range ends {
			record[i] = s[start:end]
			start = end
		}
		if err := cw.Write(record); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

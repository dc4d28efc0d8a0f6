package results

import (
	"context"
	"io"
)

// WriteXLSXSheetRows writes the set's workbook as WriteXLSX does, with at
// most rows data rows a sheet instead of MaxSheetRows.
func WriteXLSXSheetRows(w io.Writer, s Set, rows int) error {
	return xlsxWriter{sheetRows: rows}.write(context.Background(), w, s)
}

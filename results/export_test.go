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

// WithoutExchange makes swaps take the fallback of a system without an
// atomic exchange of folders until the returned function is called.
func WithoutExchange() (restore func()) {
	exchangeFolders = func(a, b string) error { return errNoExchange }
	return func() { exchangeFolders = exchange }
}

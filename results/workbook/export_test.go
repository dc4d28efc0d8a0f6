package workbook

import (
	"context"
	"io"

	"ckptlab/results"
)

// WriteSheetRows writes the set's workbook as Write does, with at
// most rows data rows a sheet instead of MaxSheetRows.
func WriteSheetRows(w io.Writer, s results.Set, rows int) error {
	return xlsxWriter{sheetRows: rows}.write(context.Background(), w, s)
}

// MaxPageBreaks is maxPageBreaks, for tests of the sheets that pass it.
const MaxPageBreaks = maxPageBreaks

// PackedAtOnce is packedAtOnce, for the floor of the workbook's benchmarks.
func PackedAtOnce() int { return packedAtOnce() }

// NewParallelDeflater is newParallelDeflater, for the floor of the
// workbook's benchmarks: the same compression, pieces and level.
func NewParallelDeflater(w io.Writer) io.WriteCloser { return newParallelDeflater(w) }

// DeflatedCRC returns the CRC-32 and size of what a writer of
// NewParallelDeflater was given.
func DeflatedCRC(w io.WriteCloser) (uint32, int64) {
	d := w.(*parallelDeflater)
	return d.crc, d.size
}

// PagedView is pagedView of that name: n blocks of rows rows.
func PagedView(name string, n, rows int) results.View {
	v := pagedView(n, rows, false)
	v.Name = name
	return v
}

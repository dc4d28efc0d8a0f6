package workbook

import (
	"archive/zip"
	"bytes"
	"context"
	"fmt"
	"io"
	"math"
	"strings"
	"testing"

	"ckptlab/results"

	"github.com/xuri/excelize/v2"
)

// streamRowsByExcelize writes rows as the workbook did before it wrote
// them itself: one SetRow of excelize's stream writer per row, numbers
// and booleans as Go values. It is the reference the workbook's rows are
// held to.
func streamRowsByExcelize(ctx context.Context, sw *excelize.StreamWriter, rows tableRows, lo, hi int) error {
	cells := make([]any, len(rows.t.Columns))
	n := 0
	for row := range rows.t.Rows {
		if n >= hi {
			break
		}
		if n >= lo {
			for i, v := range row {
				if rows.numeric[i] {
					cells[i] = numericCellValue(v)
				} else {
					cells[i] = cellValue(v)
				}
			}
			if err := sw.SetRow(cellName(1, n-lo+2), cells); err != nil {
				return err
			}
		}
		n++
	}
	return ctx.Err()
}

// hostileTable is a table of every kind of cell a table can hold: text
// that needs escaping, spaces kept, Office escapes and the length limit,
// numeric texts that are and are not numbers, floats past a cell's digits,
// NaN and infinities, booleans.
func hostileTable() results.Table {
	long := strings.Repeat("é", excelize.TotalCellChars-1) + "𝄞tail" // cut inside the surrogate pair
	texts := []string{"", "subscriber", "none", `a<b&c>"d'`, " lead", "trail ", "\ttab", "line\nend", "cr\rhere",
		"_x0041_", "_x00zz_", "x_x12345_y", "é ü 𝄞", "\x01control", long}
	numeric := []string{"none", "7", "-3", "2.5", "0.1", "1e5", "", "12345678901234567890", "1.234567890123456789", "-", "."}
	floats := []float64{0, math.Copysign(0, -1), 1.0 / 3, 2.0 / 3 * 1e20, 1e300, -1e-300, math.SmallestNonzeroFloat64,
		math.MaxFloat64, -math.MaxFloat64, 1.797693134862315e308, 0.9166666666666666, 123456789012345678,
		math.NaN(), math.Inf(1), math.Inf(-1)}
	ints := []int64{0, -1, math.MaxInt64, math.MinInt64}
	cols := []results.Column{{Name: "text", Kind: results.Text}, {Name: "interval", Kind: results.Text}, {Name: "x", Kind: results.Float, Decimals: 1},
		{Name: "n", Kind: results.Int}, {Name: "best", Kind: results.Bool}, {Name: "y", Kind: results.Float, Decimals: -1}}
	rows := max(len(texts), len(numeric), len(floats), len(ints)) * 3
	return results.Table{Name: "hostile", Columns: cols, Rows: func(yield func([]results.Value) bool) {
		cells := make([]results.Value, len(cols))
		for i := range rows {
			cells[0] = results.TextValue(texts[i%len(texts)])
			cells[1] = results.TextValue(numeric[i%len(numeric)])
			cells[2] = results.FloatValue(floats[i%len(floats)])
			cells[3] = results.IntValue(ints[i%len(ints)])
			cells[4] = results.BoolValue(i%3 == 0)
			cells[5] = results.FloatValue(floats[(i*7)%len(floats)])
			if i%5 == 4 { // a column of another kind now and then
				cells[3] = results.TextValue(texts[i%len(texts)])
			}
			if !yield(cells) {
				return
			}
		}
	}}
}

// TestSheetRowsMatchExcelize holds the workbook's own rows to excelize's
// stream writer: every part of the package, uncompressed, is the same,
// byte for byte, with tables on one sheet and split over several.
func TestSheetRowsMatchExcelize(t *testing.T) {
	set := results.Set{
		Name:     "rows",
		Grid:     scaleGrid(3000),
		Failures: hostileTable(),
		Config:   []results.Setting{{Key: "name", Value: "rows"}},
		Version:  "test",
	}
	for _, sheetRows := range []int{0, 7, 1000} {
		if sheetRows == 1000 { // the grid's length known: not counted first
			set.Grid.Len = 3000
		}
		ours := zipParts(t, xlsxWriter{sheetRows: sheetRows}, set)
		theirs := zipParts(t, xlsxWriter{sheetRows: sheetRows, streamRows: streamRowsByExcelize}, set)
		compareParts(t, fmt.Sprintf("sheet rows %d", sheetRows), ours, theirs)
	}
}

// zipParts writes the set's workbook and returns its parts, uncompressed,
// by name.
// compareParts reports every part of theirs (excelize's own output) that
// ours lacks or writes otherwise, with the bytes around the first
// difference.
func compareParts(t *testing.T, label string, ours, theirs map[string]string) {
	t.Helper()
	if len(ours) != len(theirs) {
		t.Fatalf("%s: the workbook has %d parts, excelize's %d", label, len(ours), len(theirs))
	}
	for name, want := range theirs {
		got, ok := ours[name]
		switch {
		case !ok:
			t.Errorf("%s: the workbook lacks %s", label, name)
		case got != want:
			i := 0
			for i < len(got) && i < len(want) && got[i] == want[i] {
				i++
			}
			t.Errorf("%s: %s differs from excelize's at byte %d:\n got %q\nwant %q", label, name, i,
				got[max(0, i-60):min(len(got), i+60)], want[max(0, i-60):min(len(want), i+60)])
		}
	}
}

func zipParts(t *testing.T, x xlsxWriter, s results.Set) map[string]string {
	t.Helper()
	x.scratch = t.TempDir()
	var buf bytes.Buffer
	if err := x.write(context.Background(), &buf, s); err != nil {
		t.Fatal(err)
	}
	zr, err := zip.NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	parts := make(map[string]string)
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(rc)
		if err != nil {
			t.Fatalf("%s: %v", f.Name, err)
		}
		parts[f.Name] = string(b)
	}
	return parts
}

// TestTableLenMustHold checks that a table whose rows are not the Len it
// claims fails the workbook, whichever way it is wrong, rather than
// writing sheets whose filter names other rows.
func TestTableLenMustHold(t *testing.T) {
	for _, tt := range []struct {
		len  int
		want string
	}{
		{2999, "has more than the 2999 rows"},
		{3001, "ended at row 3000, before the 3001 rows"},
	} {
		grid := scaleGrid(3000)
		grid.Len = tt.len
		set := results.Set{Name: "len", Grid: grid, Failures: hostileTable(), Version: "test"}
		for _, sheetRows := range []int{0, 1000} {
			err := xlsxWriter{sheetRows: sheetRows, scratch: t.TempDir()}.write(context.Background(), io.Discard, set)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Len %d, sheets of %d rows: got %v, want an error saying it %s", tt.len, sheetRows, err, tt.want)
			}
		}
	}
}

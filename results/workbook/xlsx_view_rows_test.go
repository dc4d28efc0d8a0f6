package workbook

import (
	"context"
	"fmt"
	"io"
	"iter"
	"math"
	"testing"

	"ckptlab/results"

	"github.com/xuri/excelize/v2"
)

// streamViewByExcelize writes a view's blocks as the workbook did before
// it wrote them itself: each piece of a block that fits with
// viewSheet.block, a SetRow of excelize's stream writer per row, and the
// page breaks where they fall. It is the reference the workbook's blocks
// are held to.
func streamViewByExcelize(b *workbook, sw *excelize.StreamWriter, rows viewRows) error {
	vs := viewSheet{b: b, name: rows.v.Name, sw: sw}
	return rows.lay(b.ctx, sw.InsertPageBreak, vs.block)
}

// hostileViews are views of every shape a view sheet takes: many blocks
// (page breaks), blocks without rows or columns, rows of every kind of
// cell, marked cells, interval columns of numbers and none, a block of
// more rows than a page, a view with no block, views made by Each, and
// one with rows shorter than its header, with cells marked out of
// their rows' order (laid out from its blocks, not their counts), and one
// of more pages than a sheet's page breaks allow, laid out for the screen.
func hostileViews() []results.View {
	ht := hostileTable()
	var hostile [][]results.Value
	for r := range ht.Rows {
		hostile = append(hostile, append([]results.Value(nil), r...))
	}
	cols := []results.Column{{Name: "interval", Kind: results.Text}, {Name: "checkpoints", Kind: results.Int},
		{Name: "expected total", Kind: results.Float, Decimals: 1}, {Name: "share", Kind: results.Float, Decimals: -1}}
	block := func(i, rows int) results.Block {
		blk := results.Block{Title: fmt.Sprintf("seed %d, state rows %d", i, i*25), Columns: cols}
		for r := range rows {
			interval := results.TextValue("none")
			if r > 0 {
				interval = results.TextValue(fmt.Sprint(r))
			}
			blk.Rows = append(blk.Rows, []results.Value{interval, results.IntValue(int64(12 / max(r, 1))), results.FloatValue(float64(i*25) + 2200.0/float64(r+3)), results.FloatValue(math.Sqrt(float64(i + r)))})
		}
		if rows > 0 {
			blk.Marked = [][2]int{{i % rows, 2}}
		}
		return blk
	}
	many := func(yield func(results.Block) bool) {
		for i := range 300 {
			if !yield(block(i, i%7)) {
				return
			}
		}
	}
	return []results.View{
		{Name: "recovery", Title: "One block", Blocks: []results.Block{block(1, 6)}},
		{Name: "matrix", Title: "Hostile cells <&>", Blocks: []results.Block{
			{Title: " lead & <trail> ", Columns: ht.Columns, Rows: hostile, Marked: [][2]int{{0, 2}, {3, 5}, {4, 0}}},
			{Title: "no rows", Columns: cols},
			{Title: "no columns"},
			block(2, 60),
		}},
		{Name: "cost", Title: "Many blocks", Each: iter.Seq[results.Block](many)},
		{Name: "probability", Title: "No block"},
		{Name: "partition", Title: "A long block", Each: func(yield func(results.Block) bool) {
			_ = yield(block(3, 2500)) && yield(block(4, 3))
		}},
		{Name: "ragged", Title: "Blocks laid out from themselves", Blocks: []results.Block{
			block(5, 40),
			{Title: "rows shorter than the header", Columns: cols[:3], Rows: [][]results.Value{
				{results.TextValue("1")}, {}, {results.TextValue("2"), results.IntValue(3)}, {}},
				Marked: [][2]int{{2, 1}, {1, 2}, {0, 0}}},
			block(6, 30),
		}},
		screenView(),
	}
}

// TestViewRowsMatchExcelize holds the blocks the workbook writes into view
// sheets to excelize's stream writer: every part of the package,
// uncompressed, the same byte for byte, with every block on its sheet and
// with sheets too short for them (cut blocks, a note, blocks left out).
func TestViewRowsMatchExcelize(t *testing.T) {
	set := results.Set{
		Name:     "views",
		Grid:     scaleGrid(30),
		Failures: hostileTable(),
		Views:    hostileViews(),
		Config:   []results.Setting{{Key: "name", Value: "views"}},
		Version:  "test",
	}
	for _, sheetRows := range []int{0, 40, 1000} {
		ours := zipParts(t, xlsxWriter{sheetRows: sheetRows}, set)
		theirs := zipParts(t, xlsxWriter{sheetRows: sheetRows, streamViews: streamViewByExcelize}, set)
		compareParts(t, fmt.Sprintf("sheet rows %d", sheetRows), ours, theirs)
	}
}

// TestViewBlocksMadeTwice holds the workbook to making a view's blocks
// twice: once as its sheet is made, to measure the columns and count the
// blocks, and once as the workbook is saved, to write them; the layout on
// the pages is made from the counts. A view whose blocks the counts do not
// tell (rows shorter than the header) is laid out from its blocks, made a
// third time.
func TestViewBlocksMadeTwice(t *testing.T) {
	for _, sheetRows := range []int{0, 40} {
		views := hostileViews()
		ranged := make([]int, len(views))
		for i := range views {
			all := views[i].All()
			views[i].Blocks = nil
			views[i].Each = func(yield func(results.Block) bool) {
				ranged[i]++
				all(yield)
			}
		}
		set := results.Set{Name: "views", Grid: scaleGrid(30), Failures: hostileTable(), Views: views, Config: []results.Setting{{Key: "name", Value: "views"}}, Version: "test"}
		if err := (xlsxWriter{sheetRows: sheetRows}).write(context.Background(), io.Discard, set); err != nil {
			t.Fatal(err)
		}
		for i, v := range views {
			want := 2
			if v.Name == "ragged" {
				want = 3
			}
			if ranged[i] != want {
				t.Errorf("sheet rows %d: view %s: its blocks were made %d times, want %d", sheetRows, v.Name, ranged[i], want)
			}
		}
	}
}

package results

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"unicode/utf8"

	"github.com/xuri/excelize/v2"
)

// writeView writes one of the lesson's views on a sheet of its name: the
// view's title, then per block a bold title row, the header row and the
// rows, with a blank row between blocks. Printed, the title repeats on
// every page and a block that would not fit on what is left of a page
// starts a new one. A view grows with the axes it shows (a state_rows
// sweep of 80,001 values gives 80,001 blocks), so its blocks are never
// held: they are made one at a time, once here to measure the columns,
// count what fits and make the styles, and once more as the workbook is
// saved, when they are written into the sheet (see viewRows) as the
// tables' rows are.
func (b *workbook) writeView(v View) error {
	if err := b.ctx.Err(); err != nil {
		return err
	}
	if err := b.newSheet(v.Name); err != nil {
		return err
	}
	m, err := measureView(b.ctx, v, b.sheetRows+1)
	if err != nil {
		return fmt.Errorf("sheet %s: %w", v.Name, err)
	}
	// A sheet of one block repeats the block's title and column header on
	// every printed page, not just the sheet's title: with one block they
	// are the same rows on every page.
	titleRows := 1
	if len(m.sizes) == 1 {
		titleRows = 4 // the sheet's title, the note's row, the block's title and header
	}
	var width float64
	for _, w := range m.widths.of() {
		width += columnPoints(w)
	}
	layout := layOut(width, columnPoints(m.widths.of()[0]), titleRows)
	if err := b.setUpPrint(v.Name, layout, titleRows, 1); err != nil {
		return err
	}
	sw, err := b.f.NewStreamWriter(v.Name)
	if err != nil {
		return err
	}
	vs := viewSheet{b: b, name: v.Name, sw: sw, printed: true}
	if err := vs.setWidths(m.widths.of()); err != nil {
		return err
	}
	if err := vs.title(1, v.Title, titleStyle); err != nil {
		return err
	}
	if m.note != "" {
		if err := sw.SetRow("A2", []any{m.note}); err != nil {
			return err
		}
	}
	// The blocks' styles, made in the order the blocks first ask for them,
	// so that each gets the id it got when the blocks were written here.
	for _, key := range m.styles {
		if _, err := b.style(key.role, key.quantity); err != nil {
			return err
		}
	}
	rows := viewRows{v: v, last: b.sheetRows + 1, blocks: len(m.sizes), pageRows: layout.rows, styles: maps.Clone(b.styles)}
	if b.streamViews != nil {
		if err := b.streamViews(b, sw, rows); err != nil {
			return fmt.Errorf("sheet %s: %w", v.Name, err)
		}
	} else if err := insertPageBreaks(sw, layout.rows, m.sizes); err != nil {
		return err
	}
	if err := sw.Flush(); err != nil {
		return fmt.Errorf("sheet %s: %w", v.Name, err)
	}
	if b.streamViews == nil {
		path, err := sheetPath(b.f, v.Name)
		if err != nil {
			return err
		}
		rows.part = sheetPart{path: path, dim: dimensionRef(m.cols, m.lastRow)}
		b.rows = append(b.rows, rows)
	}
	return nil
}

// insertPageBreaks breaks the pages of a view's sheet, of pageRows rows
// each, before each block that would not fit on what is left of a page,
// given the rows of each block: a page begins with the sheet's title.
func insertPageBreaks(sw *excelize.StreamWriter, pageRows int, sizes []int) error {
	pages := pager{rows: pageRows, used: 1}
	start := 3
	for i, n := range sizes {
		if pages.place(n+3) && i > 0 {
			if err := sw.InsertPageBreak(cellName(1, start)); err != nil {
				return err
			}
		}
		start += n + 3
	}
	return nil
}

// viewMeasure is what a view's blocks need on its sheet, made one at a
// time: its columns' widths, the rows of each block that fits (cut where
// needed), the note on what was left out, the styles of their cells in
// the order first asked for, and the last column and row that hold a
// cell.
type viewMeasure struct {
	widths        viewWidths
	sizes         []int
	note          string
	styles        []styleKey
	cols, lastRow int
}

// measureView ranges over the view's blocks once and measures them, cut
// to end by row last.
func measureView(ctx context.Context, v View, last int) (*viewMeasure, error) {
	m := &viewMeasure{cols: 1, lastRow: 1}
	fit := newBlockFitter(last)
	seen := make(map[styleKey]bool)
	ask := func(role styleRole, q Quantity) {
		if key := (styleKey{role, q}); !seen[key] {
			seen[key] = true
			m.styles = append(m.styles, key)
		}
	}
	for blk := range v.All() {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		blk, start, ok := fit.place(blk)
		if !ok {
			continue
		}
		m.widths.add(blk)
		m.sizes = append(m.sizes, len(blk.Rows))
		ask(blockStyle, General)
		ask(headerStyle, General)
		ask(numberHeaderStyle, General)
		for _, c := range blk.Columns {
			ask(viewCellRole(c), printedQuantity(c))
		}
		for _, mk := range blk.Marked {
			r, c := mk[0], mk[1]
			if r < 0 || r >= len(blk.Rows) || c < 0 || c >= len(blk.Columns) {
				return nil, fmt.Errorf("block %q marks cell (%d, %d), outside its %d×%d cells", blk.Title, r, c, len(blk.Rows), len(blk.Columns))
			}
			ask(markedStyle, printedQuantity(blk.Columns[c]))
		}
		m.lastRow = start // the block's title
		if len(blk.Columns) > 0 {
			m.cols, m.lastRow = max(m.cols, len(blk.Columns)), start+1
		}
		for i, r := range blk.Rows {
			if len(r) > 0 {
				m.cols, m.lastRow = max(m.cols, len(r)), start+2+i
			}
		}
	}
	if m.note = fit.note(); m.note != "" && m.lastRow < 2 {
		m.lastRow = 2
	}
	return m, nil
}

// viewCellRole is the style role of a view's cells in column c: intervals,
// numbers or none, and labels alike are centred.
func viewCellRole(c Column) styleRole {
	if c.Kind == Text {
		return centredStyle
	}
	return plainStyle
}

// blockFitter lays blocks out from row 3 on, below the sheet's title and
// a row for a note, one at a time, and cuts them to end by row last, the
// last row a sheet has. A view outgrows a sheet only with a sweep of more
// than a million values; the grid sheets still hold every figure.
type blockFitter struct {
	last, row   int
	total, kept int
}

func newBlockFitter(last int) *blockFitter { return &blockFitter{last: last, row: 3} }

// place returns the block as it fits, cut where needed, and the row it
// starts on, or ok false when no row is left for it.
func (f *blockFitter) place(blk Block) (fitted Block, start int, ok bool) {
	f.total += len(blk.Rows)
	room := f.last - (f.row + 1) // rows below the block's title and header
	if room <= 0 {
		return Block{}, 0, false
	}
	if len(blk.Rows) > room {
		blk.Rows = blk.Rows[:room]
		var marked [][2]int
		for _, m := range blk.Marked {
			if m[0] < room {
				marked = append(marked, m)
			}
		}
		blk.Marked = marked
	}
	f.kept += len(blk.Rows)
	start = f.row
	f.row += 2 + len(blk.Rows) + 1
	return blk, start, true
}

// note says how many of the rows placed so far were left out, or "".
func (f *blockFitter) note() string {
	if f.kept == f.total {
		return ""
	}
	return fmt.Sprintf("Only %d of this view's %d rows fit on a sheet; the grid sheets hold every figure.", f.kept, f.total)
}

// fitBlocks places every block (see blockFitter): the blocks that fit,
// cut where needed, the rows they start on, and the note.
func fitBlocks(blocks []Block, last int) ([]Block, []int, string) {
	f := newBlockFitter(last)
	var fitted []Block
	var starts []int
	for _, blk := range blocks {
		if blk, start, ok := f.place(blk); ok {
			fitted = append(fitted, blk)
			starts = append(starts, start)
		}
	}
	return fitted, starts, f.note()
}

// viewSheet is a sheet a view is being written to.
type viewSheet struct {
	b    *workbook
	name string
	sw   *excelize.StreamWriter
	// printed shows numbers as the lesson prints them, not in the number
	// style: a sheet of one of the lesson's own tables.
	printed bool
}

// quantity returns the number style of a column's cells on this sheet.
func (vs viewSheet) quantity(c Column) Quantity {
	if !vs.printed {
		return quantity(c)
	}
	return printedQuantity(c)
}

// printedQuantity is the number style of a column's cells on a sheet of
// one of the lesson's own tables: numbers as the lesson prints them.
func printedQuantity(c Column) Quantity {
	if c.Kind == Float && c.Decimals >= 0 {
		return Printed
	}
	return General
}

// title writes a one-cell title row.
func (vs viewSheet) title(row int, text string, role styleRole) error {
	id, err := vs.b.style(role, General)
	if err != nil {
		return err
	}
	return vs.sw.SetRow(cellName(1, row), []any{excelize.Cell{StyleID: id, Value: text}})
}

// block writes a block from row top on: its title, then its table.
func (vs viewSheet) block(top int, blk Block) error {
	if err := vs.title(top, blk.Title, blockStyle); err != nil {
		return err
	}
	return vs.table(top+1, blk)
}

// table writes a block's header on row top and its rows below.
func (vs viewSheet) table(top int, blk Block) error {
	b := vs.b
	headerID, err := b.style(headerStyle, General)
	if err != nil {
		return err
	}
	numberHeaderID, err := b.style(numberHeaderStyle, General)
	if err != nil {
		return err
	}
	header := make([]any, len(blk.Columns))
	for i, c := range blk.Columns {
		id := headerID
		if c.Kind == Int || c.Kind == Float {
			id = numberHeaderID
		}
		header[i] = excelize.Cell{StyleID: id, Value: c.Name}
	}
	if err := vs.sw.SetRow(cellName(1, top), header); err != nil {
		return err
	}
	numeric := numericTextColumns(blk.Columns)
	styles := make([]int, len(blk.Columns))
	for j, c := range blk.Columns {
		role := plainStyle
		if c.Kind == Text { // intervals, numbers or none, and labels alike
			role = centredStyle
		}
		if styles[j], err = b.style(role, vs.quantity(c)); err != nil {
			return err
		}
	}
	marked := make(map[[2]int]int, len(blk.Marked))
	for _, m := range blk.Marked {
		r, c := m[0], m[1]
		if r < 0 || r >= len(blk.Rows) || c < 0 || c >= len(blk.Columns) {
			return fmt.Errorf("block %q marks cell (%d, %d), outside its %d×%d cells", blk.Title, r, c, len(blk.Rows), len(blk.Columns))
		}
		if marked[m], err = b.style(markedStyle, vs.quantity(blk.Columns[c])); err != nil {
			return err
		}
	}
	first := top + 1
	for i, r := range blk.Rows {
		if i%ctxCheckRows == 0 {
			if err := b.ctx.Err(); err != nil {
				return err
			}
		}
		cells := make([]any, len(r))
		for j, v := range r {
			id := styles[j]
			if m, ok := marked[[2]int{i, j}]; ok {
				id = m
			}
			cells[j] = excelize.Cell{StyleID: id, Value: anyValue(sheetValue(v, numeric[j]))}
		}
		if err := vs.sw.SetRow(cellName(1, first+i), cells); err != nil {
			return err
		}
	}
	return nil
}

// viewWidths are each column's width in characters: its widest header
// or value over the blocks added, within bounds. Titles are left out:
// they run on over the empty cells to their right.
type viewWidths struct {
	widths []float64
	buf    []byte
}

// add widens the columns to fit the block.
func (vw *viewWidths) add(blk Block) {
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
			vw.buf = appendShown(vw.buf[:0], v, blk.Columns[i])
			grow(i, utf8.RuneCount(vw.buf))
		}
	}
}

// of returns the widths, at least one column's.
func (vw *viewWidths) of() []float64 {
	if len(vw.widths) == 0 {
		return []float64{8}
	}
	return vw.widths
}

// widthsOf returns the widths of the blocks' columns (see viewWidths).
func widthsOf(blocks []Block) []float64 {
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
func appendShown(dst []byte, v Value, c Column) []byte {
	switch v.Kind {
	case Float:
		return c.Shown().Append(dst, v.Float)
	case Int:
		if q := c.Shown(); q != General {
			return append(dst, q.FormatInt(v.Int)...)
		}
	}
	return v.AppendText(dst)
}

// cellName returns the name of the cell in column col and row row, both
// from 1.
func cellName(col, row int) string {
	name, _ := excelize.CoordinatesToCellName(col, row)
	return name
}

// columnName returns the letters of column col, from 1.
func columnName(col int) string {
	name, _ := excelize.ColumnNumberToName(col)
	return name
}

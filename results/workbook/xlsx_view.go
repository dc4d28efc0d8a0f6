package workbook

import (
	"fmt"
	"maps"

	"ckptlab/results"

	"github.com/xuri/excelize/v2"
)

// writeView writes one of the lesson's views on a sheet of its name: the
// view's title, then per block a bold title row, the header row and the
// rows, with a blank row between blocks.
//
// Printed, every page shows the column header of the block it holds. A
// sheet of one block repeats its title rows down to that header on every
// page. A sheet of several blocks repeats the sheet's title only, since a
// sheet has one range of repeated rows: there a block that would not fit
// on what is left of a page starts a new one, and a block longer than a
// page is cut at each page's end, its title ("continued") and header
// written again at the top of the next.
//
// A view grows with the axes it shows (a state_rows sweep of 80,001
// values gives 80,001 blocks), so its blocks are never held: they are
// made one at a time, once to measure them (measureView), and once more
// as the workbook is saved, when they are written into the sheet (see
// viewRows) as the tables' rows are. Between the two, the sheet is laid
// out from what the measure counted (layOutView).
func (b *workbook) writeView(v results.View) error {
	if err := b.ctx.Err(); err != nil {
		return err
	}
	if err := b.newSheet(v.Name); err != nil {
		return err
	}
	return b.layOutView(measureView(v, b.sheetRows+1))
}

// viewMeasure is what one pass over a view's blocks tells of them, all
// the layout needs without making them again: the columns' widths, what
// fits on the sheet, and the blocks' counts (blockCounts). What fits
// depends on whether the blocks are continued over pages, which only the
// number of blocks tells once the pass is over, so the pass measures both
// ways: flat, not continued, and continued at the fewest rows a page
// holds (minPageRows), which holds for any page.
type viewMeasure struct {
	v               results.View
	last            int // the last row a block may use
	flat, continued *blockFitter
	widths          viewWidths
	counts          blockCounts
	// blocks is how many blocks fit flat; titleRows the rows every printed
	// page repeats: down to the header of a sheet of one block, else the
	// sheet's title.
	blocks, titleRows int
}

// measureView makes the view's blocks one at a time and measures them
// (see viewMeasure), for a sheet whose blocks may use rows up to last.
func measureView(v results.View, last int) *viewMeasure {
	m := &viewMeasure{v: v, last: last, flat: newBlockFitter(last, 0), continued: newBlockFitter(last, minPageRows), titleRows: 1}
	for blk := range v.All() {
		m.counts.add(blk)
		if fitted, _, ok := m.continued.place(blk); ok {
			m.counts.continued.block(fitted)
		}
		if fitted, start, ok := m.flat.place(blk); ok {
			m.widths.add(fitted)
			m.counts.flat.block(fitted)
			m.blocks++
			m.titleRows = start + 1
		}
	}
	if m.blocks != 1 {
		m.titleRows = 1
	}
	return m
}

// forPrint returns the blocks as they are laid out for print on pages of
// pageRows rows, the styles they ask for and the sheet's note: a sheet of
// one block as it fits flat, its header repeated on every page; of more,
// as they fit continued, each cut as the measure cut it, so that written
// at any page's rows they take at most the rows the measure counted.
func (m *viewMeasure) forPrint(pageRows int) (viewRows, styleAsks, string) {
	rows := viewRows{v: m.v, last: m.last, pageRows: pageRows}
	if m.blocks == 1 {
		return rows, m.counts.flat, m.flat.note()
	}
	rows.fitRows, rows.continued = minPageRows, m.blocks > 1
	return rows, m.counts.continued, m.continued.note()
}

// forScreen returns the blocks as they are laid out for the screen when
// printed they would take pages pages, more than a sheet's page breaks
// allow: as they fit flat, without a page break, and the note says why.
func (m *viewMeasure) forScreen(rows viewRows, pages int) (viewRows, styleAsks, string) {
	rows.fitRows, rows.continued = 0, false
	return rows, m.counts.flat, joinNotes(m.flat.note(), onScreenNote(pages))
}

// layOutView lays a measured view out on its sheet: the print setup, the
// columns' widths and the view's title, then the blocks placed on the
// pages (placeBlocks), and the sheet finished (finishView). Its print
// setup comes first, as excelize's stream writer needs.
func (b *workbook) layOutView(m *viewMeasure) error {
	name, widths := m.v.Name, m.widths.of()
	var width float64
	for _, w := range widths {
		width += columnPoints(w)
	}
	layout := layOut(width, columnPoints(widths[0]), m.titleRows)
	if err := b.setUpPrint(name, layout, m.titleRows, 1); err != nil {
		return err
	}
	sw, err := b.f.NewStreamWriter(name)
	if err != nil {
		return err
	}
	vs := viewSheet{b: b, name: name, sw: sw}
	if err := vs.setWidths(widths); err != nil {
		return err
	}
	if err := vs.title(1, m.v.Title, titleStyle); err != nil {
		return err
	}
	rows, laid, note, err := vs.placeBlocks(m, layout.rows)
	if err != nil {
		return fmt.Errorf("sheet %s: %w", name, err)
	}
	return vs.finishView(rows, laid, note)
}

// placeBlocks lays the blocks out on pages of pageRows rows, or, when
// that needs more page breaks than a sheet holds (maxPageBreaks), for the
// screen, and then makes the styles the layout kept asks for, once, in
// the order it asks: the layout set aside makes none. It returns the
// blocks as laid out, the layout and the sheet's note.
func (vs viewSheet) placeBlocks(m *viewMeasure, pageRows int) (viewRows, viewLayout, string, error) {
	rows, asks, note := m.forPrint(pageRows)
	laid, asks, err := vs.layOut(rows, &m.counts, asks)
	if err != nil {
		return rows, laid, note, err
	}
	if n := laid.breaks.n; n > maxPageBreaks {
		rows, asks, note = m.forScreen(rows, n+1)
		if laid, asks, err = vs.layOut(rows, &m.counts, asks); err != nil {
			return rows, laid, note, err
		}
	}
	for _, k := range asks {
		if _, err := vs.b.style(k.role, k.quantity); err != nil {
			return rows, laid, note, err
		}
	}
	return rows, laid, note, nil
}

// finishView finishes a view's sheet as laid out: its note, its page
// breaks and its dimension, and hands the blocks on to be written as the
// workbook is saved, with the styles made for them (or, where the
// workbook's streamViews says so, writes them now).
func (vs viewSheet) finishView(rows viewRows, laid viewLayout, note string) error {
	b, sw := vs.b, vs.sw
	if note != "" {
		if err := sw.SetRow("A2", []any{note}); err != nil {
			return err
		}
		laid.dim.row = max(laid.dim.row, 2)
	}
	if b.streamViews != nil {
		if err := b.streamViews(b, sw, rows); err != nil {
			return fmt.Errorf("sheet %s: %w", vs.name, err)
		}
	} else {
		for _, cell := range laid.breaks.cells {
			if err := sw.InsertPageBreak(cell); err != nil {
				return fmt.Errorf("sheet %s: %w", vs.name, err)
			}
		}
		rows.pieces = laid.dim.pieces
		path, err := sheetPath(b.f, vs.name)
		if err != nil {
			return err
		}
		rows.part = sheetPart{path: path, dim: dimensionRef(laid.dim.col, laid.dim.row)}
		rows.styles = maps.Clone(b.styles)
	}
	if err := sw.Flush(); err != nil {
		return fmt.Errorf("sheet %s: %w", vs.name, err)
	}
	if b.streamViews == nil {
		b.rows = append(b.rows, rows)
	}
	return nil
}

// viewLayout is a view's blocks laid out on its sheet: the page breaks
// they need, the sheet's dimension and the pieces of blocks.
type viewLayout struct {
	breaks pageBreaks
	dim    dimensionScan
}

// pageBreaks gathers the cells that begin a printed page, as many as a
// sheet holds (maxPageBreaks), and counts them all: a sheet that needs
// more is laid out again without breaks, and none of them is inserted.
type pageBreaks struct {
	cells []string
	n     int
}

// add counts a break at cell, and keeps it while a sheet holds it.
func (p *pageBreaks) add(cell string) error {
	if p.n++; p.n <= maxPageBreaks {
		p.cells = append(p.cells, cell)
	}
	return nil
}

// layOut lays the view's blocks out on the sheet: the page breaks, the
// dimension and the pieces, and returns the styles the blocks ask for, in
// the order they ask, for placeBlocks to make once it keeps the layout.
// From the blocks' counts when they tell it, the styles asks, as the
// blocks were counted; else from the blocks, made once more, the styles
// their pieces ask for.
func (vs viewSheet) layOut(rows viewRows, counts *blockCounts, asks styleAsks) (viewLayout, styleAsks, error) {
	l := viewLayout{dim: dimensionScan{col: 1, row: 1}}
	if counts.irregular {
		var asked styleAsks
		err := rows.lay(vs.b.ctx, l.breaks.add, func(top int, piece results.Block) error {
			l.dim.block(top, piece)
			return asked.piece(piece)
		})
		return l, asked, err
	}
	err := rows.layCounts(vs.b.ctx, counts, l.breaks.add, l.dim.piece)
	return l, asks, err
}

// viewCellRole is the style role of a view's cells in column c: intervals,
// numbers or none, and labels alike are centred.
func viewCellRole(c results.Column) styleRole {
	if c.Kind == results.Text {
		return centredStyle
	}
	return plainStyle
}

// viewSheet is a sheet a view is being written to.
type viewSheet struct {
	b    *workbook
	name string
	sw   *excelize.StreamWriter
}

// title writes a one-cell title row.
func (vs viewSheet) title(row int, text string, role styleRole) error {
	id, err := vs.b.style(role, results.General)
	if err != nil {
		return err
	}
	return vs.sw.SetRow(cellName(1, row), []any{excelize.Cell{StyleID: id, Value: text}})
}

// block writes a block from row top on: its title, then its table.
func (vs viewSheet) block(top int, blk results.Block) error {
	if err := vs.title(top, blk.Title, blockStyle); err != nil {
		return err
	}
	return vs.table(top+1, blk)
}

// table writes a block's header on row top and its rows below.
func (vs viewSheet) table(top int, blk results.Block) error {
	b := vs.b
	headerID, err := b.style(headerStyle, results.General)
	if err != nil {
		return err
	}
	numberHeaderID, err := b.style(numberHeaderStyle, results.General)
	if err != nil {
		return err
	}
	header := make([]any, len(blk.Columns))
	for i, c := range blk.Columns {
		id := headerID
		if c.Kind == results.Int || c.Kind == results.Float {
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
		if c.Kind == results.Text { // intervals, numbers or none, and labels alike
			role = centredStyle
		}
		if styles[j], err = b.style(role, quantity(c)); err != nil {
			return err
		}
	}
	marked := make(map[[2]int]int, len(blk.Marked))
	for _, m := range blk.Marked {
		r, c := m[0], m[1]
		if r < 0 || r >= len(blk.Rows) || c < 0 || c >= len(blk.Columns) {
			return fmt.Errorf("block %q marks cell (%d, %d), outside its %d×%d cells", blk.Title, r, c, len(blk.Rows), len(blk.Columns))
		}
		if marked[m], err = b.style(markedStyle, quantity(blk.Columns[c])); err != nil {
			return err
		}
	}
	first := top + 1
	for i, r := range blk.Rows {
		if i%results.CheckEvery == 0 {
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

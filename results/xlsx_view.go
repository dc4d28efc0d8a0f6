package results

import (
	"fmt"
	"maps"
	"slices"
	"unicode/utf8"

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
// made one at a time, twice here, to measure the columns and count what
// fits, then to lay the blocks out on the pages and make their styles, and
// once more as the workbook is saved, when they are written into the sheet
// (see viewRows) as the tables' rows are.
func (b *workbook) writeView(v View) error {
	if err := b.ctx.Err(); err != nil {
		return err
	}
	if err := b.newSheet(v.Name); err != nil {
		return err
	}
	// Two passes over the blocks, each made one at a time: the first
	// measures the columns and counts what fits, the second lays the
	// blocks out on the pages (their rows are written as the workbook is
	// saved). What
	// fits depends on whether the blocks are continued over pages, which
	// only the number of blocks tells, so the first pass counts both ways:
	// continued at the fewest rows a page holds, which holds for any page.
	last := b.sheetRows + 1
	flat, continued := newBlockFitter(last, 0), newBlockFitter(last, minPageRows)
	var widths viewWidths
	blocks, titleRows := 0, 1
	for blk := range v.All() {
		continued.place(blk)
		if fitted, start, ok := flat.place(blk); ok {
			widths.add(fitted)
			blocks++
			titleRows = start + 1
		}
	}
	measured, pageRows := flat, 0
	if blocks != 1 {
		titleRows = 1
		measured, pageRows = continued, minPageRows
	}
	var width float64
	for _, w := range widths.of() {
		width += columnPoints(w)
	}
	layout := layOut(width, columnPoints(widths.of()[0]), titleRows)
	if err := b.setUpPrint(v.Name, layout, titleRows, 1); err != nil {
		return err
	}
	sw, err := b.f.NewStreamWriter(v.Name)
	if err != nil {
		return err
	}
	vs := viewSheet{b: b, name: v.Name, sw: sw, printed: true}
	if err := vs.setWidths(widths.of()); err != nil {
		return err
	}
	if err := vs.title(1, v.Title, titleStyle); err != nil {
		return err
	}
	note := measured.note()
	if note != "" {
		if err := sw.SetRow("A2", []any{note}); err != nil {
			return err
		}
	}
	// The second pass cuts as the first did; written at the layout's rows
	// a page, the blocks take at most the rows the first pass counted.
	rows := viewRows{v: v, last: last, fitRows: pageRows, pageRows: layout.rows, continued: blocks > 1}
	if b.streamViews != nil {
		if err := b.streamViews(b, sw, rows); err != nil {
			return fmt.Errorf("sheet %s: %w", v.Name, err)
		}
	} else {
		dim := dimensionScan{col: 1, row: 1}
		if note != "" {
			dim.row = 2
		}
		place := func(top int, piece Block) error {
			dim.block(top, piece)
			return vs.askStyles(piece)
		}
		if err := rows.lay(b.ctx, sw.InsertPageBreak, place); err != nil {
			return fmt.Errorf("sheet %s: %w", v.Name, err)
		}
		rows.pieces = dim.pieces
		path, err := sheetPath(b.f, v.Name)
		if err != nil {
			return err
		}
		rows.part = sheetPart{path: path, dim: dimensionRef(dim.col, dim.row)}
		rows.styles = maps.Clone(b.styles)
	}
	if err := sw.Flush(); err != nil {
		return fmt.Errorf("sheet %s: %w", v.Name, err)
	}
	if b.streamViews == nil {
		b.rows = append(b.rows, rows)
	}
	return nil
}

// dimensionScan follows the last column and row that hold a cell of the
// pieces of blocks placed on a view's sheet, and counts the pieces.
type dimensionScan struct {
	col, row, pieces int
}

// block counts a piece of a block written from row top on: its title, its
// header, its rows.
func (d *dimensionScan) block(top int, piece Block) {
	d.pieces++
	d.row = max(d.row, top)
	if len(piece.Columns) > 0 {
		d.col, d.row = max(d.col, len(piece.Columns)), max(d.row, top+1)
	}
	for i, r := range piece.Rows {
		if len(r) > 0 {
			d.col, d.row = max(d.col, len(r)), max(d.row, top+2+i)
		}
	}
}

// askStyles makes the styles that block asks for, in its order, and
// checks the cells the block marks, as it does.
func (vs viewSheet) askStyles(blk Block) error {
	b := vs.b
	for _, role := range []styleRole{blockStyle, headerStyle, numberHeaderStyle} {
		if _, err := b.style(role, General); err != nil {
			return err
		}
	}
	for _, c := range blk.Columns {
		if _, err := b.style(viewCellRole(c), vs.quantity(c)); err != nil {
			return err
		}
	}
	for _, m := range blk.Marked {
		r, c := m[0], m[1]
		if r < 0 || r >= len(blk.Rows) || c < 0 || c >= len(blk.Columns) {
			return fmt.Errorf("block %q marks cell (%d, %d), outside its %d×%d cells", blk.Title, r, c, len(blk.Rows), len(blk.Columns))
		}
		if _, err := b.style(markedStyle, vs.quantity(blk.Columns[c])); err != nil {
			return err
		}
	}
	return nil
}

// viewCellRole is the style role of a view's cells in column c: intervals,
// numbers or none, and labels alike are centred.
func viewCellRole(c Column) styleRole {
	if c.Kind == Text {
		return centredStyle
	}
	return plainStyle
}

// minPageRows is the fewest rows below its repeated rows that layOut
// takes a printed page to hold.
const minPageRows = 8

// minPieceRows is the fewest rows of a block longer than a page that it
// starts with at the foot of a page; with less room it starts the next.
const minPieceRows = 5

// continuedPages follows the rows used on the printed page being filled
// by a sheet of blocks, each block printed with its header on every page
// it spans.
type continuedPages struct {
	rows int  // rows a page holds below the repeated rows
	used int  // rows used on the current page
	on   bool // blocks are continued over pages; false: the sheet repeats its header
}

// block lays a block out from row top on, as the pages need it (see
// writeView): place is called for each piece of it, a part of its rows
// under its title, "continued" after the first, and its header, and brk
// before each row that must begin a page. It returns the row after the
// block and the blank row below it.
func (p *continuedPages) block(top int, blk Block, brk func(row string) error, place func(top int, piece Block) error) (next int, err error) {
	if !p.on {
		return top + len(blk.Rows) + 3, place(top, blk)
	}
	cut, pieces := p.place(len(blk.Rows))
	if cut {
		if err := brk(cellName(1, top)); err != nil {
			return 0, err
		}
	}
	row, from := top, 0
	for i, n := range pieces {
		piece := blk.slice(from, from+n)
		if i > 0 {
			if err := brk(cellName(1, row)); err != nil {
				return 0, err
			}
			piece.Title = blk.Title + " (continued)"
		}
		if err := place(row, piece); err != nil {
			return 0, err
		}
		row += 2 + n
		from += n
	}
	return row + 1, nil
}

// place lays a block of n rows out on the pages: whether it starts a new
// page, and the rows of each page it spans, each page's part under the
// block's title and header. A block that fits a page starts a new one
// when it does not fit the rest of this one; a longer block starts here,
// unless fewer than minPieceRows of its rows would.
func (p *continuedPages) place(n int) (brk bool, pieces []int) {
	need, rest := n+2, p.rows-p.used
	brk = p.used > 1 && (need <= p.rows && need > rest || need > p.rows && rest < 2+minPieceRows)
	if brk {
		p.used = 0
	}
	for left := n; ; {
		take := min(left, p.rows-p.used-2)
		pieces = append(pieces, take)
		p.used += 2 + take
		if left -= take; left == 0 {
			break
		}
		p.used = 0
	}
	p.used++ // the blank row below
	return brk, pieces
}

// slice returns the block's rows from i up to j, with the cells marked
// among them.
func (b Block) slice(i, j int) Block {
	out := Block{Title: b.Title, Columns: b.Columns, Rows: b.Rows[i:j]}
	for _, m := range b.Marked {
		if m[0] >= i && m[0] < j {
			out.Marked = append(out.Marked, [2]int{m[0] - i, m[1]})
		}
	}
	return out
}

// blockFitter lays blocks out from row 3 on, below the sheet's title and
// a row for a note, one at a time, and cuts them to end by row last, the
// last row a sheet has. A view outgrows a sheet only with a sweep of more
// than a million values; the grid sheets still hold every figure. With
// pageRows set, it counts a block as continued over pages of that many
// rows, its title and header written again on each.
type blockFitter struct {
	last, row   int
	pageRows    int
	total, kept int
}

func newBlockFitter(last, pageRows int) *blockFitter {
	return &blockFitter{last: last, row: 3, pageRows: pageRows}
}

// place returns the block as it fits, cut where needed, and the row it
// starts on, or ok false when no row is left for it.
func (f *blockFitter) place(blk Block) (fitted Block, start int, ok bool) {
	f.total += len(blk.Rows)
	room := f.room(f.last - f.row + 1)
	if room <= 0 {
		return Block{}, 0, false
	}
	if len(blk.Rows) > room {
		blk = blk.slice(0, room)
	}
	f.kept += len(blk.Rows)
	start = f.row
	f.row += f.taken(len(blk.Rows)) + 1
	return blk, start, true
}

// taken returns the rows a block of n rows takes, without the blank row
// below it: its title and header, written again on each page it is
// continued on, and its rows. Continued, a block may start at the foot of
// a page, so it is counted with one title and header more than its rows
// fill pages: at most what it takes on pages of pageRows rows or more.
func (f *blockFitter) taken(n int) int {
	if f.pageRows == 0 {
		return n + 2
	}
	per := f.pageRows - 2
	return n + 2*((n+per-1)/per) + 2
}

// room returns the most rows of a block that fit in rows rows, the
// inverse of taken.
func (f *blockFitter) room(rows int) int {
	if f.pageRows == 0 {
		return rows - 2
	}
	rows -= 2
	return rows/f.pageRows*(f.pageRows-2) + max(0, rows%f.pageRows-2)
}

// note says how many of the rows placed so far were left out, or "".
func (f *blockFitter) note() string {
	if f.kept == f.total {
		return ""
	}
	return fmt.Sprintf("Only %d of this view's %d rows fit on a sheet; the grid sheets hold every figure.", f.kept, f.total)
}

// fitBlocks places every block (see blockFitter), not continued over
// pages: the blocks that fit, cut where needed, the rows they start on,
// and the note.
func fitBlocks(blocks []Block, last int) ([]Block, []int, string) {
	f := newBlockFitter(last, 0)
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

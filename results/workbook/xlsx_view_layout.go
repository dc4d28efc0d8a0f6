package workbook

import (
	"fmt"
	"math"
	"slices"

	"ckptlab/internal/satmath"
	"ckptlab/results"
)

// What laying a view's sheet out keeps: per page break until the sheet is
// written, pageBreakBytes; per block of the view one at a time, a run of
// the blocks' counts of 12 bytes, twice as its list grows.
const (
	pageBreakBytes  = 64
	blockCountBytes = 24
)

// layoutBytes bounds what laying the views' sheets out keeps: a page break
// per block, up to maxPageBreaks a sheet, and the blocks' counts.
func layoutBytes(v results.ViewSizes) int64 {
	breaks := min(v.Blocks, satmath.Mul(int64(len(v.Largest)), maxPageBreaks))
	return satmath.Add(satmath.Mul(breaks, pageBreakBytes), satmath.Mul(v.MostBlocks, blockCountBytes))
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
func (p *continuedPages) block(top int, blk results.Block, brk func(row string) error, place func(top int, piece results.Block) error) (next int, err error) {
	first := true
	return p.lay(top, len(blk.Rows), brk, func(row, from, to int) error {
		if !p.on {
			return place(row, blk)
		}
		piece := sliceBlock(blk, from, to)
		if !first {
			piece.Title = blk.Title + " (continued)"
		}
		first = false
		return place(row, piece)
	})
}

// lay lays a block of n rows out from row top on, as block does: piece is
// called for each piece of it with the row the piece starts on and the
// block's rows from up to to that it holds, and brk before each row that
// must begin a page. It returns the row after the block and the blank
// row below it.
func (p *continuedPages) lay(top, n int, brk func(row string) error, piece func(top, from, to int) error) (next int, err error) {
	if !p.on {
		return top + n + 3, piece(top, 0, n)
	}
	cut, pieces := p.place(n)
	if cut {
		if err := brk(cellName(1, top)); err != nil {
			return 0, err
		}
	}
	row, from := top, 0
	for i, k := range pieces {
		if i > 0 {
			if err := brk(cellName(1, row)); err != nil {
				return 0, err
			}
		}
		if err := piece(row, from, from+k); err != nil {
			return 0, err
		}
		row += 2 + k
		from += k
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

// sliceBlock returns the block's rows from i up to j, with the cells marked
// among them.
func sliceBlock(b results.Block, i, j int) results.Block {
	out := results.Block{Title: b.Title, Columns: b.Columns, Rows: b.Rows[i:j]}
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
func (f *blockFitter) place(blk results.Block) (fitted results.Block, start int, ok bool) {
	kept, start, ok := f.fit(len(blk.Rows))
	if !ok {
		return results.Block{}, 0, false
	}
	if kept < len(blk.Rows) {
		blk = sliceBlock(blk, 0, kept)
	}
	return blk, start, true
}

// fit places a block of n rows as place does: the rows of it kept and the
// row it starts on, or ok false when no row is left for it. Once no row
// is left, none is for any block after it.
func (f *blockFitter) fit(n int) (kept, start int, ok bool) {
	f.total += n
	room := f.room(f.last - f.row + 1)
	if room <= 0 {
		return 0, 0, false
	}
	kept = min(n, room)
	f.kept += kept
	start = f.row
	f.row += f.taken(kept) + 1
	return kept, start, true
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
func fitBlocks(blocks []results.Block, last int) ([]results.Block, []int, string) {
	f := newBlockFitter(last, 0)
	var fitted []results.Block
	var starts []int
	for _, blk := range blocks {
		if blk, start, ok := f.place(blk); ok {
			fitted = append(fitted, blk)
			starts = append(starts, start)
		}
	}
	return fitted, starts, f.note()
}

// dimensionScan follows the last column and row that hold a cell of the
// pieces of blocks placed on a view's sheet, and counts the pieces.
type dimensionScan struct {
	col, row, pieces int
}

// block counts a piece of a block written from row top on: its title, its
// header, its rows.
func (d *dimensionScan) block(top int, piece results.Block) {
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

// piece counts a piece of rows rows of a block of cols columns, every row
// of them cols cells, written from row top on, as block does.
func (d *dimensionScan) piece(top, rows, cols int) {
	d.pieces++
	d.row = max(d.row, top)
	if cols > 0 {
		d.col, d.row = max(d.col, cols), max(d.row, top+1+rows)
	}
}

// blockCounts are what laying a view's blocks out on its sheet needs of
// them, counted as measureView measures them: each block's rows and
// columns, in runs of blocks alike, and the styles the blocks each fitter
// places ask for. The layout is then arithmetic on the counts (layCounts),
// and the blocks are made once more only to be written, as the workbook
// is saved. A view's blocks are mostly alike (one per state rows value,
// the same intervals and probabilities), so the runs are few; at worst
// one a block, a few bytes each, against the block's rows.
type blockCounts struct {
	runs []blockRun
	// irregular is set by a block the counts do not tell the layout of:
	// one with a row not as long as its columns, or that marks cells out
	// of its rows' order or outside it. The blocks are then laid out
	// themselves, made once more.
	irregular bool
	// flat and continued are the styles asked by the blocks the fitter of
	// blocks not continued over pages places and by those the fitter of
	// continued blocks places (see viewMeasure).
	flat, continued styleAsks
}

// blockRun counts blocks in a row of the same rows and columns.
type blockRun struct {
	rows, cols, blocks int32
}

// add counts a block.
func (c *blockCounts) add(blk results.Block) {
	rows, cols := len(blk.Rows), len(blk.Columns)
	if !regular(blk) || rows > math.MaxInt32 || cols > math.MaxInt32 {
		c.irregular = true
		return
	}
	if n := len(c.runs); n > 0 && c.runs[n-1].rows == int32(rows) && c.runs[n-1].cols == int32(cols) && c.runs[n-1].blocks < math.MaxInt32 {
		c.runs[n-1].blocks++
		return
	}
	c.runs = append(c.runs, blockRun{rows: int32(rows), cols: int32(cols), blocks: 1})
}

// regular reports whether every row of the block has a cell per column,
// and the cells it marks are in it, in the order of their rows.
func regular(blk results.Block) bool {
	for _, r := range blk.Rows {
		if len(r) != len(blk.Columns) {
			return false
		}
	}
	last := 0
	for _, m := range blk.Marked {
		if m[0] < last || m[0] >= len(blk.Rows) || m[1] < 0 || m[1] >= len(blk.Columns) {
			return false
		}
		last = m[0]
	}
	return true
}

// styleAsks are the styles blocks ask for on a sheet of the lesson's own
// tables, each once, in the order first asked: a block's title, its
// header, its columns' cells and its marked cells, as viewSheet.block
// and blockEncoder.block ask for them.
type styleAsks []styleKey

// piece adds the styles a piece of a block asks for, and checks the cells
// it marks are in it.
func (s *styleAsks) piece(blk results.Block) error {
	for _, m := range blk.Marked {
		r, c := m[0], m[1]
		if r < 0 || r >= len(blk.Rows) || c < 0 || c >= len(blk.Columns) {
			return fmt.Errorf("block %q marks cell (%d, %d), outside its %d×%d cells", blk.Title, r, c, len(blk.Rows), len(blk.Columns))
		}
	}
	s.block(blk)
	return nil
}

// block adds the styles a block asks for, its marks in it. Its pieces ask
// for the same styles in the same order, the cells each marks among its
// rows (regular).
func (s *styleAsks) block(blk results.Block) {
	s.add(styleKey{blockStyle, results.General})
	s.add(styleKey{headerStyle, results.General})
	s.add(styleKey{numberHeaderStyle, results.General})
	for _, c := range blk.Columns {
		s.add(styleKey{viewCellRole(c), quantity(c)})
	}
	for _, m := range blk.Marked {
		s.add(styleKey{markedStyle, quantity(blk.Columns[m[1]])})
	}
}

// add adds a style unless it is asked already: there are a few dozen
// styles at most, a role and a number style each.
func (s *styleAsks) add(k styleKey) {
	if !slices.Contains(*s, k) {
		*s = append(*s, k)
	}
}

package results

import "fmt"

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

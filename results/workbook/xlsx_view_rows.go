package workbook

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"slices"

	"ckptlab/internal/satmath"
	"ckptlab/results"
)

// viewRows are the blocks of a view's sheet, written into it as the
// workbook is saved, as a table's rows are (see tableRows): the view is
// ranged over again and each block that fits is written as it is made,
// the XML excelize's stream writer writes for it, byte for byte
// (TestViewRowsMatchExcelize). Through the stream writer, every sheet's XML
// stayed in a buffer of its own until the workbook was saved, and a view
// of 80,001 blocks filled it.
type viewRows struct {
	v results.
		// last is the last row a block may use; fitRows the rows of a page
		// the blocks are cut to fit at (see blockFitter), pageRows those they
		// are laid out on (see continuedPages), continued whether they are
		// continued over pages.
		View

	last, fitRows, pageRows int
	continued               bool
	// pieces is how many pieces of blocks were laid out when the sheet
	// was made, styles the workbook's styles then, the blocks' among them.
	pieces int
	styles map[styleKey]int
	part   sheetPart
}

// blockXMLBytes is the most XML a view's block takes besides its cells:
// its title, header and gap rows, and its rows' markup.
const blockXMLBytes = 3*rowXMLBytes + 2048

// viewXMLBytes bounds the XML of every view's rows.
func viewXMLBytes(v results.ViewSizes) int64 {
	return satmath.Add(satmath.Mul(v.Cells, cellXMLBytes), satmath.Mul(v.Blocks, blockXMLBytes))
}

func (r viewRows) sheets() []sheetPart { return []sheetPart{r.part} }

// lay ranges over the view's blocks and lays out each that fits, as
// layOutView does (from their counts, with layCounts, when it can): place
// is called for each piece of a block, with the row it starts on, and brk
// with each cell that begins a printed page.
func (r viewRows) lay(ctx context.Context, brk func(cell string) error, place func(top int, piece results.Block) error) error {
	fit := newBlockFitter(r.last, r.fitRows)
	pages := continuedPages{rows: r.pageRows, used: 1, on: r.continued}
	row := 3
	for blk := range r.v.All() {
		if err := ctx.Err(); err != nil {
			return err
		}
		blk, _, ok := fit.place(blk)
		if !ok {
			continue
		}
		var err error
		if row, err = pages.block(row, blk, brk, place); err != nil {
			return err
		}
	}
	return ctx.Err()
}

// layCounts lays out the blocks counted as lay lays out the blocks
// themselves, but from their counts alone (see blockCounts): piece is
// called for each piece of a block, with the row it starts on, its rows
// and its columns, and brk with each cell that begins a printed page.
func (r viewRows) layCounts(ctx context.Context, counts *blockCounts, brk func(cell string) error, piece func(top, rows, cols int)) error {
	fit := newBlockFitter(r.last, r.fitRows)
	pages := continuedPages{rows: r.pageRows, used: 1, on: r.continued}
	row := 3
	for _, run := range counts.runs {
		for range run.blocks {
			if err := ctx.Err(); err != nil {
				return err
			}
			kept, _, ok := fit.fit(int(run.rows))
			if !ok {
				return nil // nor any block after it
			}
			var err error
			row, err = pages.lay(row, kept, brk, func(top, from, to int) error {
				piece(top, to-from, int(run.cols))
				return nil
			})
			if err != nil {
				return err
			}
		}
	}
	return nil
}

// style returns the id of a style the blocks use, made when the sheet was.
func (r viewRows) style(role styleRole, q results.Quantity) (int, error) {
	if role == plainStyle && q.NumFmt() == "General" {
		return 0, nil
	}
	id, ok := r.styles[styleKey{role, q}]
	if !ok {
		return 0, fmt.Errorf("view %s asks for a style its blocks did not ask for when the sheet was made", r.v.Name)
	}
	return id, nil
}

// write lays the view's blocks out again and writes each piece (see
// sheetRows). The view must make the blocks it made when the sheet was.
func (r viewRows) write(ctx context.Context, begin func(sheet int) (io.Writer, error), end func(sheet int) error) error {
	w, err := begin(0)
	if err != nil {
		return err
	}
	enc := &blockEncoder{rowEncoder: rowEncoder{buf: make([]byte, 0, encoderStart)}, r: r, w: w}
	n := 0
	noBreak := func(string) error { return nil }
	err = r.lay(ctx, noBreak, func(top int, piece results.Block) error {
		if n++; n > r.pieces {
			return fmt.Errorf("view %s makes more than the %d pieces of blocks it made when the sheet was made", r.v.Name, r.pieces)
		}
		return enc.block(ctx, top, piece)
	})
	if err != nil {
		return err
	}
	if n != r.pieces {
		return fmt.Errorf("view %s made %d pieces of blocks to write, not the %d it made when the sheet was made", r.v.Name, n, r.pieces)
	}
	if err := enc.flush(); err != nil {
		return err
	}
	return end(0)
}

// blockEncoder writes a view's blocks as viewSheet.block writes them with
// excelize's stream writer.
type blockEncoder struct {
	rowEncoder
	r     viewRows
	w     io.Writer
	attrs map[int][]byte // style attributes by style id
	// title, header and numberHeader are the attributes of every block's
	// title and header cells, found with the first block.
	title, header, numberHeader []byte
	// cols are the columns of the block written last, numeric and cells
	// their numeric text columns and their cells' attributes, marked those
	// of their marked cells as far as marked: the blocks of a view mostly
	// share their columns.
	cols          []results.Column
	numeric       []bool
	cells, marked [][]byte
	marks         [][2]int // the block's marked cells, by row and column
}

// endRow ends a row, and passes the rows on once they fill a piece.
func (e *blockEncoder) endRow() error {
	e.buf = append(e.buf, `</row>`...)
	if len(e.buf) < rowsFlushAt {
		return nil
	}
	return e.flush()
}

// flush passes the rows gathered on.
func (e *blockEncoder) flush() error {
	_, err := e.w.Write(e.buf)
	e.buf = e.buf[:0]
	return err
}

// attr returns the style attribute of style id s.
func (e *blockEncoder) attr(s int) []byte {
	a, ok := e.attrs[s]
	if !ok {
		if e.attrs == nil {
			e.attrs = make(map[int][]byte)
		}
		a = styleAttr(s)
		e.attrs[s] = a
	}
	return a
}

// styleAttr returns the attribute of a style the blocks use.
func (e *blockEncoder) styleAttr(role styleRole, q results.Quantity) ([]byte, error) {
	id, err := e.r.style(role, q)
	if err != nil {
		return nil, err
	}
	return e.attr(id), nil
}

// columns makes the encoder's column attributes those of the block's
// columns, unless they are already.
func (e *blockEncoder) columns(cols []results.Column) error {
	if e.title == nil {
		var err error
		if e.title, err = e.styleAttr(blockStyle, results.General); err != nil {
			return err
		}
		if e.header, err = e.styleAttr(headerStyle, results.General); err != nil {
			return err
		}
		if e.numberHeader, err = e.styleAttr(numberHeaderStyle, results.General); err != nil {
			return err
		}
	}
	if e.cells != nil && slices.Equal(cols, e.cols) {
		return nil
	}
	e.cols, e.numeric = append(e.cols[:0], cols...), numericTextColumns(cols)
	e.cells, e.marked = make([][]byte, len(cols)), make([][]byte, len(cols))
	for j, c := range cols {
		var err error
		if e.cells[j], err = e.styleAttr(viewCellRole(c), quantity(c)); err != nil {
			return err
		}
	}
	return nil
}

// block writes a block from row top on: its title, its header and its
// rows.
func (e *blockEncoder) block(ctx context.Context, top int, blk results.Block) error {
	e.widen(max(1, len(blk.Columns)))
	if err := e.columns(blk.Columns); err != nil {
		return err
	}
	e.openRow(top)
	text := results.TextValue(blk.Title)
	e.cell(0, e.title, &text)
	if err := e.endRow(); err != nil {
		return err
	}

	e.openRow(top + 1)
	for i, c := range blk.Columns {
		attr := e.header
		if c.Kind == results.Int || c.Kind == results.Float {
			attr = e.numberHeader
		}
		name := results.TextValue(c.Name)
		e.cell(i, attr, &name)
	}
	if err := e.endRow(); err != nil {
		return err
	}

	// The marked cells in the order of the rows, walked along with them.
	e.marks = append(e.marks[:0], blk.Marked...)
	slices.SortFunc(e.marks, func(a, b [2]int) int { return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1])) })
	for _, m := range e.marks {
		if e.marked[m[1]] == nil {
			var err error
			if e.marked[m[1]], err = e.styleAttr(markedStyle, quantity(blk.Columns[m[1]])); err != nil {
				return err
			}
		}
	}
	next := 0
	for i, row := range blk.Rows {
		if i%results.CheckEvery == results.CheckEvery-1 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		for next < len(e.marks) && e.marks[next][0] < i {
			next++
		}
		e.widen(len(row))
		e.openRow(top + 2 + i)
		for j := range row {
			v := &row[j]
			if v.Kind == results.Text && e.numeric[j] {
				n := sheetValue(*v, true)
				v = &n
			}
			attr := e.cells[j]
			for next < len(e.marks) && e.marks[next][0] == i && e.marks[next][1] <= j {
				if e.marks[next][1] == j {
					attr = e.marked[j]
				}
				next++
			}
			e.cell(j, attr, v)
		}
		if err := e.endRow(); err != nil {
			return err
		}
	}
	return nil
}

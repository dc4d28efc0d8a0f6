package results

import (
	"context"
	"fmt"
	"io"
)

// viewRows are the blocks of a view's sheet, written into it as the
// workbook is saved, as a table's rows are (see tableRows): the view is
// ranged over again and each block that fits is written as it is made,
// the XML excelize's stream writer writes for it, byte for byte
// (TestViewRowsMatchExcelize). Through the stream writer, every sheet's XML
// stayed in a buffer of its own until the workbook was saved, and a view
// of 80,001 blocks filled it.
type viewRows struct {
	v View
	// last is the last row a block may use; fitRows the rows of a page
	// the blocks are cut to fit at (see blockFitter), pageRows those they
	// are laid out on (see continuedPages), continued whether they are
	// continued over pages.
	last, fitRows, pageRows int
	continued               bool
	// pieces is how many pieces of blocks were laid out when the sheet
	// was made, styles the workbook's styles then, the blocks' among them.
	pieces int
	styles map[styleKey]int
	part   sheetPart
}

func (r viewRows) sheets() []sheetPart { return []sheetPart{r.part} }

// lay ranges over the view's blocks and lays out each that fits, as
// writeView does (from their counts, with layCounts, when it can): place is called for each piece of a block, with the row
// it starts on, and brk with each cell that begins a printed page.
func (r viewRows) lay(ctx context.Context, brk func(cell string) error, place func(top int, piece Block) error) error {
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
func (r viewRows) style(role styleRole, q Quantity) (int, error) {
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
	err = r.lay(ctx, noBreak, func(top int, piece Block) error {
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

// block writes a block from row top on: its title, its header and its
// rows.
func (e *blockEncoder) block(ctx context.Context, top int, blk Block) error {
	e.widen(max(1, len(blk.Columns)))
	title, err := e.r.style(blockStyle, General)
	if err != nil {
		return err
	}
	e.openRow(top)
	text := TextValue(blk.Title)
	e.cell(0, e.attr(title), &text)
	if err := e.endRow(); err != nil {
		return err
	}

	header, err := e.r.style(headerStyle, General)
	if err != nil {
		return err
	}
	numberHeader, err := e.r.style(numberHeaderStyle, General)
	if err != nil {
		return err
	}
	e.openRow(top + 1)
	for i, c := range blk.Columns {
		id := header
		if c.Kind == Int || c.Kind == Float {
			id = numberHeader
		}
		name := TextValue(c.Name)
		e.cell(i, e.attr(id), &name)
	}
	if err := e.endRow(); err != nil {
		return err
	}

	numeric := numericTextColumns(blk.Columns)
	attrs := make([][]byte, len(blk.Columns))
	for j, c := range blk.Columns {
		id, err := e.r.style(viewCellRole(c), printedQuantity(c))
		if err != nil {
			return err
		}
		attrs[j] = e.attr(id)
	}
	marked := make(map[[2]int][]byte, len(blk.Marked))
	for _, m := range blk.Marked {
		id, err := e.r.style(markedStyle, printedQuantity(blk.Columns[m[1]]))
		if err != nil {
			return err
		}
		marked[m] = e.attr(id)
	}
	for i, row := range blk.Rows {
		if i%ctxCheckRows == ctxCheckRows-1 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		e.widen(len(row))
		e.openRow(top + 2 + i)
		for j := range row {
			v := &row[j]
			if v.Kind == Text && numeric[j] {
				n := sheetValue(*v, true)
				v = &n
			}
			attr := attrs[j]
			if m, ok := marked[[2]int{i, j}]; ok {
				attr = m
			}
			e.cell(j, attr, v)
		}
		if err := e.endRow(); err != nil {
			return err
		}
	}
	return nil
}

package workbook_test

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"ckptlab/internal/testkit"
	"ckptlab/report"
	"ckptlab/results"
	"ckptlab/results/workbook"
	"ckptlab/runner"
	"ckptlab/runner/experiment"
)

// BenchmarkLargeWorkbookFloor is the floor of runner's
// BenchmarkLargeWorkbook, the 2M-row workbook (state_rows {from: 0, to:
// 2000000, step: 25} over the lesson): the least any writer of the same
// workbook must do. It reads the rows of the four tables and the blocks of
// the views once, as they are made, formats each cell's XML with
// strconv and appends, and compresses every part with the workbook's own
// compressor (pieces of a MiB deflated on every core at level 5), to
// io.Discard, as many parts at once as the workbook packs tables.
// Everything but the rows (each part's XML around them, and
// the small parts) is taken whole from the workbook ckptlab writes, which
// also gives each part's CRC-32: the floor checks that it wrote the same
// XML, byte for byte, every part. Compare the two in the same minutes; both
// report their CPU time (cpu-ns/op), steadier than their wall time on a
// shared machine.
func BenchmarkLargeWorkbookFloor(b *testing.B) {
	dir := b.TempDir()
	file := filepath.Join(dir, "big.yaml")
	if err := os.WriteFile(file, []byte("name: big\nstate_rows: {from: 0, to: 2000000, step: 25}\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	e, err := experiment.Load(file, experiment.Overrides{})
	if err != nil {
		b.Fatal(err)
	}
	res, err := runner.Evaluate(context.Background(), e, runner.Options{})
	if err != nil {
		b.Fatal(err)
	}
	set, err := report.Set(context.Background(), res, []string{results.FormatXLSX})
	if err != nil {
		b.Fatal(err)
	}
	parts := floorParts(b, set, dir)
	start, timed := testkit.CPUTime()
	defer func() {
		if end, _ := testkit.CPUTime(); timed && b.N > 0 {
			b.ReportMetric(float64(end-start)/float64(b.N), "cpu-ns/op")
		}
	}()
	for b.Loop() {
		// The parts are written as many at once as the workbook packs.
		slots := make(chan struct{}, workbook.PackedAtOnce())
		errs := make([]error, len(parts))
		var wg sync.WaitGroup
		for i, p := range parts {
			slots <- struct{}{}
			wg.Go(func() {
				defer func() { <-slots }()
				errs[i] = p.pack()
			})
		}
		wg.Wait()
		if err := errors.Join(errs...); err != nil {
			b.Fatal(err)
		}
	}
}

// pack compresses the part to io.Discard and checks that its XML is the
// workbook's.
func (p floorPart) pack() error {
	d := workbook.NewParallelDeflater(io.Discard)
	if err := p.write(d); err != nil {
		d.Close()
		return err
	}
	if err := d.Close(); err != nil {
		return err
	}
	if crc, size := workbook.DeflatedCRC(d); crc != p.crc || size != p.size {
		return fmt.Errorf("%s: the floor wrote %d bytes of CRC-32 %08x, the workbook %d of %08x", p.name, size, crc, p.size, p.crc)
	}
	return nil
}

// floorPart is a part of the workbook as the floor writes it: its XML
// whole, or the XML before and after the rows it formats.
type floorPart struct {
	name       string
	crc        uint32
	size       int64
	head, tail []byte
	rows       func(w io.Writer) error // nil for a part written whole
}

func (p floorPart) write(w io.Writer) error {
	if _, err := w.Write(p.head); err != nil {
		return err
	}
	if p.rows != nil {
		if err := p.rows(w); err != nil {
			return err
		}
	}
	_, err := w.Write(p.tail)
	return err
}

// floorParts writes the set's workbook into dir and returns its parts, each
// sheet of a table or a view with its rows to be formatted by the floor.
func floorParts(b *testing.B, set results.Set, dir string) []floorPart {
	path := filepath.Join(dir, "big.xlsx")
	out, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	if err := workbook.Write(context.Background(), out, set, ""); err != nil {
		b.Fatal(err)
	}
	out.Close()
	zr, err := zip.OpenReader(path)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { zr.Close() })
	sheets := map[string]string{} // part → sheet name
	for _, m := range regexp.MustCompile(`<sheet name="([^"]+)" sheetId="(\d+)"`).FindAllStringSubmatch(string(readPart(b, zr, "xl/workbook.xml", -1)), -1) {
		sheets["xl/worksheets/sheet"+m[2]+".xml"] = m[1]
	}
	tables := map[string]results.Table{}
	for _, t := range []results.Table{set.Grid, set.Failures, set.Decisions, set.Breakeven} {
		tables[t.Name] = t
		for i := 2; i <= 9; i++ { // a table past a sheet's rows goes on as name-2, ...
			tables[fmt.Sprintf("%s-%d", t.Name, i)] = t
		}
	}
	views := map[string]results.View{}
	for _, v := range set.Views {
		views[v.Name] = v
	}
	var parts []floorPart
	for _, f := range zr.File {
		p := floorPart{name: f.Name, crc: f.CRC32, size: int64(f.UncompressedSize64)}
		name := sheets[f.Name]
		t, isTable := tables[name]
		v, isView := views[name]
		switch {
		case isTable:
			head, tail := splitSheet(b, zr, f.Name, `<row r="2"`)
			p.head, p.tail = head, tail
			part := 0
			if i := strings.LastIndexByte(name, '-'); i > 0 && name[:i] == t.Name {
				part, _ = strconv.Atoi(name[i+1:])
				part--
			}
			lo := part * workbook.MaxSheetRows
			p.rows = func(w io.Writer) error { return floorTable(w, t, colStyles(head), lo, lo+workbook.MaxSheetRows) }
		case isView:
			head, tail := splitSheet(b, zr, f.Name, `<row r="3"`)
			p.head, p.tail = head, tail
			st := learnViewStyles(b, v, readPart(b, zr, f.Name, 4<<20))
			p.rows = func(w io.Writer) error { return floorView(w, v, st) }
		default:
			p.head = readPart(b, zr, f.Name, -1)
		}
		parts = append(parts, p)
	}
	return parts
}

// readPart returns the first n bytes of a part, uncompressed (all for n < 0).
func readPart(b *testing.B, zr *zip.ReadCloser, name string, n int64) []byte {
	rc, err := zr.Open(name)
	if err != nil {
		b.Fatal(err)
	}
	defer rc.Close()
	var r io.Reader = rc
	if n >= 0 {
		r = io.LimitReader(rc, n)
	}
	data, err := io.ReadAll(r)
	if err != nil {
		b.Fatal(err)
	}
	return data
}

// splitSheet returns a sheet's XML before its first row of data, which
// begins with start, and from its </sheetData> on, reading it as a stream.
func splitSheet(b *testing.B, zr *zip.ReadCloser, name, start string) (head, tail []byte) {
	rc, err := zr.Open(name)
	if err != nil {
		b.Fatal(err)
	}
	defer rc.Close()
	const end = "</sheetData>"
	var window []byte
	buf := make([]byte, 1<<20)
	for {
		n, err := rc.Read(buf)
		if tail != nil {
			tail = append(tail, buf[:n]...)
		} else {
			window = append(window, buf[:n]...)
			if head == nil {
				if i := bytes.Index(window, []byte(start)); i >= 0 {
					head = bytes.Clone(window[:i])
				} else if j := bytes.Index(window, []byte(end)); j >= 0 {
					head = bytes.Clone(window[:j]) // no rows
				}
			}
			if head != nil {
				if j := bytes.LastIndex(window, []byte(end)); j >= 0 {
					tail = bytes.Clone(window[j:])
				}
				window = window[max(0, len(window)-len(end)):]
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			b.Fatal(err)
		}
	}
	if head == nil || tail == nil {
		b.Fatalf("%s: no rows found", name)
	}
	return head, tail
}

// colStyles returns the style attribute of each column of a table sheet,
// from its <cols>.
func colStyles(head []byte) [][]byte {
	var out [][]byte
	for _, m := range regexp.MustCompile(`<col min="\d+" max="\d+"[^>]*?( style="(\d+)")?/>`).FindAllSubmatch(head, -1) {
		if len(m[2]) == 0 {
			out = append(out, []byte(`"`))
		} else {
			out = append(out, []byte(`" s="`+string(m[2])+`"`))
		}
	}
	return out
}

// floorCells formats cells: a row's markup, each cell's reference, style
// and value, the text of a float from a cache of the values each column
// held lately.
type floorCells struct {
	buf    []byte
	w      io.Writer
	cols   [][]byte // `<c r="X`, per column
	row    []byte
	floats [][256]floorFloat
}

type floorFloat struct {
	x    float64
	text []byte
}

func (c *floorCells) openRow(r int) {
	c.row = strconv.AppendInt(c.row[:0], int64(r), 10)
	c.buf = append(c.buf, `<row r="`...)
	c.buf = append(c.buf, c.row...)
	c.buf = append(c.buf, `">`...)
}

func (c *floorCells) closeRow() error {
	c.buf = append(c.buf, `</row>`...)
	if len(c.buf) < 1<<20 {
		return nil
	}
	return c.flush()
}

func (c *floorCells) flush() error {
	_, err := c.w.Write(c.buf)
	c.buf = c.buf[:0]
	return err
}

// cell appends a cell of column j with style attribute attr; a numeric
// text column's decimal texts are numbers.
func (c *floorCells) cell(j int, attr []byte, v results.Value, numeric bool) {
	for len(c.cols) <= j {
		c.cols = append(c.cols, []byte(`<c r="`+columnLetters(len(c.cols)+1)))
		c.floats = append(c.floats, [256]floorFloat{})
	}
	b := append(c.buf, c.cols[j]...)
	b = append(b, c.row...)
	b = append(b, attr...)
	if v.Kind == results.Text && numeric && v.Text != "" && strings.Trim(v.Text, "-.0123456789") == "" {
		if n, err := strconv.ParseInt(v.Text, 10, 64); err == nil {
			v = results.IntValue(n)
		} else if x, err := strconv.ParseFloat(v.Text, 64); err == nil {
			v = results.FloatValue(x)
		}
	}
	switch v.Kind {
	case results.Int:
		b = append(b, `><v>`...)
		b = strconv.AppendInt(b, v.Int, 10)
		b = append(b, `</v></c>`...)
	case results.Float:
		b = append(b, `><v>`...)
		slot := &c.floats[j][math.Float64bits(v.Float)*0x9E3779B97F4A7C15>>56]
		if slot.text == nil || slot.x != v.Float {
			r, _ := strconv.ParseFloat(strconv.FormatFloat(v.Float, 'g', 15, 64), 64)
			slot.x, slot.text = v.Float, strconv.AppendFloat(slot.text[:0], r, 'f', -1, 64)
		}
		b = append(b, slot.text...)
		b = append(b, `</v></c>`...)
	case results.Bool:
		if v.Bool {
			b = append(b, ` t="b"><v>1</v></c>`...)
		} else {
			b = append(b, ` t="b"><v>0</v></c>`...)
		}
	default:
		b = append(b, ` t="inlineStr"><is><t>`...)
		b = append(b, v.Text...) // the texts of these tables need no escaping
		b = append(b, `</t></is></c>`...)
	}
	c.buf = b
}

// columnLetters returns the letters of column n, from 1.
func columnLetters(n int) string {
	s := ""
	for ; n > 0; n = (n - 1) / 26 {
		s = string(rune('A'+(n-1)%26)) + s
	}
	return s
}

// floorTable formats rows lo..hi-1 of a table, numbered from 2.
func floorTable(w io.Writer, t results.Table, styles [][]byte, lo, hi int) error {
	c := &floorCells{w: w}
	numeric := make([]bool, len(t.Columns))
	for j, col := range t.Columns {
		numeric[j] = col.Kind == results.Text && (col.Name == "interval" || col.Name == "best" || strings.HasSuffix(col.Name, "_interval"))
	}
	n := 0
	for row := range t.Rows {
		if n >= hi {
			break
		}
		if n >= lo {
			c.openRow(n - lo + 2)
			for j, v := range row {
				c.cell(j, styles[j], v, numeric[j])
			}
			if err := c.closeRow(); err != nil {
				return err
			}
		}
		n++
	}
	return c.flush()
}

// viewStyles are the style attributes of a view's cells, learnt from the
// workbook: the block's title, each column's header, data and marked
// cells.
type viewStyles struct {
	title                []byte
	header, data, marked map[int][]byte
}

var floorCellStyle = regexp.MustCompile(`<c r="([A-Z]+\d+)"( s="\d+")?`)

// learnViewStyles reads the styles of the first blocks' cells from the
// start of a view's sheet, laying the blocks out from row 3 as floorView
// does. The start is cut at its last whole row: a cell cut after its
// reference would read as a cell of no style.
func learnViewStyles(b *testing.B, v results.View, sheet []byte) viewStyles {
	if i := bytes.LastIndex(sheet, []byte("</row>")); i >= 0 {
		sheet = sheet[:i]
	}
	attr := map[string][]byte{}
	for _, m := range floorCellStyle.FindAllSubmatch(sheet, -1) {
		attr[string(m[1])] = append([]byte(`"`), m[2]...)
	}
	st := viewStyles{header: map[int][]byte{}, data: map[int][]byte{}, marked: map[int][]byte{}}
	ref := func(col, row int) string { return columnLetters(col+1) + strconv.Itoa(row) }
	row := 3
	for blk := range v.All() {
		a, ok := attr[ref(0, row)]
		if !ok {
			break
		}
		st.title = a
		for j := range blk.Columns {
			if a, ok := attr[ref(j, row+1)]; ok {
				st.header[j] = a
			}
		}
		marked := map[[2]int]bool{}
		for _, m := range blk.Marked {
			marked[m] = true
		}
		for i, r := range blk.Rows {
			for j := range r {
				if a, ok := attr[ref(j, row+2+i)]; ok {
					if marked[[2]int{i, j}] {
						st.marked[j] = a
					} else {
						st.data[j] = a
					}
				}
			}
		}
		row += len(blk.Rows) + 3
	}
	if st.title == nil {
		b.Fatalf("view %s: no block found on its sheet", v.Name)
	}
	return st
}

// floorView formats a view's blocks one after the other from row 3: a
// title row, the header, the rows, a blank row.
func floorView(w io.Writer, v results.View, st viewStyles) error {
	c := &floorCells{w: w}
	row := 3
	for blk := range v.All() {
		c.openRow(row)
		c.cell(0, st.title, results.TextValue(blk.Title), false)
		if err := c.closeRow(); err != nil {
			return err
		}
		c.openRow(row + 1)
		for j, col := range blk.Columns {
			c.cell(j, st.header[j], results.TextValue(col.Name), false)
		}
		if err := c.closeRow(); err != nil {
			return err
		}
		marked := map[[2]int]bool{}
		for _, m := range blk.Marked {
			marked[m] = true
		}
		for i, r := range blk.Rows {
			c.openRow(row + 2 + i)
			for j, v := range r {
				a := st.data[j]
				if marked[[2]int{i, j}] {
					a = st.marked[j]
				}
				c.cell(j, a, v, blk.Columns[j].Kind == results.Text)
			}
			if err := c.closeRow(); err != nil {
				return err
			}
		}
		row += len(blk.Rows) + 3
	}
	return c.flush()
}

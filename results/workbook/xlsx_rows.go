package workbook

import (
	"context"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf16"

	"ckptlab/internal/satmath"
	"ckptlab/results"

	"github.com/xuri/excelize/v2"
)

// tableRows are the data rows of a table's sheets: the table's rows in
// order, cut into parts, one per sheet, each numbered from 2 under its
// header. excelize makes the sheets (columns, header, panes, filter, page
// setup) with no data rows, and the rows are written into each sheet's XML
// as the workbook is saved (see packSheets). Through excelize's stream
// writer, whose work per cell (a cell name, an interface value, a struct,
// escaping) was half of a large workbook's time, they took four times as
// long. The XML is the one the stream writer writes, byte for byte:
// TestSheetRowsMatchExcelize holds the two to each other.
type tableRows struct {
	t results.Table
	// numeric marks the columns whose decimal texts are written as
	// numbers; style is each column's style, which excelize gives every
	// cell of the column.
	numeric []bool
	style   []int
	parts   []sheetPart
}

// The most XML a table's row takes: its markup, and each of its cells.
const (
	rowXMLBytes  = 64
	cellXMLBytes = 64
)

// tableXMLBytes bounds the XML of a table's rows.
func tableXMLBytes(rows int64, columns int) int64 {
	return satmath.Mul(rows, satmath.Add(rowXMLBytes, satmath.Mul(int64(columns), cellXMLBytes)))
}

// sheetPart is one sheet of a table: its part in the package, the range
// of its cells (its dimension), and the table's rows lo..hi-1 that it
// holds; and, when set, its <cols> element, which goes in before its
// <sheetData> (see colsElement).
type sheetPart struct {
	path   string
	dim    string
	lo, hi int
	cols   []byte
}

// sheetRows are rows written into sheets excelize made without them, as
// the workbook is saved (see packSheets): a table's (tableRows) or a
// view's (viewRows).
type sheetRows interface {
	// sheets returns the sheets the rows go into, in the order written.
	sheets() []sheetPart
	// write writes the rows of each sheet, the <row> elements that go
	// before its </sheetData>, to the writer begin returns for it,
	// calling end after the sheet's last row.
	write(ctx context.Context, begin func(sheet int) (io.Writer, error), end func(sheet int) error) error
}

func (r tableRows) sheets() []sheetPart { return r.parts }

// rowsFlushAt is how many bytes of rows write gathers before passing
// them on to the compressor, which gathers them into its pieces
// (deflatePiece): enough that handing them over costs nothing next to
// formatting them, and little enough that a row encoder's buffer, grown
// by appending, is not copied over and over on its way to a mebibyte
// (that copying was a twentieth of a small workbook's time).
const rowsFlushAt = 64 << 10

// encoderStart is the room a row encoder's buffer starts with: it grows to
// rowsFlushAt for a large table, and a small workbook's dozen tables and
// views do not each clear room they never fill.
const encoderStart = 4 << 10

// write reads the table once and writes the rows of each part (see
// sheetRows). The table must have the rows its parts say, no more and no
// fewer.
func (r tableRows) write(ctx context.Context, begin func(part int) (io.Writer, error), end func(part int) error) error {
	enc := newRowEncoder(r.numeric, r.style)
	last := len(r.parts) - 1
	i, n := 0, 0
	w, err := begin(0)
	if err != nil {
		return err
	}
	flush := func() error {
		_, err := w.Write(enc.buf)
		enc.buf = enc.buf[:0]
		return err
	}
	for row := range r.t.Rows {
		if n%results.CheckEvery == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		for n == r.parts[i].hi { // this part is full: on to the next
			if i == last {
				return fmt.Errorf("table %s has more than the %d rows it had when the workbook was made", r.t.Name, n)
			}
			if err := flush(); err != nil {
				return err
			}
			if err := end(i); err != nil {
				return err
			}
			i++
			if w, err = begin(i); err != nil {
				return err
			}
		}
		enc.row(n-r.parts[i].lo+2, row)
		if len(enc.buf) >= rowsFlushAt {
			if err := flush(); err != nil {
				return err
			}
		}
		n++
	}
	if err := ctx.Err(); err != nil { // a table stops early once ctx is done
		return err
	}
	if i != last || n != r.parts[last].hi {
		return fmt.Errorf("table %s ended at row %d, before the %d rows it had when the workbook was made", r.t.Name, n, r.parts[last].hi)
	}
	if err := flush(); err != nil {
		return err
	}
	return end(i)
}

// rowEncoder writes rows as excelize's stream writer writes them: each
// cell with its reference, its column's style and its type, numbers as
// excelize formats them, text inline. Floats are formatted once for each
// value their column held lately (see RecentTexts), as rounding one to
// the digits of a cell takes longer than writing the whole cell.
type rowEncoder struct {
	buf     []byte
	numeric []bool
	open    [][]byte // per column, `<c r="X` (the row number follows)
	attrs   [][]byte // per column, `" s="N"` or `"`
	floats  []results.RecentTexts
	rowNum  []byte
}

func newRowEncoder(numeric []bool, style []int) *rowEncoder {
	e := &rowEncoder{numeric: numeric, buf: make([]byte, 0, encoderStart)}
	e.widen(len(style))
	for _, s := range style {
		e.attrs = append(e.attrs, styleAttr(s))
	}
	return e
}

// row appends row number r.
func (e *rowEncoder) row(r int, cells []results.Value) {
	e.openRow(r)
	for col := range cells {
		v := &cells[col] // a Value is six words; do not copy it
		if v.Kind == results.Text && e.numeric[col] {
			n := sheetValue(*v, true)
			v = &n
		}
		e.cell(col, e.attrs[col], v)
	}
	e.buf = append(e.buf, `</row>`...)
}

// openRow begins row number r.
func (e *rowEncoder) openRow(r int) {
	e.rowNum = strconv.AppendInt(e.rowNum[:0], int64(r), 10)
	e.buf = append(e.buf, `<row r="`...)
	e.buf = append(e.buf, e.rowNum...)
	e.buf = append(e.buf, `">`...)
}

// cell appends the cell of column col, from 0, in the row begun: attr is
// its style attribute and what ends its reference (see styleAttr), v its
// value as the workbook holds it (see sheetValue).
func (e *rowEncoder) cell(col int, attr []byte, v *results.Value) {
	b := append(e.buf, e.open[col]...)
	b = append(b, e.rowNum...)
	b = append(b, attr...)
	switch v.Kind {
	case results.Int:
		b = append(b, `><v>`...)
		b = strconv.AppendInt(b, v.Int, 10)
		b = append(b, `</v></c>`...)
	case results.Float:
		if math.IsNaN(v.Float) || math.IsInf(v.Float, 0) {
			b = appendInlineText(b, fmt.Sprint(v.Float))
			break
		}
		b = append(b, `><v>`...)
		b = e.floats[col].AppendAs(b, v, appendCellValue)
		b = append(b, `</v></c>`...)
	case results.Bool:
		if v.Bool {
			b = append(b, ` t="b"><v>1</v></c>`...)
		} else {
			b = append(b, ` t="b"><v>0</v></c>`...)
		}
	default:
		b = appendInlineText(b, v.Text)
	}
	e.buf = b
}

// widen makes the encoder ready for cells of columns up to cols.
func (e *rowEncoder) widen(cols int) {
	for col := len(e.open); col < cols; col++ {
		e.open = append(e.open, []byte(`<c r="`+columnName(col+1)))
		e.floats = append(e.floats, results.RecentTexts{})
	}
}

// styleAttr returns what follows a cell's reference for style id s:
// its closing quote and, but for the default style 0, its style.
func styleAttr(s int) []byte {
	if s == 0 {
		return []byte(`"`)
	}
	return []byte(`" s="` + strconv.Itoa(s) + `"`)
}

// appendCellValue appends the value of a finite float's cell: the float
// rounded to a cell's digits, as excelize writes it.
func appendCellValue(v results.Value, dst []byte) []byte {
	return appendCellFloat(dst, cellFloat(v.Float))
}

// appendCellFloat appends x as excelize writes a float64 cell: every
// digit of its shortest decimal form, but digits past the fifteenth
// significant one made zeros or cut. Floats rounded by cellFloat have no
// such digits, but one too large to round keeps them.
func appendCellFloat(dst []byte, x float64) []byte {
	start := len(dst)
	dst = strconv.AppendFloat(dst, x, 'f', -1, 64)
	if math.Abs(x) == math.MaxFloat64 {
		return dst
	}
	str := dst[start:]
	const maxPrec = 15
	decimal := -1
	significant := 0
	for i, c := range str {
		if c == '.' {
			decimal = i
		}
		if c < '0' || c > '9' || significant == 0 && c == '0' {
			continue
		}
		significant++
		if significant <= maxPrec {
			continue
		}
		if decimal >= 0 { // past the point: cut here, and a bare point
			cut := dst[:start+i]
			if cut[len(cut)-1] == '.' {
				cut = cut[:len(cut)-1]
			}
			return cut
		}
		// Before the point: zeros up to it.
		end := i
		for end < len(str) && str[end] != '.' {
			str[end] = '0'
			end++
		}
		return dst[:start+end]
	}
	return dst
}

// appendInlineText appends the rest of a text cell: its type, and the text
// inline as excelize writes it, cut to the characters a cell holds,
// escaped for XML (line ends kept), with underscores that read as an
// escape escaped, and marked to keep its spaces when it begins or ends
// with one.
func appendInlineText(dst []byte, text string) []byte {
	dst = append(dst, ` t="inlineStr"><is><t`...)
	if n := len(text); n > 0 && (isSpaceByte(text[0]) || isSpaceByte(text[n-1])) {
		dst = append(dst, ` xml:space="preserve"`...)
	}
	dst = append(dst, '>')
	dst = appendEscapedText(dst, truncateCellText(text))
	return append(dst, `</t></is></c>`...)
}

// isSpaceByte reports the characters excelize keeps a cell's spaces for.
func isSpaceByte(c byte) bool { return c == '\t' || c == '\n' || c == '\r' || c == ' ' }

// truncateCellText cuts text to the excelize.TotalCellChars UTF-16 units a
// cell holds.
func truncateCellText(text string) string {
	if len(text) <= excelize.TotalCellChars { // no more units than bytes
		return text
	}
	n := 0
	for i, r := range text {
		if n += utf16.RuneLen(r); n > excelize.TotalCellChars {
			return text[:i]
		}
	}
	return text
}

// appendEscapedText appends text escaped as XML character data, with line
// ends as they are, and each _xHHHH_ in it, which a reader would take for
// a character escaped the Office way, escaped itself as _x005F_xHHHH_.
func appendEscapedText(dst []byte, text string) []byte {
	if !isPlainText(text) {
		var sb strings.Builder
		_ = xml.EscapeText(&sb, []byte(text))
		text = strings.ReplaceAll(sb.String(), "&#xA;", "\n")
	}
	for {
		i := strings.Index(text, "_x")
		if i < 0 {
			return append(dst, text...)
		}
		if isEscapedChar(text[i:]) {
			dst = append(dst, text[:i]...)
			dst = append(dst, "_x005F"...)
			dst = append(dst, text[i:i+7]...)
			text = text[i+7:]
			continue
		}
		dst = append(dst, text[:i+2]...)
		text = text[i+2:]
	}
}

// isEscapedChar reports whether s begins with _xHHHH_, a character as
// Office escapes it.
func isEscapedChar(s string) bool {
	if len(s) < 7 || s[:2] != "_x" || s[6] != '_' {
		return false
	}
	_, err := strconv.ParseUint(s[2:6], 16, 16)
	return err == nil
}

// isPlainText reports whether XML escaping leaves text as it is: printable
// ASCII but <>&'".
func isPlainText(text string) bool {
	for i := 0; i < len(text); i++ {
		switch c := text[i]; {
		case c < 0x20 || c >= 0x7f, c == '<', c == '>', c == '&', c == '\'', c == '"':
			return false
		}
	}
	return true
}

package results

import (
	"bytes"
	"encoding/csv"
	"hash/maphash"
	"io"
	"math"
	"strconv"
	"unsafe"

	"ckptlab/internal/satmath"
)

// WriteCSV writes the table as RFC 4180 CSV with a header row and \n line
// ends. Values are written as Value.AppendText gives them.
//
// encoding/csv decides how every text cell is quoted. What WriteCSV adds is
// speed for the cells that are not text, which are nearly all of a result
// table's cells: a number or a boolean is digits, '.', '-', '+' and
// letters, which encoding/csv never quotes, so those cells are appended to
// the row as they are, without the library's per-character look at them
// and per-cell call (which were more than half the time of a scale run).
// Text cells, which are few and repeat (names, "none"), are quoted by
// encoding/csv and looked up after that. Numbers are looked up
// among the numbers their column held lately, as the grid repeats most of
// its numbers (its axes change slowly, and every metric but expected_total
// is the same at every probability); the numbers left are formatted.
//
// TestWriteCSVMatchesEncodingCSV holds the output to the library's, byte
// for byte, over hostile text and every kind of number.
func WriteCSV(w io.Writer, t Table) error {
	out := csvOut{w: w, buf: make([]byte, 0, csvFlushAt+csvRowRoom)}
	var header textQuoter
	for i, name := range t.Header() {
		if i > 0 {
			out.buf = append(out.buf, ',')
		}
		out.buf = header.append(out.buf, name)
	}
	out.buf = append(out.buf, '\n')
	lately := make([]RecentTexts, len(t.Columns))
	texts := make([]textQuoter, len(t.Columns))
	for row := range t.Rows {
		for i := range row {
			if i > 0 {
				out.buf = append(out.buf, ',')
			}
			v := &row[i] // a Value is six words; do not copy it
			switch v.Kind {
			case Text:
				out.buf = texts[i].append(out.buf, v.Text)
			case Bool:
				out.buf = strconv.AppendBool(out.buf, v.Bool)
			default:
				out.buf = lately[i].append(out.buf, v)
			}
		}
		out.buf = append(out.buf, '\n')
		if len(out.buf) >= csvFlushAt {
			if err := out.flush(); err != nil {
				return err
			}
		}
	}
	return out.flush()
}

// CSVBound bounds the memory writing the four tables as CSV holds.
// They are written at the same time.
func CSVBound(s Sizes) int64 {
	var n int64
	for _, t := range s.Tables() {
		n = satmath.Add(n, satmath.Add(csvTableBytes(t), t.Held))
	}
	return n
}

// csvTableBytes bounds what writing one table holds: the rows gathered,
// the file's buffer, and per column its recent numbers' texts or its
// quoted texts with their writer.
func csvTableBytes(t TableSize) int64 {
	const (
		numbers = int64(unsafe.Sizeof([recentSlots]recentText{}))
		texts   = 2*int64(unsafe.Sizeof([textSlots]quotedText{})) + 4096 + 512 // and the texts
	)
	n := int64(csvFlushAt + csvRowRoom + fileBytes)
	return satmath.Add(n, satmath.Add(satmath.Mul(int64(t.Columns-t.Texts), numbers), satmath.Mul(int64(t.Texts), texts)))
}

// csvFlushAt is how many bytes of rows WriteCSV gathers before writing
// them; csvRowRoom is room for the row that passes it.
const (
	csvFlushAt = 64 << 10
	csvRowRoom = 4 << 10
)

// csvOut gathers rows and writes them in large pieces.
type csvOut struct {
	w   io.Writer
	buf []byte
}

func (o *csvOut) flush() error {
	if len(o.buf) == 0 {
		return nil
	}
	_, err := o.w.Write(o.buf)
	o.buf = o.buf[:0]
	return err
}

// textQuoter appends text cells as encoding/csv writes them, asking the
// library once for each text it has not seen lately. A table's texts are
// few and repeat (names, "none", the failure periods), so it remembers
// them as RecentTexts remembers numbers: a slot per hash of the text, a
// text taking the slot of whatever was there before.
type textQuoter struct {
	slots *[textSlots]quotedText // made at the first text
	seed  maphash.Seed
	one   bytes.Buffer
	cw    *csv.Writer // writes to one
}

type quotedText struct{ text, field string }

// textSlots is room for a column of many distinct texts, such as the
// failure periods of a long horizon, with few of them taking each other's
// slot.
const textSlots = 1024

func (q *textQuoter) append(dst []byte, text string) []byte {
	if q.slots == nil {
		q.slots = new([textSlots]quotedText)
		q.seed = maphash.MakeSeed()
		q.cw = csv.NewWriter(&q.one)
	}
	s := &q.slots[maphash.String(q.seed, text)%textSlots]
	if s.field == "" || s.text != text {
		s.text, s.field = text, q.quote(text)
	}
	return append(dst, s.field...)
}

// quote returns the text as encoding/csv writes it as a field: a record
// of that field alone, less its line end. The library quotes each field
// of a record on its own, so this is the field as it would be in any
// record. An empty text is an empty field, which is no text in a slot.
func (q *textQuoter) quote(text string) string {
	q.one.Reset()
	q.cw.Write([]string{text}) // a bytes.Buffer does not fail
	q.cw.Flush()
	return string(bytes.TrimSuffix(q.one.Bytes(), []byte{'\n'}))
}

// number identifies the text of a numeric cell: its kind and its bits.
// Floats are told apart by their bits, as 0 and -0 are equal numbers
// written differently. The zero number is no number: an empty slot.
type number struct {
	ok   bool
	kind Kind
	bits uint64
}

func numberOf(v *Value) number {
	if v.Kind == Float {
		return number{true, Float, math.Float64bits(v.Float)}
	}
	return number{true, v.Kind, uint64(v.Int)}
}

// RecentTexts remembers the text of numbers one column held lately: a
// table of slots indexed by a hash of the number, where a number takes the
// slot of whatever was there before. A lookup costs a multiplication and a
// comparison. The number of the row above is always there, as no other
// number of the column came in between.
type RecentTexts struct {
	slots *[recentSlots]recentText // made at the first number
}

// recentSlots is a power of two above the 121 intervals of a 120-period
// grid, whose metrics repeat at every probability.
const recentSlots = 256

// recentText holds a number's text in place, so that remembering it
// allocates nothing. Texts longer than the room (floats far from 1 written
// without an exponent) are formatted every time.
type recentText struct {
	n    number
	len  uint8
	text [recentRoom]byte
}

const recentRoom = 31

// append appends the text of the number v as Value.AppendText writes it,
// from its slot if the slot holds it.
func (r *RecentTexts) append(dst []byte, v *Value) []byte {
	return r.AppendAs(dst, v, Value.AppendText)
}

// AppendAs appends the text of the number v as format writes it, from its
// slot if the slot holds it. A column must be written with one format.
func (r *RecentTexts) AppendAs(dst []byte, v *Value, format func(Value, []byte) []byte) []byte {
	if r.slots == nil {
		r.slots = new([recentSlots]recentText)
	}
	n := numberOf(v)
	s := &r.slots[n.bits*0x9E3779B97F4A7C15>>(64-8)]
	if s.n == n {
		return append(dst, s.text[:s.len]...)
	}
	start := len(dst)
	dst = format(*v, dst)
	if text := dst[start:]; len(text) <= recentRoom {
		s.n, s.len = n, uint8(copy(s.text[:], text))
	}
	return dst
}

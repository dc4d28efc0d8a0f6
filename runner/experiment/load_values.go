package experiment

import (
	"bytes"
	"fmt"
)

// maxValues bounds the values of an experiment file, counted before it is
// parsed. The parser keeps about 600 bytes per value, so the 4 MiB a file
// may have, written as one-digit list items, took a gigabyte before any
// check could refuse it. A file written by hand has hundreds of values; a
// list of 100,000 seeds is still read. A longer axis is a range.
const maxValues = 250_000

// valueMarks are the bytes that may come before a YAML value: a line end,
// a flow list or mapping's opening and commas, a mapping's colon, a block
// list's dash, a complex key's question mark. A file has no more values
// than twice these marks (a line may start a mapping and its first key),
// and comments and text only add marks, so counting them never lets a
// large file through, and refuses only a file of more than maxValues marks.
const valueMarks = "\n,[{:-?"

// checkValueCount reports a file with more than maxValues value marks, at
// the mark that passes the limit.
func checkValueCount(data []byte, p place) *Error {
	if valueMarksIn(data) <= maxValues {
		return nil
	}
	n, line, col := 0, 1, 0
	for _, c := range data {
		col++
		if bytes.IndexByte([]byte(valueMarks), c) >= 0 {
			n++
		}
		if n > maxValues {
			break
		}
		if c == '\n' {
			line, col = line+1, 0
		}
	}
	e := p.errorAt(nil, "", "%s", fmt.Sprintf(
		"too many values: a file may have %d of the marks that separate them (line ends, commas, colons, dashes, [ and {), and this is the next; give a long axis as a range, such as {from: 1, to: 100000}",
		maxValues))
	if p.Lines {
		e.Key, e.Line, e.Col = "", line, max(col, 1)
	}
	return e
}

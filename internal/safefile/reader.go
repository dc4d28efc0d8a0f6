package safefile

import (
	"bytes"
	"fmt"
	"io"
	"os"
)

// Limits bound what a Reader reads of a file. A zero field is no limit.
type Limits struct {
	Bytes int64 // the most bytes
	Line  int   // the longest line, its end included; for CSV, the longest record
	Lines int64 // the most lines (for CSV, records)
	CSV   bool  // a line end inside a quoted field does not end a record
	Text  bool  // a UTF-8 byte order mark at the start is dropped
}

// LimitError is the error of a Reader past a limit of lines.
type LimitError struct {
	Path string
	Line int64 // the line that passed the limit, from 1
	Msg  string
}

func (e *LimitError) Error() string {
	return fmt.Sprintf("%s: line %d %s", e.Path, e.Line, e.Msg)
}

// bom is the UTF-8 byte order mark, which some editors write first.
var bom = []byte("\xef\xbb\xbf")

// Reader reads a file within Limits.
// It drops a byte order mark at the start of a text file.
// Past Limits.Bytes it fails with a *TooLargeError, and past the other
// limits with a *LimitError. It also fails past the size the file had when
// it was opened. That stops a file that grows as it is read, or one in
// /proc.
type Reader struct {
	r       io.Reader
	path    string
	lim     Limits
	size    int64 // the most bytes there may be; -1 for no such bound
	read    int64 // bytes read, the mark included
	line    int64 // the line being read, from 1
	lineLen int
	quoted  bool
	started bool
	pending []byte // bytes read ahead of the start, not the mark
	err     error
}

// NewReader returns a Reader of r, which path names in errors.
func NewReader(r io.Reader, path string, lim Limits) *Reader {
	return &Reader{r: r, path: path, lim: lim, size: -1, line: 1}
}

// OpenReader opens the regular file at path as Open does and returns a
// Reader of it within lim. Closing the Reader closes the file.
func OpenReader(path string, lim Limits) (*ReadCloser, error) {
	f, fi, err := Open(path)
	if err != nil {
		return nil, err
	}
	if lim.Bytes > 0 && fi.Size() > lim.Bytes {
		f.Close()
		return nil, &TooLargeError{Path: path, Limit: lim.Bytes}
	}
	r := NewReader(f, path, lim)
	r.size = fi.Size()
	return &ReadCloser{Reader: r, f: f}, nil
}

// ReadCloser is a Reader of a file OpenReader opened.
type ReadCloser struct {
	*Reader
	f *os.File
}

// Close closes the file.
func (r *ReadCloser) Close() error { return r.f.Close() }

func (r *Reader) Read(p []byte) (int, error) {
	if r.err != nil {
		return 0, r.err
	}
	if !r.started && r.lim.Text {
		if err := r.start(); err != nil {
			return 0, err
		}
	}
	var n int
	var err error
	if len(r.pending) > 0 {
		n = copy(p, r.pending)
		r.pending = r.pending[n:]
	} else {
		n, err = r.r.Read(p)
	}
	if cerr := r.count(p[:n]); cerr != nil {
		r.err = cerr
		return 0, cerr
	}
	return n, err
}

// start reads the first bytes, to drop a byte order mark.
func (r *Reader) start() error {
	r.started = true
	head := make([]byte, len(bom))
	n, err := io.ReadFull(r.r, head)
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return err
	}
	if bytes.Equal(head[:n], bom) {
		r.read += int64(n)
		return nil
	}
	r.pending = head[:n]
	return nil
}

// count counts the bytes b and the lines they end, and reports the first
// limit they pass.
func (r *Reader) count(b []byte) error {
	r.read += int64(len(b))
	switch {
	case r.lim.Bytes > 0 && r.read > r.lim.Bytes:
		return &TooLargeError{Path: r.path, Limit: r.lim.Bytes}
	case r.size >= 0 && r.read > r.size:
		return fmt.Errorf("%s: gives more than the %d bytes it had when opened (a file that grows, or no file of data)", r.path, r.size)
	}
	for len(b) > 0 {
		if r.lim.Lines > 0 && r.line > r.lim.Lines {
			return &LimitError{Path: r.path, Line: r.line, Msg: fmt.Sprintf("is past %d lines, the most such a file may have; not read further", r.lim.Lines)}
		}
		i := bytes.IndexByte(b, '\n')
		seg := b
		if i >= 0 {
			seg = b[:i+1]
		}
		b = b[len(seg):]
		if r.lim.CSV && bytes.Count(seg, []byte{'"'})%2 == 1 {
			r.quoted = !r.quoted
		}
		r.lineLen += len(seg)
		if r.lim.Line > 0 && r.lineLen > r.lim.Line {
			return &LimitError{Path: r.path, Line: r.line, Msg: fmt.Sprintf("is longer than %d bytes, the longest such a file may have; not read further", r.lim.Line)}
		}
		if i < 0 || r.quoted {
			continue
		}
		r.lineLen = 0
		r.line++
	}
	return nil
}

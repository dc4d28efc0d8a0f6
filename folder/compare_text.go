package folder

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	"ckptlab/internal/safefile"
	"ckptlab/results"
)

// Limits of a --check comparison, so that its memory does not grow with
// the file it reads, whatever that file holds.
const (
	// maxCheckLine is the longest line compared; a longer line on either
	// side ends the comparison as a difference. No line of a table comes
	// near it.
	maxCheckLine = 1 << 20
	// maxLineDiffs is how many differing lines a Difference reports.
	maxLineDiffs = 3
)

// checkText compares a text file with its rendering line by line, the
// rendering streamed through a pipe so that no table is held in memory.
// Only a regular file is read: a FIFO or a device in the folder is a
// difference, not something to wait on or read forever.
func checkText(ctx context.Context, path string, render func(context.Context, io.Writer, string) error) (*results.Difference, error) {
	file, _, d, err := openRegular(path)
	if file == nil {
		return d, err
	}
	defer file.Close()
	pr, pw := io.Pipe()
	go func() {
		err := render(ctx, pw, "")
		if err == nil {
			err = ctx.Err()
		}
		pw.CloseWithError(err)
	}()
	defer pr.Close() // stops the renderer if the comparison ends early
	csv := strings.HasSuffix(path, ".csv")
	return compareLines(ctx, bufio.NewReaderSize(pr, 1<<16), bufio.NewReaderSize(file, 1<<16), csv)
}

// compareLines compares two texts line by line, line ends included, in
// memory bounded by maxCheckLine. For CSV, the first line is the header and
// differing rows are compared cell by cell.
func compareLines(ctx context.Context, want, got *bufio.Reader, isCSV bool) (*results.Difference, error) {
	var d results.Difference
	var header []string
	for n := 1; ; n++ {
		if n%results.CheckEvery == 0 && ctx.Err() != nil {
			return nil, context.Cause(ctx)
		}
		w, weof, wlong, err := readLine(want)
		if err != nil {
			return nil, err
		}
		g, geof, glong, err := readLine(got)
		if err != nil {
			return nil, err
		}
		if wlong || glong {
			d.Count++
			d.Detail = fmt.Sprintf("line %d is longer than %d MiB; not compared further", n, maxCheckLine>>20)
			break
		}
		if weof && geof {
			break
		}
		if n == 1 && w != g {
			// Not the file ckptlab writes there: whatever it is (a copy of
			// some other file), none of its lines is shown.
			d.Count++
			d.Detail = "its first line is not the one ckptlab writes there, so it is no file of this set; its lines are not shown"
			break
		}
		if weof { // the file goes on: one difference, and no more read of it
			d.Count++
			if len(d.Lines) < maxLineDiffs {
				d.Lines = append(d.Lines, results.LineDiff{Line: n, WantEOF: true, Got: strings.TrimSuffix(g, "\n")})
			}
			d.Detail = fmt.Sprintf("the file goes on after line %d, its last; not read further", n-1)
			break
		}
		if isCSV && n == 1 && !weof {
			header = splitCSV(w)
		}
		if w == g {
			continue
		}
		d.Count++
		if len(d.Lines) < maxLineDiffs {
			l := results.LineDiff{
				Line: n,
				Want: strings.TrimSuffix(w, "\n"), WantEOF: weof,
				Got: strings.TrimSuffix(g, "\n"), GotEOF: geof,
			}
			if n > 1 && !weof && !geof && header != nil {
				l.Cells = cellDiffs(header, l.Want, l.Got)
			}
			d.Lines = append(d.Lines, l)
		}
	}
	if d.Count == 0 {
		return nil, nil
	}
	return &d, nil
}

// readLine reads a line with its line end. eof reports that there was no
// line left; long that the line passes maxCheckLine, and is not returned.
func readLine(r *bufio.Reader) (line string, eof, long bool, err error) {
	chunk, err := r.ReadSlice('\n')
	if err == nil && len(chunk) <= maxCheckLine { // a whole line in the buffer: most of them
		return string(chunk), false, false, nil
	}
	var buf bytes.Buffer
	for {
		if buf.Len()+len(chunk) > maxCheckLine {
			return "", false, true, nil
		}
		buf.Write(chunk)
		switch {
		case err == nil:
			return buf.String(), false, false, nil
		case errors.Is(err, bufio.ErrBufferFull):
			chunk, err = r.ReadSlice('\n')
			continue
		case err == io.EOF:
			return buf.String(), buf.Len() == 0, false, nil
		default:
			return "", false, false, err
		}
	}
}

// splitCSV reads one line of CSV, or returns nil if it is not one.
func splitCSV(line string) []string {
	rec, err := csv.NewReader(strings.NewReader(line)).Read()
	if err != nil {
		return nil
	}
	return rec
}

// cellDiffs returns the cells in which two rows differ, when both have the
// header's number of cells.
func cellDiffs(header []string, want, got string) []results.CellDiff {
	w, g := splitCSV(want), splitCSV(got)
	if len(w) != len(header) || len(g) != len(header) {
		return nil
	}
	var out []results.CellDiff
	for i := range header {
		if w[i] != g[i] {
			out = append(out, results.CellDiff{Column: header[i], Want: w[i], Got: g[i]})
		}
	}
	return out
}

// openRegular opens a file of the output folder for a comparison. A file
// that is missing, or that is not a regular file of its own (a symbolic
// link, a FIFO, a device), is a difference rather than something to
// follow, wait on or read forever: openRegular then returns no file and
// that difference, or an error.
func openRegular(path string) (*os.File, fs.FileInfo, *results.Difference, error) {
	f, fi, err := safefile.Open(path)
	var nr *safefile.NotRegularError
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil, &results.Difference{Missing: true}, nil
	case errors.As(err, &nr):
		return nil, nil, &results.Difference{Detail: "a " + nr.Kind + ", not a regular file; not read"}, nil
	case err != nil:
		return nil, nil, nil, err
	}
	return f, fi, nil, nil
}

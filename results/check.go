package results

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"ckptlab/internal/atomicfs"
	"ckptlab/internal/safefile"
	"ckptlab/internal/words"
)

// maxLineDiffs is how many differing lines a Difference reports.
const maxLineDiffs = 3

// A Difference is a file of a set whose content on disk is not what the set
// renders now.
type Difference struct {
	// File is the file's path: dir/<name>/<file>.
	File string
	// Missing reports that the file does not exist.
	Missing bool
	// Extra reports a file that no set has, in any format: left there by
	// hand or by another program. A run refuses the folder while it is there.
	Extra bool
	// Lines are the first differing lines of a CSV or Markdown file, and
	// Count how many lines differ in all.
	Lines []LineDiff
	Count int
	// Parts are the parts of a workbook that differ or that only one side
	// has: a worksheet by its sheet name, any other part by its path in the
	// archive. Empty when the file is not a workbook at all.
	Parts []string
	// Detail says what else is wrong, such as a file that is not a zip
	// archive.
	Detail string
}

// LineDiff is a line that differs: its number, from 1, the line the set
// renders (Want) and the line the file has (Got), without their line ends.
// WantEOF or GotEOF report that a side has no such line.
type LineDiff struct {
	Line            int
	Want, Got       string
	WantEOF, GotEOF bool
	// Cells are the cells that differ, for a row of a CSV table whose two
	// sides have the header's number of cells; empty otherwise.
	Cells []CellDiff
}

// CellDiff is one cell of a CSV row that differs: its column's name and
// the two values.
type CellDiff struct {
	Column    string
	Want, Got string
}

// String describes the difference in a sentence, followed by its lines.
func (d Difference) String() string {
	var b strings.Builder
	switch {
	case d.Missing:
		fmt.Fprintf(&b, "%s: missing", d.File)
	case d.Extra:
		fmt.Fprintf(&b, "%s: not a file of any set (a run will not replace the folder while it is there)", d.File)
	case len(d.Lines) > 0:
		fmt.Fprintf(&b, "%s: %d %s", d.File, d.Count, words.Plural(d.Count, "line differs", "lines differ"))
		if cols := d.Columns(); len(cols) > 0 {
			fmt.Fprintf(&b, "\n  in the %s %s", words.Plural(len(cols), "column", "columns"), strings.Join(cols, ", "))
		}
		for _, l := range d.Lines {
			writeLineDiff(&b, filepath.Base(d.File), l)
		}
	case len(d.Parts) > 0:
		fmt.Fprintf(&b, "%s: differs in %s", d.File, strings.Join(d.Parts, ", "))
	default:
		fmt.Fprintf(&b, "%s: differs", d.File)
	}
	if d.Detail != "" {
		fmt.Fprintf(&b, " (%s)", d.Detail)
	}
	return b.String()
}

func shownLine(s string, eof bool) string {
	if eof {
		return "(end of file)"
	}
	return safefile.Excerpt(s, maxLineText)
}

// maxLineText is how many characters of a line a difference shows.
const maxLineText = 120

// Compare renders the set in the given formats and compares each file with
// the one of its name in folder.
// It writes nothing there: a workbook is rendered to a scratch folder
// outside, text files are compared as they are rendered.
// It returns a Difference per file that differs or is missing, in the order of Files.
// Package folder holds the folder's lock meanwhile and lists the files no set has.
func (s Set) Compare(ctx context.Context, folder string, formats []string) ([]Difference, error) {
	files, err := s.files(formats)
	if err != nil {
		return nil, err
	}
	var diffs []Difference
	for _, f := range files {
		path := filepath.Join(folder, f.name)
		var d *Difference
		var err error
		if strings.HasSuffix(f.name, ".xlsx") {
			d, err = checkBinary(ctx, path, f.render)
		} else {
			d, err = checkText(ctx, path, f.render)
		}
		if err != nil {
			return nil, fmt.Errorf("checking %s: %w", path, err)
		}
		if d != nil {
			d.File = path
			diffs = append(diffs, *d)
		}
	}
	return diffs, nil
}

// checkBinary renders a workbook to a temporary file outside the output
// folder and compares bytes; when they differ, it names the parts of the
// archive that do.
func checkBinary(ctx context.Context, path string, render func(context.Context, io.Writer, string) error) (*Difference, error) {
	got, gotInfo, d, err := openRegular(path)
	if got == nil {
		return d, err
	}
	defer got.Close()
	// The rendering and its scratch files go into a scratch folder of this
	// process, which the next check removes should this one be killed.
	atomicfs.RemoveStaleScratch(".ckptlab-xlsx-*") // left by checks before scratch folders
	scratch, release, err := atomicfs.MkdirScratch("ckptlab-check-*")
	if err != nil {
		return nil, err
	}
	defer release()
	want, err := os.Create(filepath.Join(scratch, "want"+filepath.Ext(path)))
	if err != nil {
		return nil, err
	}
	defer want.Close()
	bw := bufio.NewWriterSize(want, 1<<16)
	if err := render(ctx, bw, scratch); err != nil {
		return nil, err
	}
	if err := bw.Flush(); err != nil {
		return nil, err
	}
	if same, err := sameContent(want, got); err != nil || same {
		return nil, err
	}
	wantInfo, err := want.Stat()
	if err != nil {
		return nil, err
	}
	if most := maxWorkbookBytes(wantInfo.Size()); gotInfo.Size() > most {
		return &Difference{Detail: fmt.Sprintf("%d bytes, far more than the %d of the workbook; not opened", gotInfo.Size(), wantInfo.Size())}, nil
	}
	parts, err := workbookDiff(want, got)
	if err != nil {
		return &Difference{Detail: err.Error()}, nil
	}
	if len(parts) == 0 {
		return &Difference{Detail: "every part is the same, but not the layout of the archive"}, nil
	}
	return &Difference{Parts: parts}, nil
}

// sameContent reports whether two files hold the same bytes, reading both
// from the start.
func sameContent(a, b *os.File) (bool, error) {
	ra := bufio.NewReaderSize(io.NewSectionReader(a, 0, 1<<62), 1<<16)
	rb := bufio.NewReaderSize(io.NewSectionReader(b, 0, 1<<62), 1<<16)
	bufA, bufB := make([]byte, 1<<15), make([]byte, 1<<15)
	for {
		na, errA := io.ReadFull(ra, bufA)
		nb, errB := io.ReadFull(rb, bufB)
		if !bytes.Equal(bufA[:na], bufB[:nb]) {
			return false, nil
		}
		endA := errA == io.EOF || errA == io.ErrUnexpectedEOF
		endB := errB == io.EOF || errB == io.ErrUnexpectedEOF
		if errA != nil && !endA {
			return false, errA
		}
		if errB != nil && !endB {
			return false, errB
		}
		if endA || endB {
			return endA && endB, nil
		}
	}
}

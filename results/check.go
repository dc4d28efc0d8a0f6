package results

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"ckptlab/internal/safefile"
	"ckptlab/internal/words"
)

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

// Limits of how a difference is shown.
const (
	// maxCellsShown is how many differing cells of a row are shown, and
	// maxCellText how many characters of a cell's value.
	maxCellsShown = 4
	maxCellText   = 40
)

// Columns returns the names of the columns in which the shown rows of a
// CSV table differ, in the order first seen.
func (d Difference) Columns() []string {
	var out []string
	for _, l := range d.Lines {
		for _, c := range l.Cells {
			if !slices.Contains(out, c.Column) {
				out = append(out, c.Column)
			}
		}
	}
	return out
}

// writeLineDiff writes one differing line: cell by cell for a CSV row
// ("grid.csv row 17, expected_total: want 927.27, got 930"), whole
// otherwise.
func writeLineDiff(b *strings.Builder, file string, l LineDiff) {
	if len(l.Cells) == 0 {
		fmt.Fprintf(b, "\n  line %d:\n    want %s\n    got  %s", l.Line, shownLine(l.Want, l.WantEOF), shownLine(l.Got, l.GotEOF))
		return
	}
	for i, c := range l.Cells {
		if i == maxCellsShown {
			fmt.Fprintf(b, "\n  %s row %d: and %d more cells", file, l.Line-1, len(l.Cells)-i)
			break
		}
		fmt.Fprintf(b, "\n  %s row %d, %s: want %s, got %s", file, l.Line-1, c.Column, cellText(c.Want), cellText(c.Got))
	}
}

// cellText shortens a long value for a message, and quotes one that is
// not printable text.
func cellText(s string) string { return safefile.Excerpt(s, maxCellText) }

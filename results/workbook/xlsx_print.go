package workbook

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"ckptlab/results"

	"github.com/xuri/excelize/v2"
)

// The printed page every sheet is set up for: A4, with narrow margins, in
// points (1/72 inch). A spreadsheet program lays the pages out itself; the
// estimate of how many rows a page holds only decides where a block or a
// chart is moved whole to the next page, so it errs on the side of fewer:
// it counts rows of 15 points, Excel's default (LibreOffice's are less).
const (
	paperA4       = 9 // the paper size code of A4 in Office Open XML
	pageShort     = 595.0
	pageLong      = 842.0
	marginSide    = 0.5 // inches
	marginEnd     = 0.6 // top and bottom, inches
	marginHF      = 0.3 // header and footer, inches
	rowPoints     = 15.0
	pixelPoints   = 0.75
	minPrintScale = 0.4 // below this a sheet is printed over several pages across
	// tableScale is the least scale a table sheet (grid, decisions, …) is
	// printed at: its numbers stay legible, and a wide table prints over
	// pages across, its key columns repeated.
	tableScale = 0.75
	// portraitScale is the least scale a sheet is printed at upright;
	// a sheet that would be smaller is turned landscape.
	portraitScale = 0.55
)

// maxPageBreaks is the most manual page breaks between rows that a sheet
// holds, and so the most a view's sheet keeps until it is written: Excel
// keeps at most 1,023 and reports a file with more as damaged. A sheet
// whose layout would need more is laid out to be read on screen instead,
// without breaks, and its note says why (docs/outputs.md#the-workbook).
const maxPageBreaks = 1023

// onScreenNote is the note of a sheet laid out to be read on screen since
// printed it would need more page breaks than maxPageBreaks: it would
// print on pages pages.
func onScreenNote(pages int) string {
	return fmt.Sprintf("This sheet would print on %s pages, more than the %s a sheet's page breaks allow in Excel; "+
		"it is laid out to be read on screen, and printed pages break where the printer puts them.", results.Count.
		FormatInt(int64(pages)), results.Count.FormatInt(maxPageBreaks+1))
}

// joinNotes joins the sentences of a sheet's note, leaving out those
// that are empty.
func joinNotes(notes ...string) string {
	return strings.Join(slices.DeleteFunc(notes, func(s string) bool { return s == "" }), " ")
}

// printLayout is how a sheet is printed.
type printLayout struct {
	landscape bool
	pagesWide int
	// rows is about how many rows of the default height a page holds
	// below the repeated header rows.
	rows int
}

// columnPoints is the printed width of a column width in characters, as
// a spreadsheet program converts it with its default font.
func columnPoints(chars float64) float64 { return (chars*7 + 5) * pixelPoints }

// maxRowPoints is the tallest a row can be.
const maxRowPoints = 409

// rowHeight returns the height of a row of wrapped text of the given
// lines, as tall as a row can be at most.
func rowHeight(lines int) float64 { return min(rowPoints*float64(lines), maxRowPoints) }

// layOut chooses the layout of a sheet whose printed width is width
// points, of which the repeated key columns take keyWidth, with titleRows
// header rows repeated on every page: portrait when it fits a portrait
// page at a readable scale, landscape otherwise, over as few pages across
// as keep it at minPrintScale or more.
func layOut(width, keyWidth float64, titleRows int) printLayout {
	return layOutAt(width, keyWidth, titleRows, minPrintScale)
}

// layOutAt is layOut, over as few pages across as keep the sheet at scale
// least or more.
func layOutAt(width, keyWidth float64, titleRows int, least float64) printLayout {
	l := printLayout{pagesWide: 1}
	across, down := pageShort-2*72*marginSide, pageLong-2*72*marginEnd
	if width*portraitScale > across {
		l.landscape = true
		across, down = pageLong-2*72*marginSide, pageShort-2*72*marginEnd
	}
	if width*least > across {
		// the room a page leaves beside the key columns, a third of it at
		// least where they are wider
		room := max(across/least-keyWidth, across/least/3)
		l.pagesWide = int(math.Ceil((width - keyWidth) / room))
	}
	scale := min(1, across*float64(l.pagesWide)/(width+float64(l.pagesWide-1)*keyWidth))
	l.rows = max(int(down/(rowPoints*scale))-titleRows, 8)
	return l
}

// setUpPrint sets up a sheet for printing: A4 in the layout's orientation,
// fit to its pages across and as many down as needed, the first titleRows
// rows and the first keyCols columns repeated on every page, and a footer
// with the sheet's name and the page number. It must be called before the
// sheet's stream writer is made, which writes the fit-to-page flag first.
func (b *workbook) setUpPrint(sheet string, l printLayout, titleRows, keyCols int) error {
	fit := true
	if err := b.f.SetSheetProps(sheet, &excelize.SheetPropsOptions{FitToPage: &fit}); err != nil {
		return err
	}
	orientation := "portrait"
	if l.landscape {
		orientation = "landscape"
	}
	size, wide, down := paperA4, l.pagesWide, 0
	if err := b.f.SetPageLayout(sheet, &excelize.PageLayoutOptions{
		Size: &size, Orientation: &orientation, FitToWidth: &wide, FitToHeight: &down,
	}); err != nil {
		return err
	}
	side, end, hf := marginSide, marginEnd, marginHF
	if err := b.f.SetPageMargins(sheet, &excelize.PageLayoutMarginsOptions{
		Left: &side, Right: &side, Top: &end, Bottom: &end, Header: &hf, Footer: &hf,
	}); err != nil {
		return err
	}
	if err := b.setHeader(sheet, ""); err != nil {
		return err
	}
	var titles string
	if keyCols > 0 && l.pagesWide > 1 {
		titles = fmt.Sprintf("'%s'!$A:$%s", sheet, columnName(keyCols))
	}
	if titleRows > 0 {
		if titles != "" {
			titles += ","
		}
		titles += fmt.Sprintf("'%s'!$1:$%d", sheet, titleRows)
	}
	if titles == "" {
		return nil
	}
	return b.f.SetDefinedName(&excelize.DefinedName{Name: "_xlnm.Print_Titles", RefersTo: titles, Scope: sheet})
}

// setHeader sets a sheet's printed header to notice (none for "") and its
// footer to the sheet's name and the page number.
func (b *workbook) setHeader(sheet, notice string) error {
	hf := &excelize.HeaderFooterOptions{OddFooter: "&L&A&Rpage &P of &N"}
	if notice != "" {
		hf.OddHeader = "&L" + strings.ReplaceAll(notice, "&", "&&")
	}
	return b.f.SetHeaderFooter(sheet, hf)
}

// pager places page breaks between blocks: a block that would not fit on
// what is left of the page starts a new one, and so does a block after one
// longer than a page, since where such a block ends is where the estimate
// of rows a page holds is least sure.
type pager struct {
	rows    int  // rows a page holds
	used    int  // rows used on the current page
	spilled bool // the last block was longer than a page
}

// place reports whether a block of n rows after the rows used so far must
// start a new page, and counts it.
func (p *pager) place(n int) bool {
	brk := p.used > 0 && (p.spilled || p.used+n > p.rows)
	if brk {
		p.used = 0
	}
	p.used += n
	p.spilled = p.used > p.rows
	if p.spilled {
		p.used %= max(p.rows, 1)
	}
	return brk
}

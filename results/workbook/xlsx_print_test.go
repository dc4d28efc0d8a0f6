package workbook_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"ckptlab/internal/testkit"
	"ckptlab/results"
)

// pdfPages matches the page objects of a PDF (not the /Pages tree).
var pdfPages = regexp.MustCompile(`/Type\s*/Page[^s]`)

func TestLibreOfficePrintsTheLessonInFewPages(t *testing.T) {
	const most = 17 // the what-if sheet prints on one, grid and failures two across
	book := filepath.Join(t.TempDir(), "lesson.xlsx")
	if err := os.WriteFile(book, workbookBytes(t, lessonSet(t), 0), 0o644); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(soffice(t, "pdf", book), "lesson.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	pages := len(pdfPages.FindAll(data, -1))
	sheets := len(openWorkbook(t, workbookBytes(t, lessonSet(t), 0)).GetSheetList())
	if pages > most || pages < sheets {
		t.Errorf("the lesson's workbook prints on %d pages, want at least one per sheet (%d) and at most %d", pages, sheets, most)
	}
}

func TestXLSXPageSetup(t *testing.T) {
	f := openWorkbook(t, workbookBytes(t, lessonSet(t), 0))
	titles := map[string]string{}
	for _, d := range f.GetDefinedName() {
		if d.Name == "_xlnm.Print_Titles" {
			titles[d.Scope] = d.RefersTo
		}
	}
	for _, sheet := range f.GetSheetList() {
		t.Run(sheet, func(t *testing.T) {
			l, err := f.GetPageLayout(sheet)
			if err != nil {
				t.Fatal(err)
			}
			if l.FitToWidth == nil || *l.FitToWidth < 1 || l.FitToHeight == nil || *l.FitToHeight != 0 {
				t.Errorf("page layout %+v, want fit to width", l)
			}
			props, err := f.GetSheetProps(sheet)
			if err != nil {
				t.Fatal(err)
			}
			if props.FitToPage == nil || !*props.FitToPage {
				t.Error("the sheet is not set to fit its pages")
			}
			if l.Orientation == nil || (*l.Orientation == "landscape") != slices.Contains([]string{"what-if", "charts", "grid", "decisions"}, sheet) {
				t.Errorf("orientation %v: want landscape for the wide sheets only", l.Orientation)
			}
			want := map[string]string{
				"grid": "'grid'!$A:$H,'grid'!$1:$1", "failures": "'failures'!$A:$G,'failures'!$1:$1", "matrix": "'matrix'!$1:$4",
				"probability": "'probability'!$1:$4", "experiment": "'experiment'!$1:$1",
			}[sheet]
			if want != "" && titles[sheet] != want {
				t.Errorf("print titles %q, want %q", titles[sheet], want)
			}
		})
	}
}

func TestXLSXIntervalsAreNumbers(t *testing.T) {
	f := openWorkbook(t, workbookBytes(t, lessonSet(t), 0))
	for _, tc := range []struct {
		sheet, cell string
		want        excelize.CellType
	}{
		{"grid", "H2", excelize.CellTypeInlineString}, // none
		{"grid", "H3", excelize.CellTypeUnset},        // 6: a number, excelize's type for n cells
		{"failures", "F2", excelize.CellTypeInlineString},
		{"failures", "F20", excelize.CellTypeUnset},
		{"recovery", "A5", excelize.CellTypeInlineString},
		{"recovery", "A6", excelize.CellTypeUnset},
		{"probability", "H5", excelize.CellTypeUnset}, // best: 4
		{"probability", "H7", excelize.CellTypeInlineString},
	} {
		got, err := f.GetCellType(tc.sheet, tc.cell)
		if err != nil {
			t.Fatal(err)
		}
		if got != tc.want {
			v, _ := f.GetCellValue(tc.sheet, tc.cell)
			t.Errorf("%s!%s (%s) has type %v, want %v", tc.sheet, tc.cell, v, got, tc.want)
		}
	}
}

func TestXLSXBestRowsHighlighted(t *testing.T) {
	f := openWorkbook(t, workbookBytes(t, lessonSet(t), 0))
	formats, err := f.GetConditionalFormats("grid")
	if err != nil {
		t.Fatal(err)
	}
	rules, ok := formats["A2:V25"]
	if !ok || len(rules) != 1 || rules[0].Type != "formula" || rules[0].Criteria != "$T2=TRUE" || rules[0].Format == nil {
		t.Fatalf("grid conditional formats %+v, want one rule over A2:V25 on best", formats)
	}
	st, err := f.GetConditionalStyle(*rules[0].Format)
	if err != nil {
		t.Fatal(err)
	}
	if st.Fill.Pattern != 1 || len(st.Fill.Color) != 1 {
		t.Errorf("the best rows' style %+v has no fill", st)
	}
	if got, _ := f.GetConditionalFormats("failures"); len(got) != 0 {
		t.Errorf("failures, without a best column, has conditional formats %+v", got)
	}
}

// TestXLSXPrintAreaOfLongTables checks that a table sheet past 2,000 rows
// prints only its header and first 2,000 rows, with a note on the sheet
// naming the CSV file that holds the whole table, and that a short one
// has no print area.
func TestXLSXPrintAreaOfLongTables(t *testing.T) {
	data := workbookBytes(t, syntheticSet(t, 2500, 10), 0)
	wb := zipEntry(t, data, "xl/workbook.xml")
	area := regexp.MustCompile(`<definedName localSheetId="(\d+)" name="_xlnm.Print_Area">([^<]*)</definedName>`).FindAllStringSubmatch(wb, -1)
	if len(area) != 1 {
		t.Fatalf("%d print areas, want 1 (grid's): %v", len(area), area)
	}
	if want := "&#39;grid&#39;!$A$1:$" + "V$2001"; area[0][2] != want {
		t.Errorf("grid's print area is %s, want %s", area[0][2], want)
	}
	f, err := excelize.OpenReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	row, err := f.GetRows("grid", excelize.Options{RawCellValue: true})
	if err != nil || len(row) == 0 {
		t.Fatal(err)
	}
	if note := row[0][len(row[0])-1]; !strings.Contains(note, "first 2,000 rows of 2,500") || !strings.Contains(note, "grid.csv") {
		t.Errorf("grid's header row ends %q, want a note naming grid.csv", note)
	}
}

// TestXLSXBlockSheetRepeatsHeader checks that a block sheet of one block,
// the lesson's matrix, repeats the rows down to its column header on every
// printed page, and that the last of those rows is that header.
func TestXLSXBlockSheetRepeatsHeader(t *testing.T) {
	data := workbookBytes(t, lessonSet(t), 0)
	wb := zipEntry(t, data, "xl/workbook.xml")
	m := regexp.MustCompile(`name="_xlnm.Print_Titles">&#39;matrix&#39;!\$A:\$A,&#39;matrix&#39;!\$1:\$(\d+)<|name="_xlnm.Print_Titles">&#39;matrix&#39;!\$1:\$(\d+)<`).FindStringSubmatch(wb)
	if m == nil {
		t.Fatal("matrix has no print titles")
	}
	n := m[1] + m[2]
	if n == "1" {
		t.Fatal("matrix repeats only its title row, not its column header")
	}
	f, err := excelize.OpenReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := f.GetRows("matrix")
	if err != nil {
		t.Fatal(err)
	}
	if len(n) != 1 || len(rows) < int(n[0]-'0') { // one digit: rows 1..n
		t.Fatalf("print titles 1:%s, sheet of %d rows", n, len(rows))
	}
	header := rows[int(n[0]-'0')-1]
	if len(header) < 2 || header[0] != "failure" || header[1] != "none" {
		t.Errorf("row %s of matrix, the last repeated, is %q, want the column header (failure, none, 6, ...)", n, header)
	}
}

// blockSheetSet returns the lesson's set with its matrix view made of
// blocks of the given numbers of rows, each the lesson's matrix header
// over copies of its rows, titled "block 1", "block 2", ….
func blockSheetSet(t *testing.T, sizes ...int) results.Set {
	s := lessonSet(t)
	m := s.Views[1].Blocks[0]
	var blocks []results.Block
	for i, n := range sizes {
		b := results.Block{Title: fmt.Sprintf("block %d", i+1), Columns: m.Columns}
		for j := range n {
			b.Rows = append(b.Rows, m.Rows[j%len(m.Rows)])
		}
		blocks = append(blocks, b)
	}
	s.Views[1].Blocks = blocks
	return s
}

// rowBreaks returns the rows a sheet's manual page breaks come after.
func rowBreaks(t *testing.T, data []byte, sheet int) []int {
	xml := zipEntry(t, data, fmt.Sprintf("xl/worksheets/sheet%d.xml", sheet))
	var rows []int
	for _, m := range regexp.MustCompile(`<brk id="(\d+)"`).FindAllStringSubmatch(xml, -1) {
		n, _ := strconv.Atoi(m[1])
		rows = append(rows, n)
	}
	return rows
}

// TestXLSXBlocksPrintTheirHeaderOnEveryPage checks a sheet of several
// blocks, one of them longer than a page: it repeats only the sheet's
// title row, and every page a manual break starts begins with a block's
// title and the column header, a block too long for a page continued
// under its title and "(continued)", no page longer than a page holds.
func TestXLSXBlocksPrintTheirHeaderOnEveryPage(t *testing.T) {
	data := workbookBytes(t, blockSheetSet(t, 5, 130, 20, 5), 0)
	f := openWorkbook(t, data)
	index, err := f.GetSheetIndex("matrix")
	if err != nil {
		t.Fatal(err)
	}
	wb := zipEntry(t, data, "xl/workbook.xml")
	if !regexp.MustCompile(`name="_xlnm.Print_Titles">[^<]*&#39;matrix&#39;!\$1:\$1<`).MatchString(wb) {
		t.Error("a sheet of several blocks does not repeat its title row alone")
	}
	rows, err := f.GetRows("matrix")
	if err != nil {
		t.Fatal(err)
	}
	breaks := rowBreaks(t, data, index+1)
	if len(breaks) < 3 {
		t.Fatalf("row breaks %v: want the long block broken over pages and the blocks after it moved", breaks)
	}
	prev, continued := 1, 0
	for _, b := range breaks {
		// excelize numbers a break by the row above it.
		title, header := rows[b], rows[b+1]
		if !strings.HasPrefix(title[0], "block ") || len(header) < 2 || header[0] != "failure" || header[1] != "none" {
			t.Errorf("the page after row %d starts %q, %q: want a block's title and the column header", b, title, header)
		}
		if strings.HasSuffix(title[0], " (continued)") {
			continued++
		}
		if b-prev > 50 {
			t.Errorf("a page of rows %d to %d: longer than the layout's page", prev+1, b)
		}
		prev = b
	}
	if continued < 2 {
		t.Errorf("%d pages continue a block, want the 130-row block over three pages at least", continued)
	}
	if len(rows) != 2+(5+2)+1+(130+2)+1+(20+2)+1+(5+2)+2*continued { // title, note row, blocks with a blank row between
		t.Errorf("%d rows on the sheet, want every block's rows, titles and headers", len(rows))
	}
}

// TestLibreOfficePrintsEachBlockHeader prints a sheet of several blocks,
// one longer than a page, through LibreOffice and checks every printed
// page of it for the column header.
func TestLibreOfficePrintsEachBlockHeader(t *testing.T) {
	pdftotext := testkit.RequireSlow(t, "soffice", "pdftotext")[1]
	book := filepath.Join(t.TempDir(), "blocks.xlsx")
	if err := os.WriteFile(book, workbookBytes(t, blockSheetSet(t, 5, 130, 20, 5), 0), 0o644); err != nil {
		t.Fatal(err)
	}
	pdf := filepath.Join(soffice(t, "pdf", book), "blocks.pdf")
	text, err := exec.Command(pdftotext, "-layout", pdf, "-").Output()
	if err != nil {
		t.Fatal(err)
	}
	header := regexp.MustCompile(`(?m)^\s*failure\s+none\s+6\s+4\s+3\s+2\s+1\s*$`)
	pages := 0
	for i, page := range strings.Split(string(text), "\f") {
		if !regexp.MustCompile(`(?m)^\s*matrix\s+page \d+ of \d+\s*$`).MatchString(page) {
			continue
		}
		pages++
		if !header.MatchString(page) {
			t.Errorf("printed page %d, of the matrix sheet, has no column header:\n%s", i+1, page)
		}
	}
	if pages < 4 {
		t.Errorf("the matrix sheet prints on %d pages, want at least 4 (a block of 130 rows among three more)", pages)
	}
}

package results

import (
	"bytes"
	"context"
	"fmt"
	"html"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"
)

// pagedView is a view of n blocks of rows rows each. Of 40 rows, no two
// fit on one printed page and each fits a page, so that laid out for
// print every block after the first starts a page, at a break of its
// own; of more than a page, each is continued over pages. Ragged, its
// rows are a cell short of its header, and it is laid out from its
// blocks rather than their counts.
func pagedView(n, rows int, ragged bool) View {
	cols := []Column{{Name: "interval", Kind: Text}, {Name: "expected total", Kind: Float, Decimals: 1}}
	return View{Name: "paged", Title: "Blocks a page each", Each: func(yield func(Block) bool) {
		for i := range n {
			blk := Block{Title: fmt.Sprintf("state rows %d", i*25), Columns: cols, Marked: [][2]int{{i % rows, 1}}}
			for r := range rows {
				row := []Value{TextValue(strconv.Itoa(r + 1)), FloatValue(float64(i) + 1/float64(r+1))}
				if ragged {
					row = row[:1]
				}
				blk.Rows = append(blk.Rows, row)
			}
			if !yield(blk) {
				return
			}
		}
	}}
}

// viewSheetXML writes a workbook of the view and returns its sheet's XML
// and the workbook.
func viewSheetXML(t *testing.T, v View) (string, []byte) {
	t.Helper()
	set := Set{Name: "breaks", Grid: scaleGrid(3), Failures: hostileTable(), Views: []View{v},
		Config: []Setting{{Key: "name", Value: "breaks"}}, Version: "test"}
	var buf bytes.Buffer
	if err := (xlsxWriter{}).write(context.Background(), &buf, set); err != nil {
		t.Fatal(err)
	}
	f, err := excelize.OpenReader(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	path, err := sheetPath(f, v.Name)
	if err != nil {
		t.Fatal(err)
	}
	parts := zipParts(t, xlsxWriter{}, set)
	xml, ok := parts[path]
	if !ok {
		t.Fatalf("the workbook has no part %s", path)
	}
	return xml, buf.Bytes()
}

var rowBreaksCount = regexp.MustCompile(`<rowBreaks count="(\d+)"`)

// TestPageBreaksAtMostExcelsLimit holds a view sheet to the page breaks
// Excel keeps: a sheet whose blocks need as many as maxPageBreaks keeps
// them, one that needs more is laid out to be read on screen, without
// breaks or blocks continued, and its note says why.
func TestPageBreaksAtMostExcelsLimit(t *testing.T) {
	tests := []struct {
		blocks, rows int
		ragged       bool
		wantBreaks   int
		wantNote     string
	}{
		{maxPageBreaks, 40, false, maxPageBreaks - 1, ""},
		{maxPageBreaks + 1, 40, false, maxPageBreaks, ""},
		{maxPageBreaks + 1, 40, true, maxPageBreaks, ""},
		{maxPageBreaks + 2, 40, false, 0, "This sheet would print on 1,025 pages, more than the 1,024 a sheet's page breaks allow in Excel; it is laid out to be read on screen, and printed pages break where the printer puts them."},
		{maxPageBreaks + 2, 40, true, 0, "This sheet would print on 1,025 pages, more than the 1,024"},
		{3000, 40, false, 0, "This sheet would print on 3,000 pages, more than the 1,024"},
		{400, 200, false, 0, "pages, more than the 1,024 a sheet's page breaks allow in Excel"},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%d blocks of %d rows, ragged %v", tt.blocks, tt.rows, tt.ragged), func(t *testing.T) {
			xml, _ := viewSheetXML(t, pagedView(tt.blocks, tt.rows, tt.ragged))
			if n := strings.Count(xml, "<brk "); n != tt.wantBreaks {
				t.Errorf("%d <brk> in the sheet, want %d", n, tt.wantBreaks)
			}
			m := rowBreaksCount.FindStringSubmatch(xml)
			switch {
			case tt.wantBreaks == 0 && m != nil:
				t.Errorf("the sheet has <rowBreaks count=%q>, want none", m[1])
			case tt.wantBreaks > 0 && (m == nil || m[1] != strconv.Itoa(tt.wantBreaks)):
				t.Errorf("the sheet's rowBreaks are %v, want a count of %d", m, tt.wantBreaks)
			}
			if strings.Contains(xml, "(continued)") {
				t.Error("a block is continued over pages")
			}
			note := strings.Contains(xml, "This sheet would print on")
			if tt.wantNote == "" && note {
				t.Error("the sheet notes it is laid out for the screen; it is laid out for print")
			}
			if tt.wantNote != "" && !strings.Contains(html.UnescapeString(xml), tt.wantNote) {
				t.Errorf("the sheet's note does not say %q", tt.wantNote)
			}
		})
	}
}

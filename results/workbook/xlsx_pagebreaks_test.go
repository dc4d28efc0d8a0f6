package workbook

import (
	"archive/zip"
	"bytes"
	"context"
	"fmt"
	"html"
	"io"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"ckptlab/results"

	"github.com/xuri/excelize/v2"
)

// pagedView is a view of n blocks of rows rows each. Of 40 rows, no two
// fit on one printed page and each fits a page, so that laid out for
// print every block after the first starts a page, at a break of its
// own; of more than a page, each is continued over pages. Ragged, its
// rows are a cell short of its header, and it is laid out from its
// blocks rather than their counts.
func pagedView(n, rows int, ragged bool) results.View {
	cols := []results.Column{{Name: "interval", Kind: results.Text}, {Name: "expected total", Kind: results.Float, Decimals: 1}}
	return results.View{Name: "paged", Title: "Blocks a page each", Each: func(yield func(results.Block) bool) {
		for i := range n {
			blk := results.Block{Title: fmt.Sprintf("state rows %d", i*25), Columns: cols, Marked: [][2]int{{i % rows, 1}}}
			for r := range rows {
				row := []results.Value{results.TextValue(strconv.Itoa(r + 1)), results.FloatValue(float64(i) + 1/float64(r+1))}
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

// screenView is a view of more pages than a sheet's page breaks allow.
func screenView() results.View {
	v := pagedView(maxPageBreaks+2, 40, false)
	v.Name = "screen"
	return v
}

// viewSheetXML writes a workbook of the view and returns its sheet's XML
// and the workbook.
func viewSheetXML(t *testing.T, v results.View) (string, []byte) {
	t.Helper()
	return sheetXML(t, results.Set{Name: "breaks", Grid: scaleGrid(3), Failures: hostileTable(), Views: []results.View{v},
		Config: []results.Setting{{Key: "name", Value: "breaks"}}, Version: "test"}, v.Name)
}

// sheetXML writes a workbook of the set and returns the XML of its sheet
// of that name, and the workbook.
func sheetXML(t *testing.T, set results.Set, name string) (string, []byte) {
	t.Helper()
	var buf bytes.Buffer
	if err := (xlsxWriter{}).write(context.Background(), &buf, set); err != nil {
		t.Fatal(err)
	}
	f, err := excelize.OpenReader(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	path, err := sheetPath(f, name)
	if err != nil {
		t.Fatal(err)
	}
	zr, err := zip.NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	rc, err := zr.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	xml, err := io.ReadAll(rc)
	if err != nil {
		t.Fatal(err)
	}
	return string(xml), buf.Bytes()
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

// TestChartPageBreaksAtMostExcelsLimit holds the charts sheet to the page
// breaks Excel keeps: charts of a page each keep a break apiece up to
// maxPageBreaks, and more of them are printed without breaks.
func TestChartPageBreaksAtMostExcelsLimit(t *testing.T) {
	chart := func(i int) results.Chart {
		c := results.Chart{Data: results.Block{Title: fmt.Sprintf("saw-tooth %d", i), Columns: []results.Column{{Name: "failure period", Kind: results.Text},
			{Name: "interval 6", Kind: results.Int}}}}
		for p := 1; p <= 40; p++ {
			c.Data.Rows = append(c.Data.Rows, []results.Value{results.TextValue("p" + strconv.Itoa(p)), results.IntValue(int64(p % 6))})
		}
		return c
	}
	for _, tt := range []struct{ charts, wantBreaks int }{
		{3, 2},
		{maxPageBreaks + 1, maxPageBreaks},
		{maxPageBreaks + 2, 0},
	} {
		var charts []results.Chart
		for i := range tt.charts {
			charts = append(charts, chart(i))
		}
		set := results.Set{Name: "charts", Grid: scaleGrid(3), Failures: hostileTable(), Charts: charts,
			Config: []results.Setting{{Key: "name", Value: "charts"}}, Version: "test"}
		xml, _ := sheetXML(t, set, "charts")
		if n := strings.Count(xml, "<brk "); n != tt.wantBreaks {
			t.Errorf("%d charts: %d <brk> on the charts sheet, want %d", tt.charts, n, tt.wantBreaks)
		}
	}
}

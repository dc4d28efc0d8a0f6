package results

import (
	"fmt"
	"strconv"
	"unicode/utf8"

	"github.com/xuri/excelize/v2"
)

// Limits of the probability sheet's charts: a chart holds at most 255
// series, and past a score of blocks more charts only slow a workbook down.
const (
	maxChartSeries = 255
	maxCharts      = 20
	// chartRows is the height of a chart in rows of the default height.
	chartRows   = 16
	chartWidth  = 640
	chartHeight = 16 * 20
)

// writeView writes one of the lesson's views on a sheet of its name: the
// view's title, then per block a bold title row, the header row and the
// rows, with a blank row between blocks. The probability view also gets a
// chart per block of expected total against interval.
func (b *workbook) writeView(v View) error {
	if err := b.ctx.Err(); err != nil {
		return err
	}
	if err := b.newSheet(v.Name); err != nil {
		return err
	}
	vs := viewSheet{b: b, name: v.Name}
	if err := vs.title(1, v.Title, titleStyle); err != nil {
		return err
	}
	row := 3
	var starts []int
	for _, blk := range v.Blocks {
		starts = append(starts, row)
		next, err := vs.block(row, blk)
		if err != nil {
			return fmt.Errorf("sheet %s: %w", v.Name, err)
		}
		row = next + 1
	}
	if err := vs.setWidths(v.Blocks); err != nil {
		return err
	}
	if v.Name == "probability" {
		return vs.charts(v.Blocks, starts)
	}
	return nil
}

// viewSheet is a sheet a view is being written to.
type viewSheet struct {
	b    *workbook
	name string
}

// title writes a one-cell title row.
func (vs viewSheet) title(row int, text string, role styleRole) error {
	cell := cellName(1, row)
	if err := vs.b.f.SetCellStr(vs.name, cell, text); err != nil {
		return err
	}
	id, err := vs.b.style(role, -1)
	if err != nil {
		return err
	}
	return vs.b.f.SetCellStyle(vs.name, cell, cell, id)
}

// block writes a block from row top on and returns the row after it.
func (vs viewSheet) block(top int, blk Block) (int, error) {
	f, b := vs.b.f, vs.b
	if err := vs.title(top, blk.Title, blockStyle); err != nil {
		return 0, err
	}
	header := make([]any, len(blk.Columns))
	for i, c := range blk.Columns {
		header[i] = c.Name
	}
	if err := f.SetSheetRow(vs.name, cellName(1, top+1), &header); err != nil {
		return 0, err
	}
	if len(blk.Columns) > 0 {
		id, err := b.style(headerStyle, -1)
		if err != nil {
			return 0, err
		}
		if err := f.SetCellStyle(vs.name, cellName(1, top+1), cellName(len(blk.Columns), top+1), id); err != nil {
			return 0, err
		}
	}
	first := top + 2
	cells := make([]any, len(blk.Columns))
	for i, r := range blk.Rows {
		for j, v := range r {
			cells[j] = cellValue(v)
		}
		if err := f.SetSheetRow(vs.name, cellName(1, first+i), &cells); err != nil {
			return 0, err
		}
	}
	last := first + len(blk.Rows) - 1
	if len(blk.Rows) > 0 {
		for j, c := range blk.Columns {
			d := decimals(c)
			if d < 0 {
				continue
			}
			id, err := b.style(plainStyle, d)
			if err != nil {
				return 0, err
			}
			if err := f.SetCellStyle(vs.name, cellName(j+1, first), cellName(j+1, last), id); err != nil {
				return 0, err
			}
		}
	}
	for _, m := range blk.Marked {
		r, c := m[0], m[1]
		if r < 0 || r >= len(blk.Rows) || c < 0 || c >= len(blk.Columns) {
			return 0, fmt.Errorf("block %q marks cell (%d, %d), outside its %d×%d cells", blk.Title, r, c, len(blk.Rows), len(blk.Columns))
		}
		id, err := b.style(markedStyle, decimals(blk.Columns[c]))
		if err != nil {
			return 0, err
		}
		cell := cellName(c+1, first+r)
		if err := f.SetCellStyle(vs.name, cell, cell, id); err != nil {
			return 0, err
		}
	}
	return last + 1, nil
}

// setWidths sizes each column to its widest header or value over the
// blocks, within bounds. Titles are left out: they run on over the empty
// cells to their right.
func (vs viewSheet) setWidths(blocks []Block) error {
	var widths []int
	grow := func(i, n int) {
		for len(widths) <= i {
			widths = append(widths, 0)
		}
		widths[i] = max(widths[i], n)
	}
	var buf []byte
	for _, blk := range blocks {
		for i, c := range blk.Columns {
			grow(i, utf8.RuneCountInString(c.Name))
		}
		for _, r := range blk.Rows {
			for i, v := range r {
				buf = appendShown(buf[:0], v, blk.Columns[i])
				grow(i, utf8.RuneCount(buf))
			}
		}
	}
	for i, w := range widths {
		col := columnName(i + 1)
		if err := vs.b.f.SetColWidth(vs.name, col, col, float64(min(max(w+2, 8), 40))); err != nil {
			return err
		}
	}
	return nil
}

// charts adds to the probability sheet, right of its blocks, a line chart
// per block of expected total against interval, a line per probability.
// Each block's chart is placed level with it, or below the previous chart.
func (vs viewSheet) charts(blocks []Block, starts []int) error {
	width := 0
	for _, blk := range blocks {
		width = max(width, len(blk.Columns))
	}
	col := columnName(width + 2)
	next := 1
	for i, blk := range blocks {
		at := max(starts[i], next)
		anchor := col + strconv.Itoa(at)
		if i == maxCharts {
			return vs.b.f.SetCellStr(vs.name, anchor, fmt.Sprintf(
				"Charts are drawn for the first %d blocks only.", maxCharts))
		}
		chart, note := vs.chart(blk, starts[i])
		if note != "" {
			if err := vs.b.f.SetCellStr(vs.name, anchor, note); err != nil {
				return err
			}
			next = at + 2
			continue
		}
		if chart == nil {
			continue
		}
		if err := vs.b.f.AddChart(vs.name, anchor, chart); err != nil {
			return fmt.Errorf("sheet %s: chart of %q: %w", vs.name, blk.Title, err)
		}
		next = at + chartRows + 1
	}
	return nil
}

// chart returns the chart of a probability block written from row top on:
// categories are the header cells of its Float columns after the first
// (the intervals), and each row is a series named by its first cell (the
// probability). A block the chart cannot show gets a note instead.
func (vs viewSheet) chart(blk Block, top int) (*excelize.Chart, string) {
	var cols []int
	for i, c := range blk.Columns {
		if i > 0 && c.Kind == Float {
			cols = append(cols, i+1)
		}
	}
	if len(cols) == 0 || len(blk.Rows) == 0 {
		return nil, ""
	}
	if len(blk.Rows) > maxChartSeries {
		return nil, fmt.Sprintf("No chart: %d probabilities are more lines than a chart holds (%d).",
			len(blk.Rows), maxChartSeries)
	}
	ref := func(col, row int) string {
		return fmt.Sprintf("'%s'!$%s$%d", vs.name, columnName(col), row)
	}
	span := func(row int) string {
		return ref(cols[0], row) + ":" + fmt.Sprintf("$%s$%d", columnName(cols[len(cols)-1]), row)
	}
	header := top + 1
	chart := &excelize.Chart{
		Type:      excelize.Line,
		Dimension: excelize.ChartDimension{Width: chartWidth, Height: chartHeight},
		Title:     excelize.ChartTitle{Paragraph: []excelize.RichTextRun{{Text: "Expected total against interval, a line per failure probability"}}},
		Legend:    excelize.ChartLegend{Position: "right"},
		XAxis:     excelize.ChartAxis{Title: excelize.ChartTitle{Paragraph: []excelize.RichTextRun{{Text: "interval"}}}},
		YAxis: excelize.ChartAxis{
			MajorGridLines: true,
			Title:          excelize.ChartTitle{Paragraph: []excelize.RichTextRun{{Text: "expected total (rows)"}}},
		},
	}
	for i := range blk.Rows {
		row := header + 1 + i
		chart.Series = append(chart.Series, excelize.ChartSeries{
			Name:       ref(1, row),
			Categories: span(header),
			Values:     span(row),
			Marker:     excelize.ChartMarker{Symbol: "circle", Size: 5},
		})
	}
	return chart, ""
}

// appendShown appends a value as a sheet shows it in its column.
func appendShown(dst []byte, v Value, c Column) []byte {
	if v.Kind == Float && c.Decimals >= 0 {
		return strconv.AppendFloat(dst, v.Float, 'f', c.Decimals, 64)
	}
	return v.AppendText(dst)
}

// cellName returns the name of the cell in column col and row row, both
// from 1.
func cellName(col, row int) string {
	name, _ := excelize.CoordinatesToCellName(col, row)
	return name
}

// columnName returns the letters of column col, from 1.
func columnName(col int) string {
	name, _ := excelize.ColumnNumberToName(col)
	return name
}

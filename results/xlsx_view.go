package results

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
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

// writeView writes one of the lesson's views on a sheet of its name, with
// excelize's stream writer, since a view grows with the axes it shows (a
// probability sweep of 10,001 values gives 10,001 rows): the view's title,
// then per block a bold title row, the header row and the rows, with a
// blank row between blocks. The probability view also gets a chart per
// block of expected total against interval.
func (b *workbook) writeView(v View) error {
	if err := b.ctx.Err(); err != nil {
		return err
	}
	if err := b.newSheet(v.Name); err != nil {
		return err
	}
	sw, err := b.f.NewStreamWriter(v.Name)
	if err != nil {
		return err
	}
	vs := viewSheet{b: b, name: v.Name, sw: sw}
	blocks, starts, note := fitBlocks(v.Blocks, b.sheetRows+1)
	if err := vs.setWidths(blocks); err != nil {
		return err
	}
	var charts []anchoredChart
	if v.Name == "probability" {
		var chartNote string
		charts, chartNote = vs.planCharts(blocks, starts)
		note = strings.TrimSpace(note + " " + chartNote)
	}
	if err := vs.title(1, v.Title, titleStyle); err != nil {
		return err
	}
	if note != "" {
		if err := sw.SetRow("A2", []any{note}); err != nil {
			return err
		}
	}
	for i, blk := range blocks {
		if err := vs.block(starts[i], blk); err != nil {
			return fmt.Errorf("sheet %s: %w", v.Name, err)
		}
	}
	for _, c := range charts {
		if err := b.f.AddChart(v.Name, c.cell, c.chart); err != nil {
			return fmt.Errorf("sheet %s: chart at %s: %w", v.Name, c.cell, err)
		}
	}
	if err := sw.Flush(); err != nil {
		return fmt.Errorf("sheet %s: %w", v.Name, err)
	}
	return nil
}

// fitBlocks lays blocks out from row 3 on, below the sheet's title and a
// row for a note, and cuts them to end by row last, the last row a sheet
// has. It returns the blocks that fit, cut where needed, the rows they
// start on, and a note on the rows left out, or "". A view outgrows a sheet
// only with a sweep of more than a million values; the grid sheets still
// hold every figure.
func fitBlocks(blocks []Block, last int) ([]Block, []int, string) {
	var fitted []Block
	var starts []int
	row, total, kept := 3, 0, 0
	for _, blk := range blocks {
		total += len(blk.Rows)
		room := last - (row + 1) // rows below the block's title and header
		if room <= 0 {
			continue
		}
		if len(blk.Rows) > room {
			blk.Rows = blk.Rows[:room]
			var marked [][2]int
			for _, m := range blk.Marked {
				if m[0] < room {
					marked = append(marked, m)
				}
			}
			blk.Marked = marked
		}
		kept += len(blk.Rows)
		fitted = append(fitted, blk)
		starts = append(starts, row)
		row += 2 + len(blk.Rows) + 1
	}
	if kept == total {
		return fitted, starts, ""
	}
	return fitted, starts, fmt.Sprintf("Only %d of this view's %d rows fit on a sheet; the grid sheets hold every figure.", kept, total)
}

// viewSheet is a sheet a view is being written to.
type viewSheet struct {
	b    *workbook
	name string
	sw   *excelize.StreamWriter
}

// title writes a one-cell title row.
func (vs viewSheet) title(row int, text string, role styleRole) error {
	id, err := vs.b.style(role, -1)
	if err != nil {
		return err
	}
	return vs.sw.SetRow(cellName(1, row), []any{excelize.Cell{StyleID: id, Value: text}})
}

// block writes a block from row top on.
func (vs viewSheet) block(top int, blk Block) error {
	b := vs.b
	if err := vs.title(top, blk.Title, blockStyle); err != nil {
		return err
	}
	headerID, err := b.style(headerStyle, -1)
	if err != nil {
		return err
	}
	header := make([]any, len(blk.Columns))
	for i, c := range blk.Columns {
		header[i] = excelize.Cell{StyleID: headerID, Value: c.Name}
	}
	if err := vs.sw.SetRow(cellName(1, top+1), header); err != nil {
		return err
	}
	styles := make([]int, len(blk.Columns))
	for j, c := range blk.Columns {
		if styles[j], err = b.style(plainStyle, decimals(c)); err != nil {
			return err
		}
	}
	marked := make(map[[2]int]int, len(blk.Marked))
	for _, m := range blk.Marked {
		r, c := m[0], m[1]
		if r < 0 || r >= len(blk.Rows) || c < 0 || c >= len(blk.Columns) {
			return fmt.Errorf("block %q marks cell (%d, %d), outside its %d×%d cells", blk.Title, r, c, len(blk.Rows), len(blk.Columns))
		}
		if marked[m], err = b.style(markedStyle, decimals(blk.Columns[c])); err != nil {
			return err
		}
	}
	first := top + 2
	for i, r := range blk.Rows {
		if i%ctxCheckRows == 0 {
			if err := b.ctx.Err(); err != nil {
				return err
			}
		}
		cells := make([]any, len(r))
		for j, v := range r {
			id := styles[j]
			if m, ok := marked[[2]int{i, j}]; ok {
				id = m
			}
			cells[j] = excelize.Cell{StyleID: id, Value: cellValue(v)}
		}
		if err := vs.sw.SetRow(cellName(1, first+i), cells); err != nil {
			return err
		}
	}
	return nil
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
	// As for the tables: from the last column, for <cols> in ascending order.
	for i, w := range slices.Backward(widths) {
		if err := vs.sw.SetColWidth(i+1, i+1, float64(min(max(w+2, 8), 40))); err != nil {
			return err
		}
	}
	return nil
}

// anchoredChart is a chart and the cell its top left corner is in.
type anchoredChart struct {
	cell  string
	chart *excelize.Chart
}

// planCharts returns the probability sheet's charts, right of its blocks: a
// line chart per block of expected total against interval, a line per
// probability, level with its block or below the previous chart. It also
// returns a note on the blocks it could not chart, or "".
func (vs viewSheet) planCharts(blocks []Block, starts []int) ([]anchoredChart, string) {
	width := 0
	for _, blk := range blocks {
		width = max(width, len(blk.Columns))
	}
	col := columnName(width + 2)
	next := 1
	var charts []anchoredChart
	var tooLong []string
	for i, blk := range blocks {
		if len(blk.Rows) > maxChartSeries {
			tooLong = append(tooLong, strconv.Itoa(i+1))
			continue
		}
		if len(charts) == maxCharts {
			break
		}
		if chart := vs.chart(blk, starts[i]); chart != nil {
			at := max(starts[i], next)
			charts = append(charts, anchoredChart{col + strconv.Itoa(at), chart})
			next = at + chartRows + 1
		}
	}
	var notes []string
	if len(tooLong) > 0 {
		notes = append(notes, fmt.Sprintf("No chart for %s %s: more probabilities than the %d lines a chart holds.",
			plural(len(tooLong), "block", "blocks"), strings.Join(tooLong, ", "), maxChartSeries))
	}
	if len(charts) == maxCharts && len(blocks)-len(tooLong) > maxCharts {
		notes = append(notes, fmt.Sprintf("Charts are drawn for the first %d blocks only.", maxCharts))
	}
	return charts, strings.Join(notes, " ")
}

// chart returns the chart of a probability block written from row top on:
// categories are the header cells of its Float columns after the first
// (the intervals), and each row is a series named by its first cell (the
// probability). A block with no such column or no row gets none.
func (vs viewSheet) chart(blk Block, top int) *excelize.Chart {
	var cols []int
	for i, c := range blk.Columns {
		if i > 0 && c.Kind == Float {
			cols = append(cols, i+1)
		}
	}
	if len(cols) == 0 || len(blk.Rows) == 0 {
		return nil
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
	return chart
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

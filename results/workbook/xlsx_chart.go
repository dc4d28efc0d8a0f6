package workbook

import (
	"fmt"
	"math"
	"strings"
	"unicode/utf8"

	"ckptlab/results"

	"github.com/xuri/excelize/v2"
)

// envelopeWidth is the width in points of the lower envelope of an
// expected-total chart.
const envelopeWidth = 2

// mutedWidth and emphasisWidth are a line's width in points: a muted
// interval's, and the recommended interval's.
const (
	mutedWidth    = 1.25
	emphasisWidth = 3.5
)

// The size of a chart on the charts sheet, in pixels, and the rows kept
// free for it: the rows of the default height (20 pixels) it covers, and
// one more for the part of a row excelize's anchor reaches into.
const (
	chartWidth  = 600
	chartHeight = 340
	chartRows   = chartHeight/20 + 1
	// chartGap is the width, in characters, of the empty column between a
	// chart's figures and the chart.
	chartGap = 3
	// chartColumns is the number of columns of the default width (64
	// pixels) a chart covers.
	chartColumns = (chartWidth + 63) / 64
)

// writeCharts writes the charts sheet: per chart a bold title, a note on
// what it shows, the table of its figures, and the chart beside the
// table. Printed, a chart and its table are never split over two pages
// unless the table alone is longer than a page.
func (b *workbook) writeCharts(charts []results.Chart) error {
	return b.writeChartSheet("charts", charts)
}

// writeChartSheet writes a sheet of charts, as writeCharts does the
// charts sheet.
func (b *workbook) writeChartSheet(sheet string, charts []results.Chart) error {
	if len(charts) == 0 {
		return nil
	}
	if err := b.newSheet(sheet); err != nil {
		return err
	}
	var data []results.Block
	cols := 0
	for _, c := range charts {
		data = append(data, c.Data, c.Answers)
		if len(c.Marks) > 0 {
			data = append(data, marksBlock(c))
		}
		cols = max(cols, len(c.Data.Columns))
	}
	widths := widthsOf(data)
	widths = append(widths, chartGap)
	var width float64
	for _, w := range widths {
		width += columnPoints(w)
	}
	width += chartWidth * pixelPoints
	layout := layOut(width, 0, 0)
	if err := b.setUpPrint(sheet, layout, 0, 0); err != nil {
		return err
	}
	sw, err := b.f.NewStreamWriter(sheet)
	if err != nil {
		return err
	}
	vs := viewSheet{b: b, name: sheet, sw: sw}
	if err := vs.setWidths(widths); err != nil {
		return err
	}
	// The note runs over the figures and the chart: as many characters as
	// their width holds per line.
	noteChars := width / columnPoints(1) * 1.1
	wrap, err := b.style(wrapStyle, results.General)
	if err != nil {
		return err
	}
	cs := chartsSheet{vs: vs, wrap: wrap, noteChars: noteChars, chartCol: columnName(cols + 2), noteEnd: columnName(cols + 1 + chartColumns),
		pages: pager{rows: layout.rows}, row: 1, breaks: len(charts)-1 <= maxPageBreaks}
	for i, c := range charts {
		if err := cs.add(c, i == 0); err != nil {
			return err
		}
	}
	for _, c := range cs.anchored {
		if err := b.f.AddChart(sheet, c.cell, c.chart); err != nil {
			return fmt.Errorf("sheet %s: chart at %s: %w", sheet, c.cell, err)
		}
		b.charts = append(b.charts, c.cache)
	}
	return sw.Flush()
}

// chartsSheet is the charts sheet as it is written, chart by chart.
type chartsSheet struct {
	vs        viewSheet
	wrap      int     // the style of a note
	noteChars float64 // the characters a line of a note holds
	chartCol  string  // the column charts are anchored in
	noteEnd   string  // the last column a note spans: the chart's right edge
	pages     pager
	// breaks is whether a chart that does not fit the rest of a page
	// starts the next at a page break: at most one break a chart after
	// the first, so a sheet of more charts than maxPageBreaks holds
	// breaks is printed without them. The runner draws a few charts of
	// each kind (runner/charts.go), far fewer.
	breaks   bool
	row      int // the next row free
	anchored []anchoredChart
}

// add writes a chart's title, its note (with where the y axis stops and
// what the marks are), its answers, the table of its figures and, under
// it, the table of its marks; the chart is anchored beside the figures, on
// a new page where they do not fit on this one.
func (cs *chartsSheet) add(c results.Chart, first bool) error {
	vs, sw := cs.vs, cs.vs.sw
	if _, note, ok := results.YAxis(c); ok {
		c.Note = strings.TrimSpace(c.Note + " " + note)
	}
	if len(c.Marks) > 0 {
		c.Note = strings.TrimSpace(c.Note + " " + c.MarksNote)
	}
	lines := 0
	if c.Note != "" {
		lines = int(math.Ceil(float64(len(c.Note)) / cs.noteChars))
	}
	tableRows := len(c.Data.Rows) + 1
	marksTop := 0 // the header row of the table of marks
	if len(c.Marks) > 0 {
		marksTop = tableRows + 1
		tableRows += 1 + len(c.Marks) + 1
	}
	answerRows := 0
	if len(c.Answers.Rows) > 0 {
		answerRows = len(c.Answers.Rows) + 2
	}
	height := 1 + lines + answerRows + max(tableRows, chartRows) + 1
	if cs.pages.place(height) && !first && cs.breaks {
		if err := sw.InsertPageBreak(cellName(1, cs.row)); err != nil {
			return err
		}
	}
	if err := vs.title(cs.row, c.Data.Title, blockStyle); err != nil {
		return err
	}
	cs.row++
	if c.Note != "" {
		if err := sw.SetRow(cellName(1, cs.row), []any{excelize.Cell{StyleID: cs.wrap, Value: c.Note}},
			excelize.RowOpts{Height: rowHeight(lines)}); err != nil {
			return err
		}
		if err := sw.MergeCell(cellName(1, cs.row), cs.noteEnd+fmt.Sprint(cs.row)); err != nil {
			return err
		}
		cs.row++
	}
	if answerRows > 0 {
		if err := vs.table(cs.row, c.Answers); err != nil {
			return fmt.Errorf("sheet %s: %w", vs.name, err)
		}
		cs.row += answerRows
	}
	blk := c.Data
	blk.Title = ""
	if err := vs.table(cs.row, blk); err != nil {
		return fmt.Errorf("sheet %s: %w", vs.name, err)
	}
	if marksTop > 0 {
		marksTop += cs.row
		if err := vs.table(marksTop, marksBlock(c)); err != nil {
			return fmt.Errorf("sheet %s: %w", vs.name, err)
		}
	}
	cs.anchored = append(cs.anchored, anchoredChart{cs.chartCol + fmt.Sprint(cs.row), chartOf(vs.name, c, cs.row, marksTop), cacheOf(c)})
	cs.row += max(tableRows, chartRows) + 1
	return nil
}

// anchoredChart is a chart and the cell its top left corner is in.
type anchoredChart struct {
	cell  string
	chart *excelize.Chart
	cache chartCache
}

// cacheOf returns what a chart plots, for its part's caches: x values when
// they are numbers, a series per column after the first, and the marks.
func cacheOf(c results.Chart) chartCache {
	var cc chartCache
	cc.logX = logWorkers(c)
	if c.Numeric() {
		for _, r := range c.Data.Rows {
			cc.xs = append(cc.xs, results.YValue(r[0]))
		}
	}
	for j := 1; j < len(c.Data.Columns); j++ {
		ys := make([]float64, len(c.Data.Rows))
		for i, r := range c.Data.Rows {
			ys[i] = results.YValue(r[j])
		}
		cc.ys = append(cc.ys, ys)
	}
	if len(c.Marks) > 0 && c.Numeric() {
		lo, hi, _ := xRange(c.Data)
		var ys []float64
		for _, m := range c.Marks {
			at := "t"
			switch t := (m.X - lo) / (hi - lo); {
			case t < 0.25:
				at = "r"
			case t > 0.75:
				at = "l"
			}
			cc.marks.xs = append(cc.marks.xs, m.X)
			cc.marks.labels = append(cc.marks.labels, m.Label())
			cc.marks.at = append(cc.marks.at, at)
			ys = append(ys, m.Y)
		}
		cc.ys = append(cc.ys, ys)
	}
	return cc
}

// marksBlock returns the table of a chart's marks, written under its
// figures: the x and y of each (the y titled as the chart's lines are
// numbers) and its label.
func marksBlock(c results.Chart) results.Block {
	y := results.Column{Name: c.YTitle, Kind: results.Float, Decimals: 1}
	if len(c.Data.Columns) > 1 {
		y.Kind, y.Decimals, y.Quantity = c.Data.Columns[1].Kind, c.Data.Columns[1].Decimals, c.Data.Columns[1].Quantity
	}
	if y.Kind == results.Int {
		y.Kind, y.Decimals = results.Float, 1 // a crossing may fall between whole rows
	}
	blk := results.Block{Columns: []results.Column{c.Data.Columns[0], y, {Name: c.MarksName, Kind: results.Text}}}
	for _, m := range c.Marks {
		blk.Rows = append(blk.Rows, []results.Value{results.FloatValue(m.X), results.FloatValue(m.Y), results.TextValue(m.Label())})
	}
	return blk
}

// chartOf returns the chart of c, whose table has its header on row top
// of the sheet: a scatter chart when the x values are numbers (so that
// they are spaced as numbers), a line chart over categories otherwise; a
// line per column after the first, named by its header; titled axes and
// labels in black.
func chartOf(sheet string, c results.Chart, top, marksTop int) *excelize.Chart {
	n := len(c.Data.Rows)
	column := func(col int) string {
		name := columnName(col)
		return fmt.Sprintf("'%s'!$%s$%d:$%s$%d", sheet, name, top+1, name, top+n)
	}
	text := func(s string, size float64, bold bool) excelize.ChartTitle {
		return excelize.ChartTitle{Paragraph: []excelize.RichTextRun{{
			Text: s, Font: &excelize.Font{Color: "000000", Size: size, Bold: bold},
		}}}
	}
	label := excelize.Font{Color: "000000", Size: 9}
	title, _, _ := strings.Cut(c.Data.Title, ": ")
	chart := &excelize.Chart{
		Type:      excelize.Line,
		Dimension: excelize.ChartDimension{Width: chartWidth, Height: chartHeight},
		Title:     text(title, 11, true),
		Legend:    excelize.ChartLegend{Position: "right", Font: &label},
		XAxis:     excelize.ChartAxis{Title: text(c.Data.Columns[0].Name, 9, false), Font: label},
		YAxis: excelize.ChartAxis{Title: text(c.YTitle, 9, false), Font: label, MajorGridLines: true,
			NumFmt: excelize.ChartNumFmt{CustomNumFmt: "#,##0"}}, // rows, thousands separated
	}
	if c.Numeric() {
		chart.Type = excelize.Scatter
		if lo, hi, ok := xRange(c.Data); ok {
			chart.XAxis.Minimum, chart.XAxis.Maximum = &lo, &hi
		}
	}
	if top, _, ok := results.YAxis(c); ok {
		zero := 0.0
		chart.YAxis.Maximum, chart.YAxis.Minimum = &top, &zero
	}
	if c.LogY {
		chart.YAxis.LogBase = 10
	}
	if len(c.Data.Columns) > 1 && c.Data.Columns[1].Quantity == results.Share {
		chart.YAxis.NumFmt.CustomNumFmt = "0%"
	}
	if !c.Numeric() {
		if n > maxXLabels {
			chart.XAxis.TickLabelSkip = (n + maxXLabels - 1) / maxXLabels
		}
		// Labels that do not fit side by side are turned, so that
		// LibreOffice does not break each into a column of characters
		// (it ignores the skip when it breaks them), and it and Excel leave
		// out those that would still overlap.
		if shown := min(n, maxXLabels); shown*maxLabelChars(c.Data) > xLabelChars {
			chart.XAxis.Alignment.TextRotation = -45
		}
	}
	for j := 1; j < len(c.Data.Columns); j++ {
		name := c.Data.Columns[j].Name
		line := excelize.LineOptions{Type: excelize.LineSolid, Width: mutedWidth}
		marker := excelize.ChartMarker{Symbol: results.IntervalMarker(name), Size: 3}
		if colour, dash, ok := results.IntervalStyle(name); ok {
			fill := excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{colour}}
			line.Fill, marker.Fill = fill, fill
			marker.Border = excelize.LineOptions{Type: excelize.LineSolid, Fill: fill}
			line.Dash = [...]excelize.LineDashType{excelize.LineDashSolid, excelize.LineDashDash, excelize.LineDashSysDot}[dash]
		}
		if c.IsRecommended(name) {
			line.Width, marker.Size = emphasisWidth, 6
		}
		if name == c.Envelope {
			fill := excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{results.EnvelopeColour}}
			line.Fill, marker.Fill = fill, fill
			line.Dash, line.Width = excelize.LineDashDash, envelopeWidth
			marker = excelize.ChartMarker{Symbol: "none"}
		}
		chart.Series = append(chart.Series, excelize.ChartSeries{
			Name:       fmt.Sprintf("'%s'!$%s$%d", sheet, columnName(j+1), top),
			Categories: column(1),
			Values:     column(j + 1),
			Fill:       line.Fill, // excelize colours a line by its series' fill
			Marker:     marker,
			Line:       line,
		})
	}
	if marksTop > 0 && c.Numeric() {
		chart.Series = append(chart.Series, marksSeries(sheet, marksTop, len(c.Marks)))
	}
	return chart
}

// marksSeries returns the series of a chart's marks, whose table has its
// header on row top: points without a line, dark diamonds, each labelled
// in the chart's part (labelMarks).
func marksSeries(sheet string, top, n int) excelize.ChartSeries {
	column := func(col string) string {
		return fmt.Sprintf("'%s'!$%s$%d:$%s$%d", sheet, col, top+1, col, top+n)
	}
	fill := excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{results.MarksColour}}
	return excelize.ChartSeries{
		Name:       fmt.Sprintf("'%s'!$C$%d", sheet, top),
		Categories: column("A"),
		Values:     column("B"),
		Fill:       fill,
		Line:       excelize.LineOptions{Type: excelize.LineNone},
		Marker:     excelize.ChartMarker{Symbol: "diamond", Size: 9, Fill: fill},
	}
}

// maxXLabels is the most labels a chart's category axis shows; past it,
// labels are skipped evenly so that they do not overlap.
const maxXLabels = 16

// xLabelChars is about how many characters of 9-point labels fit side by
// side under a chart's plot area.
const xLabelChars = 60

// maxLabelChars returns the length of the longest x label of a chart's
// figures.
func maxLabelChars(b results.Block) int {
	n := 0
	for _, r := range b.Rows {
		n = max(n, utf8.RuneCountInString(r[0].String()))
	}
	return n
}

// logWorkers reports whether a chart's x axis is spaced by doubling: a
// sweep to more than 16 workers, whose small counts would crowd the left
// edge of an even axis.
func logWorkers(c results.Chart) bool {
	lo, hi, ok := xRange(c.Data)
	return ok && c.Numeric() && c.Data.Columns[0].Name == "workers" && hi > 16 && lo > 0
}

// xRange returns the least and greatest x value of a chart's figures, so
// that a numeric axis spans exactly them.
func xRange(b results.Block) (lo, hi float64, ok bool) {
	for i, r := range b.Rows {
		x := r[0].Float
		if r[0].Kind == results.Int {
			x = float64(r[0].Int)
		}
		if i == 0 || x < lo {
			lo = x
		}
		if i == 0 || x > hi {
			hi = x
		}
	}
	return lo, hi, len(b.Rows) > 1 && lo < hi
}

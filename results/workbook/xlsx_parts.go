package workbook

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// The parts of the package excelize writes wrong, and ckptlab rewrites as
// it copies the archive (normalizeZip):
//
//   - every worksheet declares <dimension ref="A1">, whatever it holds;
//     the dimension is the range of its cells (packed sheets get theirs
//     from their table's size, in packTable);
//   - every scatter chart's x values are a string reference with no cache
//     (excelize v2.11.1, drawChartSeriesXVal), which Excel removes from the
//     file when it repairs it on open: they become a number reference with
//     its cache, and every series' values get their cache filled;
//   - docProps/core.xml carries created and modified dates of 2006-09-16,
//     which no one wrote the workbook on: they are left out (the same
//     workbook gives the same bytes, so it records no date at all).

// chartCache is what one chart plots, series by series, for the caches of
// its part: xs nil for categories.
type chartCache struct {
	xs []float64
	ys [][]float64
	// points, when set, are the fill colours (RGB hex) of the first
	// series' data points, one a point: a column chart of one series
	// whose columns are intervals colours each by its interval, which
	// excelize writes for pie charts only.
	points []string
	// logX, when set, spaces a scatter chart's x axis by doubling, which
	// excelize writes for the y axis only.
	logX bool
	// marks, when set, are the x values and labels of the last series,
	// the chart's marks: points of their own x values, each labelled.
	marks struct {
		xs     []float64
		labels []string
		// at are the labels' positions: "r", "t" or "l" of the point, so
		// that a label near either end stays inside the plot area.
		at []string
	}
}

// chartPart names the part of the i-th chart added to the workbook, from 0.
func chartPart(i int) string { return "xl/charts/chart" + strconv.Itoa(i+1) + ".xml" }

// partRewriter returns, for a part of the package, the function that
// rewrites it, or nil to copy it as it is.
type partRewriter struct {
	charts map[string]chartCache
	packed map[string]*packedSheet
	// buf is scratch for copying, copyBuffer bytes, free again when a
	// rewrite returns.
	buf []byte
}

// rewrite is a part's rewriting: it copies the part read from open to w.
type rewrite func(w io.Writer, open func() (io.ReadCloser, error)) error

func (p partRewriter) rewriter(name string) rewrite {
	switch {
	case name == "docProps/core.xml":
		return whole(undate)
	case strings.HasPrefix(name, "xl/worksheets/sheet") && strings.HasSuffix(name, ".xml"):
		if _, ok := p.packed[name]; ok {
			return nil
		}
		return p.redimension
	case strings.HasPrefix(name, "xl/charts/chart"):
		if c, ok := p.charts[name]; ok {
			return whole(func(b []byte) ([]byte, error) { return fillChartCaches(b, c) })
		}
	}
	return nil
}

// whole rewrites a small part read whole.
func whole(f func([]byte) ([]byte, error)) rewrite {
	return func(w io.Writer, open func() (io.ReadCloser, error)) error {
		rc, err := open()
		if err != nil {
			return err
		}
		data, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			return err
		}
		if data, err = f(data); err != nil {
			return err
		}
		_, err = w.Write(data)
		return err
	}
}

// dimensionHead is how far into a worksheet its dimension element is
// looked for: excelize writes it before any cell.
const dimensionHead = 1 << 16

// redimension copies a worksheet with its dimension set to the range of
// its cells, reading it twice, so that memory stays within a buffer
// whatever the sheet's size: once for the range, once to copy it.
func (p partRewriter) redimension(w io.Writer, open func() (io.ReadCloser, error)) error {
	rc, err := open()
	if err != nil {
		return err
	}
	var d dimensionScanner
	_, err = io.CopyBuffer(&d, rc, p.buf)
	rc.Close()
	if err != nil {
		return err
	}
	if rc, err = open(); err != nil {
		return err
	}
	defer rc.Close()
	head := p.buf[:dimensionHead]
	n, err := io.ReadFull(rc, head)
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return err
	}
	if _, err := w.Write(setDimension(head[:n], dimensionRef(d.col, d.row))); err != nil {
		return err
	}
	_, err = io.CopyBuffer(w, rc, p.buf)
	return err
}

// rewritePart writes f, rewritten, to zw as a deflated entry with header h.
func rewritePart(zw *zip.Writer, f *zip.File, h *zip.FileHeader, rw rewrite) error {
	out := &zip.FileHeader{Name: h.Name, Method: zip.Deflate}
	//lint:ignore SA1019 the MS-DOS fields alone write the fixed time and nothing else
	out.ModifiedDate, out.ModifiedTime = h.ModifiedDate, h.ModifiedTime
	w, err := zw.CreateHeader(out)
	if err != nil {
		return err
	}
	if err := rw(w, f.Open); err != nil {
		return fmt.Errorf("%s: %w", f.Name, err)
	}
	return nil
}

// dimensionScanner finds the last column and row of the cells written to
// it, chunk by chunk.
type dimensionScanner struct {
	col, row int
	buf      []byte // the end of the last chunk, where a cell reference may start, then the chunk
}

// cellRef is how a cell and its reference start.
const cellRef = `<c r="`

// maxRef is the longest reference: XFD1048576, and its closing quote.
const maxRef = 11

func (d *dimensionScanner) Write(p []byte) (int, error) {
	d.buf = append(d.buf, p...)
	buf := d.buf
	i := 0
	for {
		j := bytes.Index(buf[i:], []byte(cellRef))
		if j < 0 {
			break
		}
		start := i + j + len(cellRef)
		end := bytes.IndexByte(buf[start:min(len(buf), start+maxRef)], '"')
		if end < 0 {
			if len(buf)-start < maxRef { // cut by the chunk's end: next time
				i = i + j
				break
			}
			i = start
			continue
		}
		col, row := 0, 0
		for _, c := range buf[start : start+end] {
			switch {
			case c >= 'A' && c <= 'Z':
				col = col*26 + int(c-'A'+1)
			case c >= '0' && c <= '9':
				row = row*10 + int(c-'0')
			}
		}
		d.col, d.row = max(d.col, col), max(d.row, row)
		i = start + end
	}
	keep := max(i, len(buf)-len(cellRef)-maxRef)
	d.buf = d.buf[:copy(d.buf, buf[keep:])]
	return len(p), nil
}

// undate leaves the created and modified dates out of docProps/core.xml:
// every element <dcterms:created ...>text</dcterms:created> and the same
// of modified (either name may close either).
func undate(b []byte) ([]byte, error) {
	const open, closing = "<dcterms:", "</dcterms:"
	var out []byte
	last, cut := 0, false
	for i := 0; ; {
		j := bytes.Index(b[i:], []byte(open))
		if j < 0 {
			break
		}
		start := i + j
		i = start + 1
		end := dateEnd(b, start+len(open), closing)
		if end < 0 {
			continue
		}
		out = append(out, b[last:start]...)
		last, i, cut = end, end, true
	}
	if !cut {
		return b, nil
	}
	return append(out, b[last:]...), nil
}

// dateEnd returns the end of a date element of docProps/core.xml whose
// name starts at i, after its "<dcterms:", or -1 if none does.
func dateEnd(b []byte, i int, closing string) int {
	i = dateName(b, i)
	if i < 0 {
		return -1
	}
	gt := bytes.IndexByte(b[i:], '>') // the rest of the start tag
	if gt < 0 {
		return -1
	}
	i += gt + 1
	lt := bytes.IndexByte(b[i:], '<') // the date
	if lt < 0 || !bytes.HasPrefix(b[i+lt:], []byte(closing)) {
		return -1
	}
	i = dateName(b, i+lt+len(closing))
	if i < 0 || i >= len(b) || b[i] != '>' {
		return -1
	}
	return i + 1
}

// dateName returns the end of the name created or modified at i, or -1.
func dateName(b []byte, i int) int {
	for _, name := range []string{"created", "modified"} {
		if bytes.HasPrefix(b[i:], []byte(name)) {
			return i + len(name)
		}
	}
	return -1
}

// dimensionRef writes the range from A1 to column col, row row.
func dimensionRef(col, row int) string {
	if col <= 1 && row <= 1 {
		return "A1"
	}
	return "A1:" + cellName(col, row)
}

// setDimension replaces a worksheet's dimension with ref.
func setDimension(sheet []byte, ref string) []byte {
	const old = `<dimension ref="A1">`
	i := bytes.Index(sheet, []byte(old))
	if i < 0 || ref == "A1" {
		return sheet
	}
	out := make([]byte, 0, len(sheet)+len(ref))
	out = append(out, sheet[:i]...)
	out = append(out, `<dimension ref="`+ref+`">`...)
	return append(out, sheet[i+len(old):]...)
}

// The elements fillChartCaches rewrites, as excelize writes them: a
// scatter series' x values as a string reference without a cache, and a
// series' values with an empty cache, where the formula goes in between.
const (
	xValOpen   = `<xVal><strRef><f>`
	xValClose  = `</f></strRef></xVal>`
	valsOpen   = `<numRef><f>`
	valsClose  = `</f><numCache><formatCode></formatCode></numCache></numRef></`
	yValTag    = `yVal`
	valTag     = `val`
	tagClosing = '>'
)

// fillChartCaches rewrites a chart's numeric x values as a number
// reference with its cache, and fills the cache of every series' values,
// the i-th match for the i-th series. It reads the part once for each of
// the two kinds of element, by plain search: the elements are excelize's
// fixed text around a formula, which holds no '<'.
func fillChartCaches(chart []byte, c chartCache) ([]byte, error) {
	if c.xs != nil {
		xvals := findXVals(chart)
		if len(xvals) > 0 {
			out := make([]byte, 0, len(chart)+len(xvals)*(64+24*len(c.xs)))
			last := 0
			for i, m := range xvals {
				out = append(out, chart[last:m.start]...)
				f := chart[m.f0:m.f1]
				if c.marks.xs != nil && i == len(xvals)-1 {
					out = append(out, markLabels(c.marks.labels, c.marks.at)...)
					out = appendNumRef(append(out, "<xVal>"...), f, c.marks.xs)
				} else {
					out = appendNumRef(append(out, "<xVal>"...), f, c.xs)
				}
				out = append(out, "</xVal>"...)
				last = m.end
			}
			chart = append(out, chart[last:]...)
		}
	}
	if c.points != nil {
		chart = colourPoints(chart, c.points)
	}
	if c.logX {
		chart = logXAxis(chart)
	}
	vals := findEmptyVals(chart)
	if len(vals) == 0 {
		return chart, nil
	}
	out := make([]byte, 0, len(chart)+len(vals)*(64+24*len(c.xs)))
	last, series := 0, 0
	var err error
	for _, m := range vals {
		out = append(out, chart[last:m.start]...)
		last = m.end
		if series >= len(c.ys) {
			err = fmt.Errorf("the chart has more series than the %d it plots", len(c.ys))
			out = append(out, chart[m.start:m.end]...)
			continue
		}
		tag := chart[m.start+1 : m.start+1+m.tag]
		out = append(append(append(out, '<'), tag...), '>')
		out = appendNumRef(out, chart[m.f0:m.f1], c.ys[series])
		out = append(append(append(out, "</"...), tag...), '>')
		series++
	}
	return append(out, chart[last:]...), err
}

// chartMatch is an element of a chart's part that fillChartCaches
// rewrites: chart[start:end], its formula chart[f0:f1], and for values
// the length of its tag's name.
type chartMatch struct {
	start, end, f0, f1, tag int
}

// formulaEnd returns the end of the formula that starts at i: the next
// '<', or -1.
func formulaEnd(chart []byte, i int) int {
	j := bytes.IndexByte(chart[i:], '<')
	if j < 0 {
		return -1
	}
	return i + j
}

// findXVals finds, in order, every x values element that is a string
// reference without a cache.
func findXVals(chart []byte) []chartMatch {
	var ms []chartMatch
	for i := 0; ; {
		j := bytes.Index(chart[i:], []byte(xValOpen))
		if j < 0 {
			return ms
		}
		start := i + j
		f0 := start + len(xValOpen)
		f1 := formulaEnd(chart, f0)
		if f1 < 0 {
			return ms
		}
		if !bytes.HasPrefix(chart[f1:], []byte(xValClose)) {
			i = start + 1
			continue
		}
		end := f1 + len(xValClose)
		ms = append(ms, chartMatch{start: start, end: end, f0: f0, f1: f1})
		i = end
	}
}

// findEmptyVals finds, in order, every series' values (yVal or val) that
// are a number reference with an empty cache. The closing tag may be
// either name, as the opening one may.
func findEmptyVals(chart []byte) []chartMatch {
	var ms []chartMatch
	prevEnd := 0 // where the last match ends: the next starts after it
	for i := 0; ; {
		j := bytes.Index(chart[i:], []byte(valsOpen))
		if j < 0 {
			return ms
		}
		at := i + j
		i = at + 1
		start, tag := -1, 0
		for _, name := range []string{yValTag, valTag} {
			if s := at - len(name) - 2; s >= prevEnd && chart[s] == '<' &&
				string(chart[s+1:at-1]) == name && chart[at-1] == tagClosing {
				start, tag = s, len(name)
				break
			}
		}
		if start < 0 {
			continue
		}
		f0 := at + len(valsOpen)
		f1 := formulaEnd(chart, f0)
		if f1 < 0 {
			return ms
		}
		rest := chart[f1:]
		if !bytes.HasPrefix(rest, []byte(valsClose)) {
			continue
		}
		rest = rest[len(valsClose):]
		end := -1
		for _, name := range []string{yValTag, valTag} {
			if len(rest) > len(name) && string(rest[:len(name)]) == name && rest[len(name)] == tagClosing {
				end = f1 + len(valsClose) + len(name) + 1
				break
			}
		}
		if end < 0 {
			continue
		}
		ms = append(ms, chartMatch{start: start, end: end, f0: f0, f1: f1, tag: tag})
		i, prevEnd = end, end
	}
}

// markLabels writes the data labels of a chart's marks, a label of its
// own text above each point, where the schema puts a scatter series'
// labels: before its x values. excelize writes no labels of one series
// of a scatter chart.
func markLabels(labels, at []string) string {
	const show = `<showLegendKey val="0"/><showVal val="1"/><showCatName val="0"/><showSerName val="0"/><showPercent val="0"/><showBubbleSize val="0"/>`
	// A white ground, so that a label reads over the lines that cross at
	// its point.
	const labelFill = `<spPr><a:solidFill><a:srgbClr val="FFFFFF"/></a:solidFill></spPr>`
	const font = `<a:rPr lang="en-US" sz="800" b="0"><a:solidFill><a:srgbClr val="000000"/></a:solidFill></a:rPr>`
	var b strings.Builder
	b.WriteString("<dLbls>")
	for i, l := range labels {
		var text strings.Builder
		xml.EscapeText(&text, []byte(l))
		fmt.Fprintf(&b, `<dLbl><idx val="%d"/><tx><rich><a:bodyPr/><a:p><a:r>%s<a:t>%s</a:t></a:r></a:p></rich></tx>%s<dLblPos val="%s"/>%s</dLbl>`,
			i, font, text.String(), labelFill, at[i], show)
	}
	b.WriteString(`<txPr><a:bodyPr/><a:p><a:pPr><a:defRPr sz="800"/></a:pPr><a:endParaRPr lang="en-US"/></a:p></txPr><dLblPos val="t"/>` + show + "</dLbls>")
	return b.String()
}

// xAxisScaling is the start of the scaling of a scatter chart's x axis, the
// first value axis excelize writes.
const xAxisScaling = `<valAx><axId val="100000000"></axId><scaling>`

// logXAxis gives a scatter chart's x axis a logarithmic scale of base 2,
// where the schema puts it: first in the axis's scaling.
func logXAxis(chart []byte) []byte {
	i := bytes.Index(chart, []byte(xAxisScaling))
	if i < 0 {
		return chart
	}
	i += len(xAxisScaling)
	const logBase = `<logBase val="2"/>`
	out := make([]byte, 0, len(chart)+len(logBase))
	out = append(out, chart[:i]...)
	out = append(out, logBase...)
	return append(out, chart[i:]...)
}

// invertIfNegative is where a column series' data points go: after its
// invertIfNegative element, as the chart schema orders them.
const invertIfNegative = `<invertIfNegative val="0"></invertIfNegative>`

// colourPoints gives the first series' i-th data point the fill colours[i].
func colourPoints(chart []byte, colours []string) []byte {
	i := bytes.Index(chart, []byte(invertIfNegative))
	if i < 0 {
		return chart
	}
	i += len(invertIfNegative)
	var b strings.Builder
	for j, c := range colours {
		if c == "" {
			continue // no colour of its own: the series' default
		}
		fmt.Fprintf(&b, `<dPt><idx val="%d"/><invertIfNegative val="0"/><bubble3D val="0"/><spPr><a:solidFill><a:srgbClr val="%s"/></a:solidFill></spPr></dPt>`, j, c)
	}
	out := make([]byte, 0, len(chart)+b.Len())
	out = append(out, chart[:i]...)
	out = append(out, b.String()...)
	return append(out, chart[i:]...)
}

// appendNumRef appends a number reference to f with its cache of values;
// NaN is a point left out.
func appendNumRef(dst, f []byte, vs []float64) []byte {
	dst = append(dst, "<numRef><f>"...)
	dst = append(dst, f...)
	dst = append(dst, `</f><numCache><formatCode>General</formatCode><ptCount val="`...)
	dst = strconv.AppendInt(dst, int64(len(vs)), 10)
	dst = append(dst, `"/>`...)
	for i, v := range vs {
		if v != v {
			continue
		}
		dst = append(dst, `<pt idx="`...)
		dst = strconv.AppendInt(dst, int64(i), 10)
		dst = append(dst, `"><v>`...)
		dst = strconv.AppendFloat(dst, v, 'g', 15, 64)
		dst = append(dst, `</v></pt>`...)
	}
	return append(dst, "</numCache></numRef>"...)
}

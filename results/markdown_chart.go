package results

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"strings"

	"ckptlab/internal/words"
)

// Bounds of a Mermaid chart of the Markdown.
const (
	// mermaidPoints is how many even probabilities an expected-total chart
	// is drawn at.
	mermaidPoints = 11
	// mermaidLabels is the most x labels a Mermaid chart of its default
	// width shows side by side.
	mermaidLabels = 16
	// mermaidTitle is the most characters of a title Mermaid draws whole
	// over a chart of its default width.
	mermaidTitle = 60
)

// mermaidLine is one line of a Mermaid chart: its name, colour and values
// as Mermaid reads them.
type mermaidLine struct {
	name   string
	colour string
	ys     []string
}

// writeMermaid writes a chart as a Mermaid xychart-beta, over its rows'
// x values as categories (mermaidSeries returns them). Mermaid draws no
// legend, so a line below names the lines in order; it clips no line, so
// a line cut by the y axis's scale (scaleY) runs along the chart's top
// edge, or is left out when it lies wholly above it, and the note names
// it; it marks no point, so the note lists the break-even crossings.
func writeMermaid(b *bytes.Buffer, c Chart) {
	xs, rows := mermaidSeries(c)
	if len(rows) < 2 {
		return
	}
	title, source, _ := strings.Cut(c.Data.Title, ": ")
	scale, capped := scaleY(c)
	lines, above := mermaidLines(c, rows, scale, capped)
	var palette []string
	for _, l := range lines {
		palette = append(palette, l.colour)
	}
	fmt.Fprintf(b, "\n### %s\n\n%s\n\n```mermaid\n", escapeMarkdown(title), escapeMarkdown(source))
	fmt.Fprintf(b, "%%%%{init: {\"themeVariables\": {\"xyChart\": {\"plotColorPalette\": \"%s\"}}}}%%%%\nxychart-beta\n", strings.Join(palette, ", "))
	// The heading above holds the whole title; Mermaid cuts a long one
	// at the chart's edge, so the chart keeps its first clause.
	if short, _, ok := strings.Cut(title, ", "); ok && len(title) > mermaidTitle {
		title = short
	}
	fmt.Fprintf(b, "    title %q\n", title)
	fmt.Fprintf(b, "    x-axis %q [%s]\n", c.Data.Columns[0].Name, strings.Join(xs, ", "))
	if capped {
		fmt.Fprintf(b, "    y-axis %q 0 --> %s\n", c.YTitle, strconv.FormatFloat(scale.top, 'f', -1, 64))
	} else {
		fmt.Fprintf(b, "    y-axis %q\n", c.YTitle)
	}
	for _, l := range lines {
		fmt.Fprintf(b, "    line [%s]\n", strings.Join(l.ys, ", "))
	}
	b.WriteString("```\n\n")
	var legend []string
	for _, l := range lines {
		entry := colourName(l.colour) + " " + l.name
		if c.IsRecommended(l.name) {
			entry += " (recommended)"
		}
		legend = append(legend, entry)
	}
	note := mermaidNote(c, len(xs), scale, capped, above)
	fmt.Fprintf(b, "Legend: %s. %s\n", escapeMarkdown(strings.Join(legend, ", ")), escapeMarkdown(note))
	writeMarks(b, c.Marks)
}

// mermaidLines returns the lines of a chart as Mermaid draws them, each in
// its interval's colour, the palette every chart reads: a line that leaves
// the y axis (but the recommended one) is left out and named in above,
// since Mermaid would draw it past the top; the recommended one's values
// above the top are drawn at it.
func mermaidLines(c Chart, rows [][]float64, scale yScale, capped bool) (lines []mermaidLine, above []string) {
	for j := 1; j < len(c.Data.Columns); j++ {
		name := c.Data.Columns[j].Name
		colour, _, ok := IntervalStyle(name)
		if !ok {
			colour = "808080"
		}
		if name == c.Envelope {
			colour = EnvelopeColour
		}
		l := mermaidLine{name: name, colour: "#" + colour}
		highest := math.Inf(-1)
		for _, r := range rows {
			y := r[j-1]
			highest = max(highest, y)
			if capped {
				y = min(y, scale.top)
			}
			l.ys = append(l.ys, strconv.FormatFloat(math.Round(y*10)/10, 'f', -1, 64))
		}
		if capped && highest > scale.top && !c.IsRecommended(name) && name != c.Envelope {
			above = append(above, name)
			continue
		}
		lines = append(lines, l)
	}
	return lines, above
}

// mermaidNote is the note under a Mermaid chart: the chart's own, the x
// values it leaves out, and where the y axis stops and what it cuts.
func mermaidNote(c Chart, drawn int, scale yScale, capped bool, above []string) string {
	note := c.Note
	if c.Data.Columns[0].Name != "failure probability" && drawn < len(c.Data.Rows) {
		note += fmt.Sprintf(" Drawn at %d of its %d values of %s, evenly chosen; the workbook's charts sheet holds them all.",
			drawn, len(c.Data.Rows), c.Data.Columns[0].Name)
	}
	if capped {
		note += " " + scale.note()
		if len(above) > 0 {
			note += " Not drawn, since they leave the chart at its top: " + words.And(above) + "."
		}
		if len(above) < len(scale.cut) {
			note += " A line cut by the top runs along it."
		}
	}
	return strings.TrimSpace(note)
}

// writeMarks lists a chart's break-even crossings under it, as Mermaid
// marks no point: "p = 11/18 (0.6111): none → 6, at an expected total of
// 733.3 rows".
func writeMarks(b *bytes.Buffer, marks []Mark) {
	if len(marks) == 0 {
		return
	}
	items := make([]string, len(marks))
	for i, m := range marks {
		at := Probability.Format(m.X)
		if m.Fraction != "" {
			at = m.Fraction + " (" + at + ")"
		}
		items[i] = fmt.Sprintf("p = %s: %s → %s, at an expected total of %s rows", at,
			strings.TrimPrefix(m.From, "interval "), strings.TrimPrefix(m.To, "interval "), Total.Format(m.Y))
	}
	fmt.Fprintf(b, "\nBreak-even crossings, where the best interval changes (breakeven.csv): %s.\n", escapeMarkdown(strings.Join(items, "; ")))
}

// mermaidSeries returns the x labels of a chart drawn in Mermaid and, per
// label, the y value of each line. Mermaid spaces its x values evenly, so
// an expected-total chart is drawn at mermaidPoints even probabilities over
// its range, each line straight between its rows (expected totals are
// straight in the probability, the envelope between its breakpoints); any other chart at its rows, whose
// x values a worker sweep doubles (1, 2, 4, … : a log axis) or steps by
// one, at most mermaidLabels of them.
func mermaidSeries(c Chart) (xs []string, ys [][]float64) {
	rows := c.Data.Rows
	if len(rows) < 2 {
		return nil, nil
	}
	if c.Data.Columns[0].Name != "failure probability" {
		// Mermaid draws every label: past mermaidLabels rows, evenly
		// chosen ones, the first and last among them.
		if n := len(rows); n > mermaidLabels {
			var some [][]Value
			for i := range mermaidLabels {
				some = append(some, rows[i*(n-1)/(mermaidLabels-1)])
			}
			rows = some
		}
		for _, r := range rows {
			xs = append(xs, string(appendStyled(nil, r[0], c.Data.Columns[0])))
			var y []float64
			for _, v := range r[1:] {
				y = append(y, YValue(v))
			}
			ys = append(ys, y)
		}
		return xs, ys
	}
	first, last := rows[0], rows[len(rows)-1]
	lo, hi := first[0].Float, last[0].Float
	k := 0 // the row at or before x
	for i := range mermaidPoints {
		t := float64(i) / (mermaidPoints - 1)
		x := lo + (hi-lo)*t
		xs = append(xs, strconv.FormatFloat(x, 'f', -1, 64))
		for k+2 < len(rows) && rows[k+1][0].Float <= x {
			k++
		}
		a, b := rows[k], rows[k+1]
		u := 0.0
		if w := b[0].Float - a[0].Float; w > 0 {
			u = min(1, max(0, (x-a[0].Float)/w))
		}
		var y []float64
		for j := 1; j < len(first); j++ {
			y = append(y, YValue(a[j])+(YValue(b[j])-YValue(a[j]))*u)
		}
		ys = append(ys, y)
	}
	return xs, ys
}

// colourNames names the palette's colours for a legend in words.
var colourNames = map[string]string{
	"#000000": "black", "#E69F00": "orange", "#56B4E9": "sky blue", "#009E73": "green",
	"#CC79A7": "pink", "#0072B2": "blue", "#D55E00": "vermillion", "#F0E442": "yellow",
	"#" + EnvelopeColour: "dark grey",
	"#332288":            "indigo", "#661100": "brown", "#66A61E": "lime green", "#E7298A": "magenta", "#DDCC77": "sand",
}

// colourName names a colour of the palette for a legend in words, "grey"
// for any other.
func colourName(hex string) string {
	if n, ok := colourNames[hex]; ok {
		return n
	}
	return "grey"
}

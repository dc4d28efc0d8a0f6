package workbook

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"ckptlab/internal/satmath"
	"ckptlab/results"

	"unsafe"

	"github.com/xuri/excelize/v2"
)

// The summary sheet's columns: the first wide enough for a probability or
// a key, the others for figures; text runs over all of them.
const (
	summaryCols       = 7
	summaryFirstWidth = 22.0
	summaryWidth      = 18.0
	// summaryTableRows is the most rows of a table the summary shows; the
	// table's own sheet has them all.
	summaryTableRows = 40
	// Bounds of a decision map: the rows and columns past which it shows
	// an even selection.
	mapRows = 41
	mapCols = 12
	// summaryMaps is the most decision maps the summary shows, one per
	// source: what the summary holds of the decisions.
	summaryMaps = 3
	// summaryRows is the most rows the summary holds besides its maps:
	// the break-even table's first rows and the headline, rounded up.
	summaryRows = 64
)

// summaryBytes bounds what the summary sheet holds: its rows and its
// decision maps.
func summaryBytes(s results.Sizes) int64 {
	rows := satmath.Mul(summaryRows, int64(s.Breakeven.Columns+1), results.CellBytes)
	return satmath.Add(rows, mapsBytes(s))
}

// mapsBytes bounds the decision maps: one for each of the first few
// sources (summaryMaps), each of every grid's state rows and probabilities
// at most (a map's source may run on into the next case's rows), with a
// cell per pair. A sweep of one source so counts one map.
func mapsBytes(s results.Sizes) int64 {
	const valueBytes = int64(unsafe.Sizeof(results.Value{})) + 96 // and its place in a map
	var n int64
	for _, m := range s.Maps {
		rows := satmath.Mul(m.StateRows, satmath.Add(valueBytes+24, 4*m.Probabilities))
		n = satmath.Add(n, satmath.Add(rows, satmath.Mul(m.Probabilities, valueBytes)))
	}
	return satmath.Mul(min(summaryMaps, s.Sources), n)
}

// writeSummary writes the summary sheet, the workbook's first: the
// experiment in a paragraph, the headline answers, the break-even table
// and, where the decisions vary over probability or state rows, a decision
// map of the best interval with a colour scale. A part whose table is
// absent (a zero Table) is left out.
func (b *workbook) writeSummary(s results.Set) error {
	const sheet = "summary"
	if err := b.newSheet(sheet); err != nil {
		return err
	}
	width := columnPoints(summaryFirstWidth) + (summaryCols-1)*columnPoints(summaryWidth)
	if err := b.setUpPrint(sheet, layOut(width, 0, 0), 0, 0); err != nil {
		return err
	}
	sw, err := b.f.NewStreamWriter(sheet)
	if err != nil {
		return err
	}
	if err := sw.SetColWidth(2, summaryCols, summaryWidth); err != nil {
		return err
	}
	if err := sw.SetColWidth(1, 1, summaryFirstWidth); err != nil {
		return err
	}
	ss := summarySheet{viewSheet: viewSheet{b: b, name: sheet, sw: sw}, row: 1,
		chars: summaryFirstWidth + (summaryCols-1)*summaryWidth}
	if err := ss.title(1, "ckptlab: "+s.Name, titleStyle); err != nil {
		return err
	}
	ss.row = 2
	if err := ss.paragraph(describe(s)); err != nil {
		return err
	}
	if len(s.Headline) > 0 {
		ss.row++
		if err := ss.heading("Answers"); err != nil {
			return err
		}
		for _, line := range s.Headline {
			if err := ss.paragraph(line); err != nil {
				return err
			}
		}
	}
	if len(s.KeyFigures.Rows) > 0 {
		if err := ss.keyFigures(s.KeyFigures); err != nil {
			return err
		}
	}
	if len(s.Breakeven.Columns) > 0 {
		if err := ss.breakeven(s.Breakeven); err != nil {
			return err
		}
	}
	if maps := bestIntervals(s); len(maps.Columns) > 0 {
		if err := ss.decisionMaps(maps); err != nil {
			return err
		}
	}
	ss.row++
	if err := ss.paragraph("The sheets that follow: " + strings.Join(b.plannedSheets, ", ") + "."); err != nil {
		return err
	}
	return sw.Flush()
}

// bestIntervals returns the table the decision maps read: BestIntervals,
// or Decisions where the set has none.
func bestIntervals(s results.Set) results.Table {
	if len(s.BestIntervals.Columns) > 0 {
		return s.BestIntervals
	}
	return s.Decisions
}

// describe returns the experiment in a paragraph: its description, then
// every setting of the resolved configuration but its name.
func describe(s results.Set) string {
	var parts []string
	for _, kv := range s.Config {
		switch kv.Key {
		case "version", "name", "description":
			continue
		}
		parts = append(parts, kv.Key+" "+shorten(results.PlainValue(kv.Value), settingChars))
	}
	text := strings.TrimSpace(s.Description)
	if text != "" && !strings.HasSuffix(text, ".") {
		text += "."
	}
	if len(parts) > 0 {
		text = strings.TrimSpace(text + " Settings: " + strings.Join(parts, "; ") + ".")
	}
	return text
}

// settingChars is the most characters of a setting the summary's
// paragraph shows: a sweep of 10,001 probabilities is for the experiment
// sheet.
const settingChars = 160

// shorten cuts text to at most n characters (runes), marking the cut.
func shorten(text string, n int) string {
	r := []rune(text)
	if len(r) <= n {
		return text
	}
	return string(r[:n-1]) + "…"
}

// summarySheet is the summary sheet being written, row after row.
type summarySheet struct {
	viewSheet
	row   int
	chars float64 // the characters a line across the sheet holds
}

// heading writes a bold line.
func (ss *summarySheet) heading(text string) error {
	if err := ss.title(ss.row, text, blockStyle); err != nil {
		return err
	}
	ss.row++
	return nil
}

// paragraph writes text wrapped over the width of the sheet, in a row as
// tall as its lines.
func (ss *summarySheet) paragraph(text string) error {
	if text == "" {
		return nil
	}
	wrap, err := ss.b.style(wrapStyle, results.General)
	if err != nil {
		return err
	}
	lines := max(1, int(math.Ceil(float64(len(text))/ss.chars)))
	cell := cellName(1, ss.row)
	if err := ss.sw.SetRow(cell, []any{excelize.Cell{StyleID: wrap, Value: text}},
		excelize.RowOpts{Height: rowHeight(lines)}); err != nil {
		return err
	}
	if err := ss.sw.MergeCell(cell, cellName(summaryCols, ss.row)); err != nil {
		return err
	}
	ss.row++
	return nil
}

// breakeven writes the break-even pieces, without the key columns that
// are the same in every row (they go in the title instead).
func (ss *summarySheet) breakeven(t results.Table) error {
	blk, more := results.Collect(t, summaryTableRows)
	blk = results.DropConstantKeys(blk, 4)
	blk.Title = "Break-even: the declared interval with the least expected total, by failure probability" + blk.Title
	ss.row++
	if err := ss.block(ss.row, blk); err != nil {
		return err
	}
	ss.row += 2 + len(blk.Rows)
	if more > 0 {
		return ss.paragraph(fmt.Sprintf("%d more rows on the breakeven sheet.", more))
	}
	return nil
}

// keyFigures writes the key-figure block, an even selection of its rows
// past summaryTableRows.
func (ss *summarySheet) keyFigures(blk results.Block) error {
	n := len(blk.Rows)
	if n > summaryTableRows {
		rows := make([][]results.Value, 0, summaryTableRows)
		for _, i := range spread(n, summaryTableRows) {
			rows = append(rows, blk.Rows[i])
		}
		blk.Rows = rows
	}
	ss.row++
	if err := ss.block(ss.row, blk); err != nil {
		return err
	}
	ss.row += 2 + len(blk.Rows)
	if len(blk.Rows) < n {
		return ss.paragraph(fmt.Sprintf("An even selection of %d of %d decision points; the decisions sheet has every one.", len(blk.Rows), n))
	}
	return nil
}

// decisionMap is the best interval of one source by probability (rows)
// and state rows (columns). A sweep has a decision per state rows and
// probability, 320,004 for 80,001 state rows: each cell is held as the
// index of its interval among the few the map has, not as a cell.
type decisionMap struct {
	source        string   // subscribers and periods
	seeds         []string // the sources' seeds, alike in the map
	probabilities []results.Value
	stateRows     []results.
		// best holds, per state rows j and probability i, the index in
		// intervals of the best interval, plus one: 0 for no decision.
		Value

	best      [][]uint32
	intervals []results.
		// places are the indexes of the probabilities, state rows and
		// intervals met.
		Value

	places [3]map[results.Value]int
}

// place returns the index of v among the values of axis k (0 for the
// probabilities, 1 for the state rows, 2 for the intervals) of the map,
// adding it when new.
func (m *decisionMap) place(k int, v results.Value) int {
	axis := &m.probabilities
	switch k {
	case 1:
		axis = &m.stateRows
	case 2:
		axis = &m.intervals
	}
	if m.places[k] == nil {
		m.places[k] = map[results.Value]int{}
	}
	i, ok := m.places[k][v]
	if !ok {
		i = len(*axis)
		m.places[k][v] = i
		*axis = append(*axis, v)
	}
	return i
}

// set makes best the best interval at probability p and state rows sr.
func (m *decisionMap) set(p, sr, best results.Value) {
	i, j := m.place(0, p), m.place(1, sr)
	for len(m.best) <= j {
		m.best = append(m.best, nil)
	}
	for len(m.best[j]) <= i {
		m.best[j] = append(m.best[j], 0)
	}
	m.best[j][i] = uint32(m.place(2, best) + 1)
}

// at returns the best interval at probability i and state rows j, or the
// zero Value where the map has no decision.
func (m *decisionMap) at(i, j int) results.Value {
	if j >= len(m.best) || i >= len(m.best[j]) || m.best[j][i] == 0 {
		return results.Value{}
	}
	return m.intervals[m.best[j][i]-1]
}

// decisionMaps writes, per source (at most summaryMaps), the best interval
// by failure probability down and state rows across, with a colour scale
// from short intervals to long and none in grey, when the map has more
// than one cell.
func (ss *summarySheet) decisionMaps(t results.Table) error {
	col := func(name string) int {
		return slices.IndexFunc(t.Columns, func(c results.Column) bool { return c.Name == name })
	}
	seed, subs, periods := col("seed"), col("subscribers"), col("periods")
	sr, p, best := col("state_rows"), col("probability"), col("best_interval")
	if min(seed, subs, periods, sr, p, best) < 0 {
		return nil
	}
	// The maps of the first summaryMaps sources that differ; a source whose
	// map is one already kept, of the same subscribers and periods, joins
	// it by its seed, and the others are counted.
	var maps []*decisionMap
	var cur *decisionMap
	sources, distinct := 0, 0
	var lastKey [3]results. // the source's seed, subscribers and periods
				Value
	last := ""
	done := func() {
		if cur == nil {
			return
		}
		for _, m := range maps {
			if m.sameAs(cur) {
				m.seeds = append(m.seeds, cur.seeds...)
				return
			}
		}
		distinct++
		if len(maps) < summaryMaps {
			maps = append(maps, cur)
		}
	}
	for row := range t.Rows {
		if key := [3]results.Value{row[seed], row[subs], row[periods]}; sources == 0 || key != lastKey {
			// the source's title, made when its cells change: two
			// sources apart in their cells may still read alike
			lastKey = key
			source := fmt.Sprintf("%s subscribers, %s periods", results.Count.FormatInt(key[1].Int), results.Count.FormatInt(key[2].Int))
			if sources == 0 || key[0].String()+source != last {
				sources, last = sources+1, key[0].String()+source
				done()
				cur = &decisionMap{source: source, seeds: []string{key[0].String()}}
			}
		}
		cur.set(row[p], row[sr], row[best])
	}
	done()
	for _, m := range maps {
		if len(m.probabilities)*len(m.stateRows) < 2 {
			continue
		}
		if err := ss.decisionMap(m); err != nil {
			return err
		}
	}
	if distinct > len(maps) {
		return ss.paragraph(fmt.Sprintf("Decision maps are shown for the first %d of %d sources that differ; the decisions sheet has every one.", len(maps), distinct))
	}
	return nil
}

// sameAs reports whether o is m's map for the same subscribers and
// periods: the same best interval at every probability and state rows.
func (m *decisionMap) sameAs(o *decisionMap) bool {
	if m.source != o.source || !slices.Equal(m.probabilities, o.probabilities) || !slices.Equal(m.stateRows, o.stateRows) {
		return false
	}
	for j := range m.stateRows {
		for i := range m.probabilities {
			if m.at(i, j) != o.at(i, j) {
				return false
			}
		}
	}
	return true
}

// title names the map's sources: its seeds (the first few, and how many
// alike) with their subscribers and periods.
func (m *decisionMap) title() string {
	const shown = 4
	switch n := len(m.seeds); {
	case n == 1:
		return "seed " + m.seeds[0] + ", " + m.source
	case n <= shown:
		return "seeds " + strings.Join(m.seeds, ", ") + " (alike), " + m.source
	default:
		return fmt.Sprintf("seeds %s, … (%s seeds alike), %s", strings.Join(m.seeds[:shown-1], ", "), results.Count.FormatInt(int64(n)), m.source)
	}
}

// decisionMap writes one decision map.
func (ss *summarySheet) decisionMap(m *decisionMap) error {
	rows, cols := spread(len(m.probabilities), mapRows), spread(len(m.stateRows), mapCols)
	blk := results.Block{
		Title:   "Decision map: the best interval by failure probability (down) and state rows (across), " + m.title(),
		Columns: []results.Column{{Name: "failure probability", Kind: results.Float, Decimals: -1}},
	}
	for _, j := range cols {
		blk.Columns = append(blk.Columns, results.Column{Name: results.Count.FormatInt(m.stateRows[j].Int), Kind: results.Text})
	}
	for _, i := range rows {
		row := []results.Value{m.probabilities[i]}
		for _, j := range cols {
			row = append(row, intervalValue(m.at(i, j)))
		}
		blk.Rows = append(blk.Rows, row)
	}
	ss.row++
	top := ss.row
	if err := ss.block(top, blk); err != nil {
		return err
	}
	ss.row += 2 + len(blk.Rows)
	ref := cellName(2, top+2) + ":" + cellName(len(blk.Columns), top+1+len(blk.Rows))
	if err := ss.colourByInterval(ref, blk.Rows); err != nil {
		return err
	}
	colours := "Each cell is tinted in its interval's colour, the one every chart draws it in; none, no checkpoint at all, is grey."
	if len(rows) < len(m.probabilities) || len(cols) < len(m.stateRows) {
		return ss.paragraph(fmt.Sprintf("An even selection of %d of %d probabilities and %d of %d state rows; the decisions sheet has every one. %s",
			len(rows), len(m.probabilities), len(cols), len(m.stateRows), colours))
	}
	return ss.paragraph(colours)
}

// mapTint is how much of an interval's colour a decision-map cell's fill
// takes, the rest white: light enough that black text stays readable.
const mapTint = 0.35

// tint returns an RGB hex colour mixed with white, share of it kept.
func tint(colour string, share float64) string {
	v, err := strconv.ParseUint(colour, 16, 32)
	if err != nil {
		return "FFFFFF"
	}
	out := ""
	for shift := 16; shift >= 0; shift -= 8 {
		c := float64(v >> shift & 0xFF)
		out += fmt.Sprintf("%02X", int(math.Round(255-(255-c)*share)))
	}
	return out
}

// colourByInterval fills each cell of a decision map's range with a tint
// of its interval's palette colour, and the word none grey: one rule a
// distinct interval of rows, in the order first met.
func (ss *summarySheet) colourByInterval(ref string, rows [][]results.Value) error {
	grey, err := ss.b.conditionalStyle(plainStyle)
	if err != nil {
		return err
	}
	rules := []excelize.ConditionalFormatOptions{{Type: "cell", Criteria: "==", Value: `"none"`, Format: &grey}}
	seen := map[string]bool{"none": true}
	for _, row := range rows {
		for _, v := range row[1:] {
			name := v.String()
			colour, _, ok := results.IntervalStyle(name)
			if seen[name] || !ok {
				continue
			}
			seen[name] = true
			id, err := ss.b.tintStyle(tint(colour, mapTint))
			if err != nil {
				return err
			}
			rules = append(rules, excelize.ConditionalFormatOptions{Type: "cell", Criteria: "==", Value: name, Format: &id})
		}
	}
	return ss.b.f.SetConditionalFormat(ss.name, ref, rules)
}

// tintStyle returns the conditional style that fills a cell with colour,
// made once a colour.
func (b *workbook) tintStyle(colour string) (int, error) {
	if id, ok := b.tints[colour]; ok {
		return id, nil
	}
	id, err := b.f.NewConditionalStyle(&excelize.Style{
		Font: &excelize.Font{Color: "000000"},
		Fill: excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{colour}},
	})
	if err != nil {
		return 0, err
	}
	if b.tints == nil {
		b.tints = map[string]int{}
	}
	b.tints[colour] = id
	return id, nil
}

// spread returns the indexes of at most k of n items, evenly spread, the
// first and the last included.
func spread(n, k int) []int {
	if n <= k {
		out := make([]int, n)
		for i := range out {
			out[i] = i
		}
		return out
	}
	out := make([]int, k)
	for j := range out {
		out[j] = j * (n - 1) / (k - 1)
	}
	return out
}

// intervalValue returns an interval's cell as a number when it is one, so
// that a colour scale sees it; none stays text.
func intervalValue(v results.Value) results.Value { return sheetValue(v, true) }

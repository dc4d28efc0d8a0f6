package diff

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"ckptlab/internal/words"
)

// Formats of a report.
const (
	FormatText = "text"
	FormatMD   = "md"
	FormatJSON = "json"
)

// Formats lists them, for messages.
var Formats = []string{FormatText, FormatMD, FormatJSON}

// Write renders the report in the format.
func Write(w io.Writer, r *Report, format string) error {
	switch format {
	case FormatText:
		return writeText(w, r)
	case FormatMD:
		return writeMarkdown(w, r)
	case FormatJSON:
		return writeJSON(w, r)
	}
	return fmt.Errorf("%q is not a format of diff (want text, md or json)", format)
}

// maxListed is the most lines one part of one experiment lists in text and
// Markdown; the rest are counted. JSON lists every one.
const maxListed = 100

// MarkdownLimit is the most bytes the Markdown report takes: GitHub takes
// 65,536 characters in a pull-request comment.
const MarkdownLimit = 65_536

// part is one part of the report of one experiment, as lines.
type part struct {
	title string   // settings, decisions, break-even envelopes, grid.csv
	head  string   // the part's one-line summary
	lines []string // its details, each one line
	table [][]string
}

// parts returns the four parts of the report of e, in order, and the
// time model's when a side has it.
func parts(e *Experiment) []part {
	out := []part{settingsPart(e), decisionsPart(e), envelopesPart(e), gridPart(e)}
	if e.Time != nil {
		out = append(out, timePart(e))
	}
	return out
}

func settingsPart(e *Experiment) part {
	p := part{title: "settings"}
	if len(e.Settings) == 0 {
		p.head = "unchanged"
		return p
	}
	p.head = count(len(e.Settings)) + " " + words.Plural(len(e.Settings), "key differs", "keys differ")
	for _, s := range e.Settings {
		line := s.Key + ": " + orNone(s.Old) + originText(s.OldOrigin) + " → " + orNone(s.New) + originText(s.NewOrigin)
		if len(s.Added) > 0 {
			line += "; added " + strings.Join(s.Added, ", ")
		}
		if len(s.Removed) > 0 {
			line += "; removed " + strings.Join(s.Removed, ", ")
		}
		p.lines = append(p.lines, line)
	}
	return p
}

func orNone(v string) string {
	if v == "" {
		return "(absent)"
	}
	return v
}

// orEmpty shows an empty cell (schedule_points of no checkpoint) as none.
func orEmpty(v string) string {
	if v == "" {
		return "none"
	}
	return v
}

func originText(o string) string {
	if o == "" {
		return ""
	}
	return " (" + o + ")"
}

func decisionsPart(e *Experiment) part {
	d := e.Decisions
	p := part{title: "decisions"}
	if len(d.Changed)+len(d.OnlyOld)+len(d.OnlyNew) == 0 {
		p.head = "unchanged"
		return p
	}
	p.head = count(len(d.Changed)) + " " + words.Plural(len(d.Changed), "choice", "choices") + " changed"
	p.head += onlyText(len(d.OnlyOld), len(d.OnlyNew), "decision", "decisions")
	keys := make([]Key, len(d.Changed))
	for i, c := range d.Changed {
		keys[i] = c.Key
	}
	short := shortKeys(keys, true)
	for i, c := range d.Changed {
		p.lines = append(p.lines, short[i]+": "+choiceText(c))
	}
	for _, k := range d.OnlyOld {
		p.lines = append(p.lines, "only in the old side: "+fullKey(k))
	}
	for _, k := range d.OnlyNew {
		p.lines = append(p.lines, "only in the new side: "+fullKey(k))
	}
	return p
}

// criterionNames are the words for the criteria of decisions.csv; a
// criterion not listed is named by its prefix.
var criterionNames = map[string]string{
	"best": "expected total", "worst_case": "worst case", "tail": "tail",
	"optimal": "optimum over every interval", "young": "Young", "daly": "Daly", "schedule": "schedule",
}

// choiceText writes a changed choice in the number style: expected total
// picks 6 → 4 (809.1 → 845.5).
func choiceText(c DecisionChange) string {
	name := criterionNames[c.Criterion]
	if name == "" {
		name = strings.ReplaceAll(c.Criterion, "_", " ")
	}
	var choice, cost []string
	for i := range c.New {
		o, n := c.Old[i], c.New[i]
		if strings.HasSuffix(n.Column, "_total") {
			cost = append(cost, number(o.Column, o.Value)+" → "+number(n.Column, n.Value))
			continue
		}
		if len(c.New)-countTotals(c.New) == 1 {
			choice = append(choice, number(o.Column, o.Value)+" → "+number(n.Column, n.Value))
		} else if o.Value != n.Value {
			choice = append(choice, n.Column+" "+orEmpty(number(o.Column, o.Value))+" → "+orEmpty(number(n.Column, n.Value)))
		}
	}
	verb := " picks "
	if len(cost) == 0 && len(c.New) == 1 {
		verb = " " // a continuous estimate, not a pick: Young 4.90 → 6.93
	}
	out := name + verb + strings.Join(choice, ", ")
	if len(cost) > 0 {
		out += " (" + strings.Join(cost, ", ") + ")"
	}
	return out
}

func countTotals(cells []Cell) int {
	n := 0
	for _, c := range cells {
		if strings.HasSuffix(c.Column, "_total") {
			n++
		}
	}
	return n
}

func envelopesPart(e *Experiment) part {
	v := e.Envelopes
	p := part{title: "break-even envelopes"}
	if len(v.Changed)+len(v.OnlyOld)+len(v.OnlyNew) == 0 {
		p.head = "unchanged"
		return p
	}
	p.head = count(len(v.Changed)) + " changed" + onlyText(len(v.OnlyOld), len(v.OnlyNew), "envelope", "envelopes")
	keys := make([]Key, len(v.Changed))
	for i, c := range v.Changed {
		keys[i] = c.Key
	}
	short := shortKeys(keys, false)
	for i, c := range v.Changed {
		line := piecesText(c.Old) + " → " + piecesText(c.New)
		if short[i] != "" {
			line = short[i] + ": " + line
		}
		p.lines = append(p.lines, line)
	}
	for _, k := range v.OnlyOld {
		p.lines = append(p.lines, "only in the old side: "+fullKey(k))
	}
	for _, k := range v.OnlyNew {
		p.lines = append(p.lines, "only in the new side: "+fullKey(k))
	}
	return p
}

// piecesText writes pieces with their break-evens in the number style:
// 6 on [11/18 (0.6111), 11/12 (0.9167)].
func piecesText(ps []Piece) string {
	s := make([]string, len(ps))
	for i, p := range ps {
		s[i] = p.Interval + " on [" + breakpoint(p.From) + ", " + breakpoint(p.To) + "]"
	}
	return strings.Join(s, ", ")
}

func gridPart(e *Experiment) part {
	g := e.Grid
	p := part{title: "grid.csv"}
	changed := 0
	for _, c := range g.Columns {
		if c.Changed > 0 {
			changed++
		}
	}
	only := onlyText(int(g.OnlyOld), int(g.OnlyNew), "point", "points")
	if changed == 0 && only == "" && len(g.OnlyOldColumns)+len(g.OnlyNewColumns) == 0 {
		p.head = "unchanged (" + pointsText(g.Points) + ")"
		return p
	}
	if changed == 0 {
		p.head = pointsText(g.Points) + " in both unchanged" + only
	} else {
		p.head = count(maxChanged(g)) + " of " + pointsText(g.Points) + " changed in " + count(changed) + " " + words.Plural(changed, "column", "columns") + only
	}
	if len(g.OnlyOldColumns) > 0 {
		p.lines = append(p.lines, "columns only in the old side: "+strings.Join(g.OnlyOldColumns, ", "))
	}
	if len(g.OnlyNewColumns) > 0 {
		p.lines = append(p.lines, "columns only in the new side: "+strings.Join(g.OnlyNewColumns, ", "))
	}
	var ats []Key
	for _, c := range g.Columns {
		for _, ch := range []*Change{c.Largest, c.LargestRelative, c.First} {
			if ch != nil {
				ats = append(ats, ch.At)
			}
		}
	}
	short := shortKeys(ats, true)
	next := func() string { s := short[0]; short = short[1:]; return s }
	p.table = [][]string{{"column", "changed", "largest change", "at", "largest relative change", "at"}}
	for _, c := range g.Columns {
		if c.Changed == 0 {
			continue
		}
		row := []string{c.Name, count(c.Changed) + " of " + count(g.Points), "", "", "", ""}
		if l := c.Largest; l != nil {
			row[2] = signedNumber(c.Name, l.Delta) + " (" + number(c.Name, l.Old) + " → " + number(c.Name, l.New) + ")"
			row[3] = next()
		}
		if l := c.LargestRelative; l != nil {
			row[4] = fmt.Sprintf("%+.1f%% (%s → %s)", 100*l.Relative, number(c.Name, l.Old), number(c.Name, l.New))
			row[5] = next()
		}
		if l := c.First; l != nil {
			row[2] = "first: " + number(c.Name, l.Old) + " → " + number(c.Name, l.New)
			row[3] = next()
		}
		p.table = append(p.table, row)
	}
	if len(p.table) == 1 {
		p.table = nil
	}
	return p
}

// maxChanged is the most points one column changed at: a lower bound of
// the points that changed.
func maxChanged(g Grid) int64 {
	var n int64
	for _, c := range g.Columns {
		n = max(n, c.Changed)
	}
	return n
}

func onlyText(old, new int, one, many string) string {
	s := ""
	if old > 0 {
		s += "; " + count(old) + " " + words.Plural(old, one, many) + " only in the old side"
	}
	if new > 0 {
		s += "; " + count(new) + " " + words.Plural(new, one, many) + " only in the new side"
	}
	return s
}

// pointsText writes a count of grid points: 1,200 points.
func pointsText(n int64) string {
	return count(n) + " " + words.Plural(int(n), "point", "points")
}

// signed writes a change with its sign, in the shortest form.
func signed(d float64) string {
	if math.IsInf(d, 0) || math.IsNaN(d) {
		return strconv.FormatFloat(d, 'g', -1, 64) // +Inf, -Inf, NaN
	}
	s := strconv.FormatFloat(d, 'f', -1, 64)
	if math.Abs(d) >= 1 && d != math.Trunc(d) {
		s = strconv.FormatFloat(d, 'f', 1, 64)
	}
	if d >= 0 {
		s = "+" + s
	}
	return s
}

// shortKeys writes each key with only the columns whose values differ
// among keys (probability as p = 0.75); when none does, the last column,
// or nothing unless last.
func shortKeys(keys []Key, last bool) []string {
	if len(keys) == 0 {
		return nil
	}
	varies := make([]bool, len(keys[0]))
	for _, k := range keys[1:] {
		for i := range k {
			if i < len(varies) && k[i].Value != keys[0][i].Value {
				varies[i] = true
			}
		}
	}
	if !slices.Contains(varies, true) && last {
		varies[len(varies)-1] = true
	}
	out := make([]string, len(keys))
	for j, k := range keys {
		var parts []string
		for i, c := range k {
			if i < len(varies) && varies[i] {
				parts = append(parts, cellText(c))
			}
		}
		out[j] = strings.Join(parts, ", ")
	}
	return out
}

func fullKey(k Key) string {
	parts := make([]string, len(k))
	for i, c := range k {
		parts[i] = cellText(c)
	}
	return strings.Join(parts, ", ")
}

func cellText(c Cell) string {
	if c.Column == "probability" {
		return "p = " + number(c.Column, c.Value)
	}
	return c.Column + " " + number(c.Column, c.Value)
}

// header writes the line that names the pair.
func header(e *Experiment) string {
	switch e.Status {
	case StatusAdded:
		return e.Name + ": " + e.New + " is new (no such file at the old revision)"
	case StatusRemoved:
		return e.Name + ": " + e.Old + " is deleted (no such file now)"
	}
	return e.Name + ": " + e.Old + " → " + e.New
}

// sameLine is the one line of an experiment that did not change.
func sameLine(e *Experiment) string {
	return e.Name + ": unchanged (" + e.Old + " → " + e.New + ", " + pointsText(e.Grid.Points) + ")"
}

// writeText writes the report as plain text: an experiment that did not
// change is one line, one that did is a block of its parts.
func writeText(w io.Writer, r *Report) error {
	var b strings.Builder
	block := false // the last experiment written was a block
	for i := range r.Experiments {
		e := &r.Experiments[i]
		if e.Status == StatusSame {
			if block {
				b.WriteByte('\n')
			}
			b.WriteString(sameLine(e) + "\n")
			block = false
			continue
		}
		if i > 0 {
			b.WriteByte('\n')
		}
		block = true
		b.WriteString(header(e) + "\n")
		if e.Status == StatusAdded || e.Status == StatusRemoved {
			continue
		}
		for _, p := range parts(e) {
			b.WriteString(p.title + ": " + p.head + "\n")
			for j, l := range p.lines {
				if j == maxListed {
					fmt.Fprintf(&b, "  … and %d more\n", len(p.lines)-maxListed)
					break
				}
				b.WriteString("  " + l + "\n")
			}
			writeAligned(&b, p.table)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeAligned writes a table as aligned columns, two spaces apart,
// benchstat's way.
func writeAligned(b *strings.Builder, table [][]string) {
	if len(table) == 0 {
		return
	}
	width := make([]int, len(table[0]))
	for _, row := range table {
		for i, c := range row {
			width[i] = max(width[i], len([]rune(c)))
		}
	}
	for _, row := range table {
		line := " "
		for i, c := range row {
			line += " " + c + strings.Repeat(" ", width[i]-len([]rune(c))+1)
		}
		b.WriteString(strings.TrimRight(line, " ") + "\n")
	}
}

// writeMarkdown writes the report as GitHub Markdown, for a pull-request
// comment or a job summary, under MarkdownLimit: in full if it fits, else
// in the first of the shorter styles that fits (see mdStyle).
func writeMarkdown(w io.Writer, r *Report) error {
	var out string
	for style := mdFull; style <= mdTable; style++ {
		var ok bool
		if out, ok = markdown(r, style); ok {
			break
		}
	}
	_, err := io.WriteString(w, out)
	return err
}

// mdStyle is how much of the report the Markdown shows.
type mdStyle int

const (
	// mdFull shows every part with its details, up to maxListed lines a
	// part, folded in <details> past foldAfter.
	mdFull mdStyle = iota
	// mdFolded folds every part's details and shows foldAfter lines a part.
	mdFolded
	// mdSummary shows each part's one-line summary, no details.
	mdSummary
	// mdTable shows one table row per experiment, and counts the rows
	// left out past the limit.
	mdTable
)

// markdown writes the report in a style; ok is false when it does not fit
// under MarkdownLimit (mdTable always fits).
func markdown(r *Report, style mdStyle) (string, bool) {
	var b strings.Builder
	changed := 0
	var same []*Experiment
	for i := range r.Experiments {
		if e := &r.Experiments[i]; e.Status == StatusSame {
			same = append(same, e)
		} else {
			changed++
		}
	}
	fmt.Fprintf(&b, "## ckptlab diff: %s of %s %s changed\n\n", count(changed), count(len(r.Experiments)), words.Plural(len(r.Experiments), "experiment", "experiments"))
	if style > mdFull {
		b.WriteString("Shortened to fit a pull-request comment: `ckptlab diff` without `--format md` prints every line.\n\n")
	}
	if style == mdTable {
		return markdownTable(&b, r), true
	}
	for i := range r.Experiments {
		e := &r.Experiments[i]
		if e.Status == StatusSame {
			continue
		}
		fmt.Fprintf(&b, "### %s\n\n%s\n\n", mdEscape(e.Name), mdEscape(strings.TrimPrefix(header(e), e.Name+": ")))
		if e.Status != StatusAdded && e.Status != StatusRemoved {
			for _, p := range parts(e) {
				markdownPart(&b, p, style)
			}
		}
		if b.Len() >= MarkdownLimit {
			return "", false
		}
	}
	switch {
	case len(same) > 0 && style == mdFull:
		fmt.Fprintf(&b, "### Unchanged (%s)\n\n", count(len(same)))
		for _, e := range same {
			b.WriteString("- " + mdEscape(sameLine(e)) + "\n")
		}
		b.WriteByte('\n')
	case len(same) > 0:
		names := make([]string, len(same))
		for i, e := range same {
			names[i] = e.Name
		}
		fmt.Fprintf(&b, "### Unchanged (%s)\n\n%s\n", count(len(same)), mdEscape(strings.Join(names, ", ")))
	}
	return b.String(), b.Len() < MarkdownLimit
}

// markdownTable writes the report after b's heading as one row per
// experiment, the unchanged ones counted on one line, and counts the rows
// left out to stay under MarkdownLimit.
func markdownTable(b *strings.Builder, r *Report) string {
	var same []string
	for i := range r.Experiments {
		if e := &r.Experiments[i]; e.Status == StatusSame {
			same = append(same, e.Name)
		}
	}
	changed := len(r.Experiments) - len(same)
	b.WriteString("| experiment | settings | decisions | break-even envelopes | grid.csv |\n|" + strings.Repeat(" --- |", 5) + "\n")
	rows := 0
	for i := range r.Experiments {
		e := &r.Experiments[i]
		var row string
		switch e.Status {
		case StatusSame:
			continue
		case StatusAdded:
			row = "| " + mdEscape(e.Name) + " | new | | | |\n"
		case StatusRemoved:
			row = "| " + mdEscape(e.Name) + " | deleted | | | |\n"
		default:
			cells := []string{mdEscape(e.Name)}
			for _, p := range parts(e) {
				cells = append(cells, mdEscape(p.head))
			}
			row = "| " + strings.Join(cells, " | ") + " |\n"
		}
		if b.Len()+len(row) > MarkdownLimit-1000 {
			fmt.Fprintf(b, "\n… and %s more changed experiments, left out to keep this under %s characters.\n", count(changed-rows), count(MarkdownLimit))
			break
		}
		b.WriteString(row)
		rows++
	}
	if len(same) > 0 {
		list := ": " + mdEscape(strings.Join(same, ", "))
		if b.Len()+len(list) > MarkdownLimit-200 {
			list = ""
		}
		fmt.Fprintf(b, "\n%s unchanged%s\n", count(len(same)), list)
	}
	return b.String()
}

// foldAfter is the most detail lines a part shows unfolded, and all it
// shows when folded to fit.
const foldAfter = 10

func markdownPart(b *strings.Builder, p part, style mdStyle) {
	fmt.Fprintf(b, "**%s**: %s\n\n", p.title, mdEscape(p.head))
	rows := max(len(p.table)-1, 0)
	n := len(p.lines) + rows
	if n == 0 || style >= mdSummary {
		return
	}
	limit := maxListed
	if style == mdFolded {
		limit = foldAfter
	}
	fold := n > foldAfter || style == mdFolded
	if fold {
		fmt.Fprintf(b, "<details><summary>%s %s</summary>\n\n", count(n), words.Plural(n, "line", "lines"))
	}
	for j, l := range p.lines {
		if j == limit {
			fmt.Fprintf(b, "- … and %s more\n", count(len(p.lines)-limit))
			break
		}
		b.WriteString("- " + mdEscape(l) + "\n")
	}
	if len(p.lines) > 0 {
		b.WriteByte('\n')
	}
	for j, row := range p.table {
		if j == limit+1 {
			fmt.Fprintf(b, "\n… and %s more rows\n", count(rows-limit))
			break
		}
		cells := make([]string, len(row))
		for i, c := range row {
			cells[i] = mdEscape(c)
		}
		b.WriteString("| " + strings.Join(cells, " | ") + " |\n")
		if j == 0 {
			b.WriteString("|" + strings.Repeat(" --- |", len(row)) + "\n")
		}
	}
	if len(p.table) > 0 {
		b.WriteByte('\n')
	}
	if fold {
		b.WriteString("</details>\n\n")
	}
}

// mdEscape keeps text from being read as Markdown or HTML.
func mdEscape(s string) string {
	r := strings.NewReplacer("|", `\|`, "<", "&lt;", ">", "&gt;", "*", `\*`, "_", `\_`, "`", "\\`", "[", `\[`)
	return r.Replace(s)
}

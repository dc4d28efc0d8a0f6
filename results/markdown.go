package results

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"ckptlab/internal/satmath"
)

// MarkdownLimit is the most bytes WriteMarkdown writes: below the 1 MiB
// GitHub allows one step's job summary, with room for what a job adds.
const MarkdownLimit = 1_000_000

// markdownBytes bounds what the Markdown holds besides its collected rows
// and a view's block: the document, in a buffer of up to twice its limit
// as it grows, the section being written, and the file's buffer.
const markdownBytes = 3*MarkdownLimit + 4*fileBytes

// MarkdownBound bounds the memory writing the Markdown holds: a view's
// block at a time, and a table's first rows at a time.
func MarkdownBound(s Sizes) int64 {
	rows := max(CollectBytes(s.Breakeven, breakevenRows), CollectBytes(s.Decisions, decisionRows))
	n := satmath.Add(markdownBytes, rows)
	n = satmath.Add(n, s.Views.BlocksBytes(1))
	return satmath.Add(n, max(s.Decisions.Held, s.Breakeven.Held))
}

// The most rows of the break-even and decisions tables the Markdown reads
// before it shows their first.
const (
	breakevenRows = MarkdownLimit / 100
	decisionRows  = MarkdownLimit / 200
)

// Bounds of the Markdown: a table longer than foldRows is folded in a
// <details> element, and at most mermaidCharts charts of a kind are drawn.
const (
	foldRows      = 12
	mermaidCharts = 3
)

// The Markdown is compact: a table shows at most markdownRows rows and
// markdownParts parts of columns, a view at most markdownBlocks blocks, and
// a note names the CSV file that holds the rest. Every shipped experiment's
// Markdown so stays under the 65,536 characters of a GitHub comment.
const (
	markdownRows   = 24
	markdownParts  = 3
	markdownBlocks = 4
)

// viewFiles names the CSV file that holds every figure of each view.
var viewFiles = map[string]string{
	"recovery": "failures.csv", "matrix": "failures.csv", "cost": "grid.csv", "probability": "grid.csv", "partition": "failures.csv",
}

// WriteMarkdown writes the set as GitHub-flavoured Markdown, ready to
// append to a CI job summary: the experiment (its description and, folded,
// its settings), the headline answers, the break-even table, a Mermaid
// chart of expected total against failure probability, and the lesson's
// views, a heading per view and per block a bold title line and a table,
// long tables folded in <details>. Numbers read as the lesson prints them:
// a Float column with Decimals d shows d decimals, one with all its digits
// keeps a ".0" when whole (1.0, 0.75), and a marked cell, the best
// interval's expected total, is bold.
//
// The whole stays within MarkdownLimit bytes: sections that would pass it
// are left out, and a note at the end names them.
func WriteMarkdown(w io.Writer, s Set) error {
	md := &markdown{limit: MarkdownLimit}
	md.section(func(b *bytes.Buffer) {
		fmt.Fprintf(b, "## ckptlab: %s\n\n", escapeMarkdown(s.Name))
		if d := strings.TrimSpace(s.Description); d != "" {
			fmt.Fprintf(b, "%s\n\n", escapeMarkdown(d))
		}
		fmt.Fprintf(b, "ckptlab %s, configuration sha256 `%s`\n", s.Version, s.ConfigHash())
		if len(s.Config) > 0 {
			settings := Block{Columns: []Column{{Name: "key", Kind: Text}, {Name: "value", Kind: Text}, {Name: "origin", Kind: Text}}}
			for _, kv := range s.Config {
				settings.Rows = append(settings.Rows, []Value{TextValue(kv.Key), TextValue(PlainValue(kv.Value)), TextValue(kv.Origin)})
			}
			b.WriteString("\n<details><summary>Settings</summary>\n\n")
			writeMarkdownTable(b, settings, true)
			b.WriteString("\n</details>\n")
		}
	}, "the experiment")
	if len(s.Headline) > 0 {
		md.section(func(b *bytes.Buffer) {
			b.WriteString("\n### Answers\n\n")
			for _, line := range s.Headline {
				// A line that ends in a colon titles the lines that follow
				// it (a source and state size): a heading of its own, not
				// one more bullet beside them.
				if title, ok := strings.CutSuffix(line, ":"); ok {
					fmt.Fprintf(b, "\n**%s**\n\n", escapeMarkdown(title))
					continue
				}
				// A line indented by two spaces details the line above it.
				if detail, ok := strings.CutPrefix(line, "  "); ok {
					fmt.Fprintf(b, "  - %s\n", escapeMarkdown(detail))
					continue
				}
				fmt.Fprintf(b, "- %s\n", escapeMarkdown(line))
			}
		}, "the answers")
	}
	if len(s.Breakeven.Columns) > 0 {
		md.section(func(b *bytes.Buffer) {
			b.WriteString("\n### Break-even: the best declared interval by failure probability\n")
			blk, more := Collect(s.Breakeven, breakevenRows)
			blk, more = blk.head(markdownRows), more+max(0, len(blk.Rows)-markdownRows)
			blk = DropConstantKeys(blk, 4)
			blk.Title = strings.TrimSuffix(strings.TrimPrefix(blk.Title, " ("), ")")
			writeMarkdownBlock(b, blk, false)
			if more > 0 {
				fmt.Fprintf(b, "\n%d more rows in breakeven.csv.\n", more)
			}
		}, "the break-even table")
	}
	// The charts of the questions the headline answers: expected total
	// against failure probability, and a worker sweep's recovery of the
	// busiest worker against workers.
	for _, x := range []string{"failure probability", "workers"} {
		drawn := 0
		for _, c := range s.Charts {
			if !c.Numeric() || c.Data.Columns[0].Name != x {
				continue
			}
			if drawn++; drawn > mermaidCharts {
				md.cut = append(md.cut, fmt.Sprintf("charts against %s past the first %d", x, mermaidCharts))
				break
			}
			md.section(func(b *bytes.Buffer) { writeMermaid(b, c) }, "a chart")
		}
	}
	if len(s.Decisions.Columns) > 0 {
		md.section(func(b *bytes.Buffer) {
			b.WriteString("\n### Decisions: the interval each criterion picks\n")
			blk, more := Collect(s.Decisions, decisionRows)
			blk, more = blk.head(markdownRows), more+max(0, len(blk.Rows)-markdownRows)
			blk = DropConstantKeys(blk, 4)
			blk.Title = strings.TrimSuffix(strings.TrimPrefix(blk.Title, " ("), ")")
			blk.Keys++ // and the probability
			writeMarkdownBlock(b, blk, false)
			if more > 0 {
				fmt.Fprintf(b, "\n%d more rows in decisions.csv.\n", more)
			}
		}, "the decisions table")
	}
	writeProcessMarkdown(md, s)
	for _, v := range s.Views {
		md.section(func(b *bytes.Buffer) { fmt.Fprintf(b, "\n### %s\n", escapeMarkdown(v.Title)) }, "the "+v.Name+" view")
		n := 0
		for blk := range v.All() {
			if n++; n > markdownBlocks {
				md.section(func(b *bytes.Buffer) {
					fmt.Fprintf(b, "\n*The view's other blocks are in %s.*\n", viewFiles[v.Name])
				}, "blocks of the "+v.Name+" view")
				break
			}
			md.section(func(b *bytes.Buffer) { writeCompactBlock(b, blk, viewFiles[v.Name]) }, "blocks of the "+v.Name+" view")
			if md.full { // the view's other blocks are cut with this one
				break
			}
		}
	}
	return md.flush(w)
}

// markdown is a document of sections, each kept whole or left out, that
// stays within a limit of bytes.
type markdown struct {
	buf   bytes.Buffer
	limit int
	cut   []string // what was left out, each named once
	full  bool
}

// noteRoom is the room kept for the note on what was left out.
const noteRoom = 4096

// section adds what write writes, if it fits; otherwise it notes what.
func (md *markdown) section(write func(*bytes.Buffer), what string) {
	if !md.full {
		var b bytes.Buffer
		write(&b)
		if md.buf.Len()+b.Len() <= md.limit-noteRoom {
			md.buf.Write(b.Bytes())
			return
		}
		md.full = true
	}
	if len(md.cut) == 0 || md.cut[len(md.cut)-1] != what {
		md.cut = append(md.cut, what)
	}
}

// flush writes the document and the note on what was left out.
func (md *markdown) flush(w io.Writer) error {
	bw := bufio.NewWriter(w)
	bw.Write(md.buf.Bytes())
	if len(md.cut) > 0 {
		note := fmt.Sprintf("\n> **Cut to stay within %d bytes, below the 1 MiB limit of a job summary:** %s. The CSV files and the workbook hold everything.\n",
			md.limit, strings.Join(md.cut, ", "))
		if len(note) > noteRoom {
			note = note[:noteRoom-8] + "…\n"
		}
		bw.WriteString(note)
	}
	return bw.Flush()
}

// writeCompactBlock writes a block of a view as the lesson prints it, at
// most markdownRows rows and markdownParts parts of its columns, and a note
// naming file, which holds the rest, when it leaves some out.
func writeCompactBlock(b *bytes.Buffer, blk Block, file string) {
	rows, parts := len(blk.Rows), columnParts(blk)
	short := blk.head(markdownRows)
	if len(parts) > markdownParts {
		var cols []int
		for _, p := range parts[:markdownParts] {
			for _, j := range p {
				if !slices.Contains(cols, j) {
					cols = append(cols, j)
				}
			}
		}
		short = short.columns(cols)
	}
	writeMarkdownBlock(b, short, true)
	if len(short.Rows) < rows || len(short.Columns) < len(blk.Columns) {
		fmt.Fprintf(b, "\n*Shown: %d of %d rows, %d of %d columns; %s holds every figure.*\n",
			len(short.Rows), rows, len(short.Columns), len(blk.Columns), file)
	}
}

// head returns the block with its first n rows, and the cells marked among
// them.
func (b Block) head(n int) Block {
	if len(b.Rows) <= n {
		return b
	}
	out := b
	out.Rows = b.Rows[:n]
	out.Marked = nil
	for _, m := range b.Marked {
		if m[0] < n {
			out.Marked = append(out.Marked, m)
		}
	}
	return out
}

// writeMarkdownBlock writes a block's bold title, if any, and its table,
// folded in a <details> element when it is long. printed shows numbers as
// the lesson prints them, for the lesson's own tables; otherwise they are
// shown in the number style.
func writeMarkdownBlock(b *bytes.Buffer, blk Block, printed bool) {
	fold := len(blk.Rows) > foldRows
	if fold {
		title := blk.Title
		if title == "" {
			title = "the table"
		}
		fmt.Fprintf(b, "\n<details><summary>%s (%d rows)</summary>\n\n", escapeMarkdown(title), len(blk.Rows))
	} else if blk.Title != "" {
		fmt.Fprintf(b, "\n**%s**\n\n", escapeMarkdown(blk.Title))
	} else {
		b.WriteString("\n")
	}
	parts := columnParts(blk)
	for i, part := range parts {
		if len(parts) > 1 {
			if i > 0 {
				b.WriteString("\n")
			}
			fmt.Fprintf(b, "*Part %d of %d: columns %s*\n\n", i+1, len(parts), escapeMarkdown(partName(blk, part)))
		}
		writeMarkdownTable(b, blk.columns(part), printed)
	}
	if fold {
		b.WriteString("\n</details>\n")
	}
}

// maxMarkdownColumns is the most columns a Markdown table has: as many as
// a pull-request comment shows without scrolling sideways, and as the
// widest of the lesson's own tables (the probability table), which stays
// whole.
const maxMarkdownColumns = 8

// columnParts splits a block's columns into parts of at most
// maxMarkdownColumns, each the block's key columns (Keys) and a run of the
// others, as even as the runs allow: a run keeps together the columns
// whose names start with the same word (best interval, best expected
// total). A block that fits is one part. Each part lists column indexes.
func columnParts(blk Block) [][]int {
	keys := min(max(blk.Keys, 1), len(blk.Columns))
	if len(blk.Columns) <= maxMarkdownColumns || keys >= maxMarkdownColumns-1 {
		return [][]int{nil}
	}
	room := maxMarkdownColumns - keys
	rest := len(blk.Columns) - keys
	n := (rest + room - 1) / room
	even := (rest + n - 1) / n
	var parts [][]int
	var run []int
	for j := keys; j < len(blk.Columns); {
		group := j + 1
		for group < len(blk.Columns) && firstWord(blk.Columns[group].Name) == firstWord(blk.Columns[j].Name) {
			group++
		}
		group = min(group, j+room) // a run longer than a part is cut
		if len(run) > 0 && (len(run)+group-j > room || len(run) >= even) {
			parts = append(parts, run)
			run = nil
		}
		for ; j < group; j++ {
			run = append(run, j)
		}
	}
	parts = append(parts, run)
	for i, p := range parts {
		cols := make([]int, 0, keys+len(p))
		for j := range keys {
			cols = append(cols, j)
		}
		parts[i] = append(cols, p...)
	}
	return parts
}

// firstWord returns a column name's first word: "best" of "best interval"
// and of "best_expected_total".
func firstWord(name string) string {
	word, _, _ := strings.Cut(strings.ReplaceAll(name, "_", " "), " ")
	return word
}

// partName names a part of a split table by the first and last of its
// columns past the keys: "best interval to tail total".
func partName(blk Block, part []int) string {
	keys := min(max(blk.Keys, 1), len(blk.Columns))
	first, last := blk.Columns[part[keys]].Name, blk.Columns[part[len(part)-1]].Name
	if first == last {
		return first
	}
	return first + " to " + last
}

// columns returns the block with only the given columns, in their order,
// and the cells marked among them; nil keeps every column.
func (b Block) columns(cols []int) Block {
	if cols == nil {
		return b
	}
	out := Block{Title: b.Title, Keys: b.Keys}
	at := make(map[int]int, len(cols))
	for i, j := range cols {
		out.Columns = append(out.Columns, b.Columns[j])
		at[j] = i
	}
	out.Rows = make([][]Value, len(b.Rows))
	for r, row := range b.Rows {
		cells := make([]Value, len(cols))
		for i, j := range cols {
			cells[i] = row[j]
		}
		out.Rows[r] = cells
	}
	for _, m := range b.Marked {
		if i, ok := at[m[1]]; ok {
			out.Marked = append(out.Marked, [2]int{m[0], i})
		}
	}
	return out
}

// writeMarkdownTable writes a block as a pipe table, numbers right-aligned.
func writeMarkdownTable(w *bytes.Buffer, b Block, printed bool) {
	marked := make(map[[2]int]bool, len(b.Marked))
	for _, m := range b.Marked {
		marked[m] = true
	}
	w.WriteString("|")
	for _, c := range b.Columns {
		fmt.Fprintf(w, " %s |", escapeMarkdown(c.Name))
	}
	w.WriteString("\n|")
	for _, c := range b.Columns {
		if c.Kind == Int || c.Kind == Float {
			w.WriteString(" ---: |")
		} else {
			w.WriteString(" --- |")
		}
	}
	w.WriteString("\n")
	var buf []byte
	for i, row := range b.Rows {
		w.WriteString("|")
		for j, v := range row {
			if printed {
				buf = appendLessonText(buf[:0], v, b.Columns[j])
			} else {
				buf = appendStyled(buf[:0], v, b.Columns[j])
			}
			text := escapeMarkdown(string(buf))
			if marked[[2]int{i, j}] {
				text = "**" + text + "**"
			}
			fmt.Fprintf(w, " %s |", text)
		}
		w.WriteString("\n")
	}
}

// appendStyled appends a value in the number style of its column; a text
// column with a quantity (Young's and Daly's estimates) shows the numbers
// among its texts so, and its other texts as they are.
func appendStyled(dst []byte, v Value, c Column) []byte {
	q := c.Shown()
	switch v.Kind {
	case Float:
		return q.Append(dst, v.Float)
	case Int:
		if q != General {
			return append(dst, q.FormatInt(v.Int)...)
		}
	case Text:
		if c.Quantity != FromKind && IsDecimal(v.Text) {
			if f, err := strconv.ParseFloat(v.Text, 64); err == nil {
				return q.Append(dst, f)
			}
		}
	}
	return v.AppendText(dst)
}

// appendLessonText appends a value as the lesson's Python prints it: a
// Float column with Decimals d as round(x, d); one with every digit as
// Python's repr, which keeps ".0" on a whole number.
func appendLessonText(dst []byte, v Value, c Column) []byte {
	if v.Kind != Float {
		return v.AppendText(dst)
	}
	if c.Decimals >= 0 {
		return strconv.AppendFloat(dst, v.Float, 'f', c.Decimals, 64)
	}
	start := len(dst)
	dst = v.AppendText(dst)
	if !math.IsInf(v.Float, 0) && !math.IsNaN(v.Float) && !strings.ContainsRune(string(dst[start:]), '.') {
		dst = append(dst, ".0"...)
	}
	return dst
}

// markdownEscaper escapes the characters that would end a table cell or
// start emphasis, code or a link.
var markdownEscaper = strings.NewReplacer(
	`\`, `\\`, "|", `\|`, "*", `\*`, "_", `\_`, "`", "\\`", "[", `\[`, "]", `\]`, "<", "&lt;", ">", "&gt;",
)

// escapeMarkdown makes text read as itself inside a Markdown table or
// heading.
func escapeMarkdown(s string) string { return markdownEscaper.Replace(s) }

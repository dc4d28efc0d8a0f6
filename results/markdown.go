package results

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// WriteMarkdown writes the set's views as GitHub-flavoured Markdown, ready
// to append to a CI job summary: a heading for the experiment, a heading
// per view, and per block a bold title line and a table. Numbers read as
// the lesson prints them: a Float column with Decimals d shows d decimals,
// one with all its digits keeps a ".0" when whole (1.0, 0.75), and a
// marked cell, the best interval's expected total, is bold.
func WriteMarkdown(w io.Writer, s Set) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "## ckptlab: %s\n\n", escapeMarkdown(s.Name))
	fmt.Fprintf(bw, "ckptlab %s, configuration sha256 `%s`\n", s.Version, s.ConfigHash())
	for _, v := range s.Views {
		fmt.Fprintf(bw, "\n### %s\n", escapeMarkdown(v.Title))
		for _, b := range v.Blocks {
			fmt.Fprintf(bw, "\n**%s**\n\n", escapeMarkdown(b.Title))
			writeMarkdownTable(bw, b)
		}
	}
	return bw.Flush()
}

// writeMarkdownTable writes a block as a pipe table, numbers right-aligned.
func writeMarkdownTable(w *bufio.Writer, b Block) {
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
			buf = appendLessonText(buf[:0], v, b.Columns[j])
			text := escapeMarkdown(string(buf))
			if marked[[2]int{i, j}] {
				text = "**" + text + "**"
			}
			fmt.Fprintf(w, " %s |", text)
		}
		w.WriteString("\n")
	}
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

package results

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
)

// ProcessFiles are the tables of the time model of failures (SPEC 15),
// which --format csv writes after breakeven.csv when the model is on.
var ProcessFiles = []string{"process.csv", "process_decisions.csv"}

// FilesOf returns Files, with the time model's tables after breakeven.csv
// when process is set and the formats hold csv.
func FilesOf(name string, formats []string, process bool) []string {
	out := Files(name, formats)
	if at := slices.Index(out, "breakeven.csv"); process && at >= 0 {
		out = slices.Insert(out, at+1, ProcessFiles...)
	}
	return out
}

// hasProcess reports whether the set holds the time model's tables.
func (s Set) hasProcess() bool { return s.Process.Columns != nil }

// Files returns the files the set writes in the given formats: Files of
// its name, with the time model's tables when it has them.
func (s Set) Files(formats []string) []string { return FilesOf(s.Name, formats, s.hasProcess()) }

// processKeys is the number of leading columns of the time model's tables
// that name a row: the source's keys and the failure process.
const processKeys = 8

// writeProcessMarkdown adds the time model's answers to a Markdown
// document: process_decisions.csv as a table, its constant keys in the
// title; nothing without the model.
func writeProcessMarkdown(md *markdown, s Set) {
	if !s.hasProcess() {
		return
	}
	md.section(func(b *bytes.Buffer) {
		b.WriteString("\n### Failures in time: the interval that loses the least time\n")
		blk, more := Collect(s.ProcessDecisions, MarkdownLimit/200)
		blk = DropConstantKeys(blk, processKeys)
		blk.Title = strings.TrimSuffix(strings.TrimPrefix(blk.Title, " ("), ")")
		writeMarkdownBlock(b, blk, false)
		if more > 0 {
			fmt.Fprintf(b, "\n%d more rows in process_decisions.csv.\n", more)
		}
	}, "the time model's table")
}

package results

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"

	"ckptlab/answer"
)

// Set is everything a run writes for one experiment.
type Set struct {
	// Name names the output folder and the workbook; the loader has
	// checked that it cannot leave the output folder.
	Name        string
	Description string
	Grid        Table
	Failures    Table
	// Decisions and Breakeven are decisions.csv and breakeven.csv (docs/decisions.md):
	// the answers the grid leads to. A zero Table (no Columns) is not written.
	Decisions Table
	Breakeven Table
	// Process and ProcessDecisions are process.csv and
	// process_decisions.csv, the time model's tables (SPEC 15); zero
	// Tables without the model, and then not written.
	Process, ProcessDecisions Table
	// BestIntervals is Decisions's rows with only the columns seed,
	// subscribers, periods, state_rows, probability and best_interval,
	// made at less cost than the whole decisions: the summary's decision
	// maps read it, so that a workbook makes its decisions once, for the
	// decisions sheet. It is not written. A zero Table: the maps read
	// Decisions.
	BestIntervals Table
	// Answer is the run's answer, computed once: the envelopes and the
	// recommended intervals every writer names. nil names none.
	Answer *answer.Answer
	// Headline is the run's answer in words, one line each, as ckptlab run
	// prints it on stdout after the experiment: a dozen lines at most.
	Headline []string
	// KeyFigures is the summary's block of key figures: the best interval
	// against no checkpoint and the runner-up (runner.Result.KeyFigures).
	KeyFigures Block
	Views      []View
	// Charts are the figures that answer the experiment's questions, built
	// from the same results as Views and shown with them.
	Charts []Chart
	// TimeCharts are the time sheet's charts: the share of time lost
	// against the interval, a line per MTBF (SPEC 15); nil without the
	// time model.
	TimeCharts []Chart
	// WhatIf is the what-if sheet's figures, or nil for no such sheet.
	WhatIf *WhatIf
	// Config is the resolved configuration, key and value in YAML flow
	// syntax, in the order of the experiment-file schema.
	Config  []Setting
	Version string
	// Inputs are the files the run read (its experiment files): a folder
	// that holds one is not the run's to replace (package folder).
	Inputs []string
}

// HeadlineText returns the headline as ckptlab run prints it: one line
// each, every line ended by a line feed.
func HeadlineText(lines []string) string {
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return b.String()
}

// Setting is one key of the resolved configuration.
type Setting struct {
	Key   string
	Value string // in YAML flow syntax
	// Origin says where a value that did not come from the experiment file
	// came from: "default", a CKPTLAB_<KEY> variable's name, or "--set".
	// It is empty for a value of the file.
	Origin string
}

// ConfigHash returns the SHA-256, in hex, of the resolved configuration
// written as the lines "key: value", each ended by a line feed, in the
// order of Config. Two sets with the same hash came from the same
// experiment, however its file was laid out.
func (s Set) ConfigHash() string {
	h := sha256.New()
	for _, kv := range s.Config {
		fmt.Fprintf(h, "%s: %s\n", kv.Key, kv.Value)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Formats a run can write.
const (
	FormatCSV  = "csv"
	FormatXLSX = "xlsx"
	FormatMD   = "md"
)

// allFormats are the formats a run can write, in the order of Files.
var allFormats = []string{FormatCSV, FormatXLSX, FormatMD, FormatJSON}

// ShowsViews reports whether any of the formats shows the lesson's views:
// the workbook and the Markdown summary do, the CSV tables do not.
func ShowsViews(formats []string) bool {
	return slices.Contains(formats, FormatXLSX) || slices.Contains(formats, FormatMD)
}

// Files returns the names of the files a set written in the given formats
// consists of, in the order they are written: the tables of each format,
// then experiment.yaml.
func Files(name string, formats []string) []string {
	var out []string
	for _, f := range formats {
		switch f {
		case FormatCSV:
			out = append(out, "grid.csv", "failures.csv", "decisions.csv", "breakeven.csv")
		case FormatXLSX:
			out = append(out, name+".xlsx")
		case FormatMD:
			out = append(out, name+".md")
		case FormatJSON:
			out = append(out, name+".json")
		}
	}
	if len(out) > 0 {
		out = append(out, ExperimentFile)
	}
	return out
}

// CheckFormats refuses a format a set cannot be written in.
func CheckFormats(formats []string) error {
	for _, f := range formats {
		if !slices.Contains(allFormats, f) {
			return fmt.Errorf("format %q is not supported (want csv, xlsx, md or json)", f)
		}
	}
	return nil
}

// Formats returns the formats a run can write, in the order of Files.
func Formats() []string { return slices.Clone(allFormats) }

// StopOn returns the table with rows that end early once ctx is done. A
// writer then sees a short table; whoever gave it the context must check
// ctx.Err() before trusting what was written.
func (t Table) StopOn(ctx context.Context) Table {
	if ctx.Done() == nil {
		return t
	}
	rows := t.Rows
	t.Rows = func(yield func([]Value) bool) {
		n := 0
		for row := range rows {
			if n%CheckEvery == 0 && ctx.Err() != nil {
				return
			}
			n++
			if !yield(row) {
				return
			}
		}
	}
	return t
}

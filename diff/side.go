// Package diff says what a change did to the answers of an experiment:
// it reads two sides (output folders, experiment files evaluated in
// memory, or files at a git revision) and reports, in this order, the
// settings that differ, the decisions whose choice changed, the break-even
// envelopes that changed, and per metric column of grid.csv how many
// points changed and by how much. ckptlab diff prints the report as text,
// Markdown or JSON (the README's "Comparing runs" and "JSON documents").
package diff

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"ckptlab/internal/safefile"
	"ckptlab/report"
	"ckptlab/results"
	"ckptlab/runner"
	"ckptlab/runner/experiment"
)

// Side is one side of a comparison: where its settings and tables come
// from.
type Side struct {
	// Label names the side in the report: the folder, the file, or
	// REV:PATH.
	Label string
	// Name is the experiment's name.
	Name string
	// Settings is the resolved experiment, key by key, with origins.
	Settings []results.Setting
	// open returns the CSV text of a table, grid, decisions or
	// breakeven.
	open func(table string) (io.ReadCloser, error)
	// evaluate evaluates a side read from an experiment file; nil for
	// an output folder.
	evaluate func() error
}

// Tables a side serves.
const (
	gridTable      = "grid"
	decisionsTable = "decisions"
	breakevenTable = "breakeven"
)

// Limits of the files diff reads of an output folder, which anyone may
// have put there: experiment.yaml is read as an experiment file is, the
// small tables whole within tableLimits, grid.csv a row at a time.
var (
	settingsLimits = safefile.Limits{Bytes: experiment.MaxFileBytes, Line: experiment.MaxFileBytes, Lines: 100_000, Text: true}
	tableLimits    = safefile.Limits{Bytes: 128 << 20, Line: maxRecord, Lines: 2_000_000, CSV: true, Text: true}
	gridLimits     = safefile.Limits{Line: maxRecord, CSV: true, Text: true}
)

// maxRecord is the longest row of a table diff reads, 4 MiB: a row of
// ckptlab's tables is under a kilobyte.
const maxRecord = 4 << 20

// FolderSide reads the output folder dir, as a run wrote it: its
// experiment.yaml and CSV tables. Only regular files are read, each within
// its limits: a link, a FIFO, a device or an endless line in the folder is
// an error, never waited on or read whole.
func FolderSide(dir string) (*Side, error) {
	path := filepath.Join(dir, results.ExperimentFile)
	f, err := safefile.OpenReader(path, settingsLimits)
	if err != nil {
		return nil, fmt.Errorf("%s: is not an output folder of ckptlab: %v (want a folder a run wrote, such as out/lesson)", dir, unwrap(err))
	}
	defer f.Close()
	settings, err := readSettings(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, unwrap(err))
	}
	if _, err := os.Lstat(filepath.Join(dir, gridTable+".csv")); err != nil {
		return nil, fmt.Errorf("%s: has no grid.csv (want a folder a run wrote with --format csv)", dir)
	}
	s := &Side{Label: dir, Settings: settings, open: func(table string) (io.ReadCloser, error) {
		lim := tableLimits
		if table == gridTable {
			lim = gridLimits
		}
		return safefile.OpenReader(filepath.Join(dir, table+".csv"), lim)
	}}
	for _, kv := range settings {
		if kv.Key == "name" {
			s.Name = kv.Value
		}
	}
	return s, nil
}

// unwrap strips the path of an error of the os package.
func unwrap(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// readSettings reads experiment.yaml: ckptlab's header line first, then
// one "key: value" line per key, the value in YAML flow syntax, followed
// by "  # origin" when the value did not come from the file. Comment lines
// are skipped. An error quotes no line: the file may be anything.
func readSettings(r io.Reader) ([]results.Setting, error) {
	var out []results.Setting
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, experiment.MaxFileBytes+1)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if n == 1 && !strings.HasPrefix(line, results.ExperimentHeader) {
			return nil, errors.New("is not one ckptlab wrote: its first line is not ckptlab's (want experiment.yaml as ckptlab run writes it)")
		}
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		key, rest, ok := strings.Cut(line, ": ")
		if !ok {
			return nil, fmt.Errorf("line %d is not key: value (want experiment.yaml as ckptlab run writes it)", n)
		}
		value, origin := splitComment(rest)
		out = append(out, results.Setting{Key: key, Value: value, Origin: origin})
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, errors.New("holds no settings (want experiment.yaml as ckptlab run writes it)")
	}
	return out, nil
}

// splitComment splits a value from its "  # origin" comment, outside
// double quotes.
func splitComment(s string) (value, origin string) {
	quoted := false
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '\\' && quoted:
			i++
		case s[i] == '"':
			quoted = !quoted
		case !quoted && strings.HasPrefix(s[i:], "  # "):
			return s[:i], s[i+4:]
		}
	}
	return s, ""
}

// ExperimentSide evaluates the experiment at path, read with its bases
// from files, in memory: nothing is written. label names it.
func ExperimentSide(ctx context.Context, files experiment.Files, path, label string, o experiment.Overrides) (*Side, error) {
	e, err := experiment.LoadFrom(files, path, o)
	if err != nil {
		return nil, err
	}
	return EvaluatedSide(ctx, e, label, runner.Options{}), nil
}

// EvaluatedSide is the side of e evaluated in memory with opt, once the
// comparison first asks for it: every side is opened, and checked
// against the limits, before any is evaluated.
func EvaluatedSide(ctx context.Context, e *experiment.Experiment, label string, opt runner.Options) *Side {
	s := &Side{Label: label, Name: e.Name, Settings: runner.Config(e)}
	var set *results.Set
	s.evaluate = func() error {
		if set != nil {
			return nil
		}
		res, err := runner.Evaluate(ctx, e, opt)
		if err != nil {
			return err
		}
		tables, err := report.Set(ctx, res, []string{results.FormatCSV})
		if err != nil {
			return err
		}
		set = &tables
		return nil
	}
	s.open = func(table string) (io.ReadCloser, error) {
		if err := s.evaluate(); err != nil {
			return nil, err
		}
		t := map[string]results.Table{
			gridTable: set.Grid, decisionsTable: set.Decisions, breakevenTable: set.Breakeven,
			processDecisionsTable: set.ProcessDecisions,
		}[table]
		if table != gridTable { // small: written at once
			var b bytes.Buffer
			err := results.WriteCSV(&b, t)
			return io.NopCloser(&b), err
		}
		pr, pw := io.Pipe()
		go func() { pw.CloseWithError(results.WriteCSV(pw, t)) }()
		return pr, nil
	}
	return s
}

// ready evaluates the side if it is evaluated in memory.
func (s *Side) ready() error {
	if s.evaluate == nil {
		return nil
	}
	return s.evaluate()
}

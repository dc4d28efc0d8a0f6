// Package compare says what a change did to the answers of an experiment:
// it reads two sides (output folders, experiment files evaluated in
// memory, or files at a git revision) and reports, in this order, the
// settings that differ, the decisions whose choice changed, the break-even
// envelopes that changed, and per metric column of grid.csv how many
// points changed and by how much. ckptlab diff prints the report as text,
// Markdown or JSON (the README's "Comparing runs" and "JSON documents").
package compare

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
}

// Tables a side serves.
const (
	gridTable      = "grid"
	decisionsTable = "decisions"
	breakevenTable = "breakeven"
)

// FolderSide reads the output folder dir, as a run wrote it: its
// experiment.yaml and CSV tables.
func FolderSide(dir string) (*Side, error) {
	f, err := os.Open(filepath.Join(dir, results.ExperimentFile))
	if err != nil {
		return nil, fmt.Errorf("%s: is not an output folder of ckptlab: %v (want a folder a run wrote, such as out/lesson)", dir, unwrap(err))
	}
	defer f.Close()
	settings, err := readSettings(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", filepath.Join(dir, results.ExperimentFile), err)
	}
	if _, err := os.Stat(filepath.Join(dir, gridTable+".csv")); err != nil {
		return nil, fmt.Errorf("%s: has no grid.csv (want a folder a run wrote with --format csv)", dir)
	}
	s := &Side{Label: dir, Settings: settings, open: func(table string) (io.ReadCloser, error) {
		return os.Open(filepath.Join(dir, table+".csv"))
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

// readSettings reads experiment.yaml: one "key: value" line per key, the
// value in YAML flow syntax, followed by "  # origin" when the value did
// not come from the file. Comment lines are skipped.
func readSettings(r io.Reader) ([]results.Setting, error) {
	var out []results.Setting
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, experiment.MaxFileBytes)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
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
	return EvaluatedSide(ctx, e, label)
}

// EvaluatedSide evaluates e in memory.
func EvaluatedSide(ctx context.Context, e *experiment.Experiment, label string) (*Side, error) {
	res, err := runner.Evaluate(ctx, e, runner.Options{})
	if err != nil {
		return nil, err
	}
	tables := map[string]func() results.Table{
		gridTable: res.GridTable, decisionsTable: res.DecisionsTable, breakevenTable: res.BreakevenTable,
		processDecisionsTable: func() results.Table { _, d := res.ProcessTables(); return d },
	}
	return &Side{Label: label, Name: e.Name, Settings: runner.Config(e), open: func(table string) (io.ReadCloser, error) {
		t := tables[table]()
		if table != gridTable { // small: written at once
			var b bytes.Buffer
			err := results.WriteCSV(&b, t)
			return io.NopCloser(&b), err
		}
		pr, pw := io.Pipe()
		go func() { pw.CloseWithError(results.WriteCSV(pw, t)) }()
		return pr, nil
	}}, nil
}

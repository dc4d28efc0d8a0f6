package runner

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"ckptlab/results"
	"ckptlab/runner/experiment"
)

// shippedResults evaluates every experiment of experiments/ as shipped.
func shippedResults(t *testing.T) []*Result {
	t.Helper()
	paths, err := filepath.Glob("../experiments/*.yaml")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no experiments found: %v", err)
	}
	var out []*Result
	for _, path := range paths {
		e, err := experiment.Load(path, experiment.Overrides{})
		if err != nil {
			t.Fatal(err)
		}
		r, err := Evaluate(context.Background(), e, Options{})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	return out
}

// maxTableCells is the most cells a row of a Markdown table may have.
const maxTableCells = 8

// TestShippedMarkdownTablesFit checks that no Markdown table of a shipped
// experiment is wider than maxTableCells columns, and that a worker sweep
// shows its partitioned recovery as one table.
func TestShippedMarkdownTablesFit(t *testing.T) {
	for _, r := range shippedResults(t) {
		var buf bytes.Buffer
		if err := results.WriteMarkdown(&buf, r.Set([]string{results.FormatMD})); err != nil {
			t.Fatal(err)
		}
		md := buf.String()
		for i, line := range strings.Split(md, "\n") {
			if !strings.HasPrefix(line, "|") {
				continue
			}
			cells := strings.Count(strings.ReplaceAll(line, `\|`, ""), "|") - 1
			if cells > maxTableCells {
				t.Errorf("%s.md:%d: a table row of %d cells, want at most %d: %.100s", r.Exp.Name, i+1, cells, maxTableCells, line)
				break
			}
		}
		if r.Exp.Name == "workers" {
			if n := strings.Count(md, "| partitioned by | workers | interval |"); n != 1 {
				t.Errorf("workers.md has %d partition tables, want one", n)
			}
		}
	}
}

package results_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ckptlab/results"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/ from the code")

func TestMarkdownGolden(t *testing.T) {
	var buf bytes.Buffer
	if err := results.WriteMarkdown(&buf, lessonSet(t)); err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "lesson.md")
	if *update {
		if err := os.WriteFile(golden, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -update to write it)", err)
	}
	if !bytes.Equal(buf.Bytes(), want) {
		t.Errorf("Markdown differs from %s (run go test -update and review the diff):\n%s", golden, buf.String())
	}
}

func TestMarkdownShowsTheLesson(t *testing.T) {
	var buf bytes.Buffer
	if err := results.WriteMarkdown(&buf, lessonSet(t)); err != nil {
		t.Fatal(err)
	}
	md := buf.String()
	for _, want := range []string{
		"## ckptlab: lesson\n",
		// a heading per view, a bold line per block
		"\n### Expected total (probability × average recovery + certain cost) and the best interval\n",
		"\n**seed 20260218, 200 subscribers, 12 periods: stream job 2200 rows, failure 2026-09, state rows 200**\n",
		// the lesson's probability table: its decimals, its 1.0, the best in bold
		"| 1.0 | 1200.0 | 945.5 | **927.3** | 1018.2 | 1309.1 | 2400.0 | 4 |\n",
		"| 0.75 | 900.0 | **809.1** | 845.5 | 963.6 | 1281.8 | 2400.0 | 6 |\n",
		"| 0.5 | **600.0** | 672.7 | 763.6 | 909.1 | 1254.5 | 2400.0 | none |\n",
		"| 0.25 | **300.0** | 536.4 | 681.8 | 854.5 | 1227.3 | 2400.0 | none |\n",
		// the cost table's averages with one decimal, as the lesson prints them
		"| 4 | 3 | 600 | 600 | 1200 | 327.3 | 927.3 |\n",
		"| 1 | 12 | 2400 | 0 | 2400 | 0.0 | 2400.0 |\n",
		"| none | 1600 | 408 | 1600 |\n",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("Markdown lacks %q", want)
		}
	}
	if n := strings.Count(md, "\n### "); n != len(results.ViewNames) {
		t.Errorf("%d view headings, want %d", n, len(results.ViewNames))
	}
}

func TestMarkdownEscapes(t *testing.T) {
	set := results.Set{Name: "x", Views: []results.View{{
		Name: "recovery", Title: "a | b",
		Blocks: []results.Block{{
			Title:   "*not emphasis*",
			Columns: []results.Column{{Name: "key_name", Kind: results.Text}, {Name: "p", Kind: results.Float, Decimals: -1}},
			Rows:    [][]results.Value{{results.TextValue("a|b"), results.FloatValue(2)}},
		}},
	}}}
	var buf bytes.Buffer
	if err := results.WriteMarkdown(&buf, set); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`### a \| b`, `**\*not emphasis\***`, `| key\_name | p |`, `| a\|b | 2.0 |`} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("Markdown lacks %q:\n%s", want, buf.String())
		}
	}
}

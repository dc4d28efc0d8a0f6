package results_test

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"ckptlab/internal/testkit"
	"ckptlab/results"
	"ckptlab/runner/experiment"
)

func TestMarkdownGolden(t *testing.T) {
	var buf bytes.Buffer
	if err := results.WriteMarkdown(&buf, lessonSet(t)); err != nil {
		t.Fatal(err)
	}
	testkit.Golden(t, filepath.Join("testdata", "lesson.md"), buf.Bytes())
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
		"\n**seed 20260218, 200 subscribers, 12 periods: stream job 2,200 rows, failure 2026-09, state rows 200**\n",
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
	set := lessonSet(t)
	for _, v := range set.Views {
		if !strings.Contains(md, "\n### "+v.Title+"\n") {
			t.Errorf("Markdown lacks the heading of view %s", v.Name)
		}
	}
}

func TestMarkdownSummary(t *testing.T) {
	set := decidedSet(t)
	set.Description = "State in Stream Engines, all tables"
	var buf bytes.Buffer
	if err := results.WriteMarkdown(&buf, set); err != nil {
		t.Fatal(err)
	}
	md := buf.String()
	for _, want := range []string{
		"## ckptlab: lesson\n\nState in Stream Engines, all tables\n",
		"<details><summary>Settings</summary>\n\n| key | value | origin |\n",
		"| intervals | none, 6, 4, 3, 2, 1 |  |\n",
		"\n### Answers\n\n- lesson: interval none is best for probabilities up to 11/18, 6 up to 11/12, then 4.\n",
		"| interval | from probability | to probability | from fraction | to fraction |",
		"**seed 20260218, subscribers 200, periods 12, state rows 200**\n\n| interval |", "| 6 | 0.6111 | 0.9167 | 11/18 | 11/12 |\n",
		// the expected totals of the lesson's cost table, 0 and 1200.0 for none
		// at probabilities 0 and 1, on an even grid
		// interval 1, at 2400.0 everywhere, lies above the y axis's top
		// and is not drawn; the note says so
		// the recommended intervals first, then the envelope, dark grey
		"```mermaid\n%%{init: {\"themeVariables\": {\"xyChart\": {\"plotColorPalette\": \"#000000, #D55E00, #CC79A7, #404040, #009E73, #56B4E9\"}}}}%%\nxychart-beta\n",
		// the envelope: none up to 11/18, 6 up to 11/12, 4 above
		"    line [0, 120, 240, 360, 480, 600, 720, 781.8, 836.4, 890.9, 927.3]\n",
		`    x-axis "failure probability" [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1]`,
		"    y-axis \"expected total (rows)\" 0 --> 1500\n",
		"    line [0, 120, 240, 360, 480, 600, 720, 840, 960, 1080, 1200]\n",
		"Legend: black interval none (recommended), vermillion interval 6 (recommended), pink interval 4 (recommended), dark grey envelope, green interval 3, sky blue interval 2.",
		"interval 1 reaches 2,400.0, off the chart. Not drawn, since they leave the chart at its top: interval 1.",
		// the break-even crossings of breakeven.csv, listed under the chart
		"Break-even crossings, where the best interval changes (breakeven.csv): p = 11/18 (0.6111): none → 6, at an expected total of 733.3 rows; p = 11/12 (0.9167): 6 → 4, at an expected total of 900.0 rows.\n",
		"### Decisions",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("Markdown lacks %q", want)
		}
	}
	if strings.Contains(md, "Cut to stay within") {
		t.Error("the lesson's Markdown is cut")
	}
	if strings.Contains(md, "line [2400") {
		t.Error("the Markdown draws interval 1, which lies wholly above its chart")
	}
}

// TestMarkdownWorkersChart checks that a worker sweep's Markdown charts its
// question: the most rows the busiest worker recomputes, against workers,
// the recommended intervals first (none, 6 and 4 over the lesson's
// probabilities), interval 4 at the figures the headline states, 600 rows
// at 1 worker down to 78 at 8, the y axis scaled to none whole.
func TestMarkdownWorkersChart(t *testing.T) {
	e := experiment.Lesson("workers")
	e.Workers = []int{1, 2, 4, 8}
	var buf bytes.Buffer
	if err := results.WriteMarkdown(&buf, evaluatedSet(t, e)); err != nil {
		t.Fatal(err)
	}
	md := buf.String()
	for _, want := range []string{
		"\n### Rows the busiest worker recomputes at most, over every failure, against workers\n",
		"    title \"Rows the busiest worker recomputes at most\"\n",
		"    x-axis \"workers\" [1, 2, 4, 8]\n",
		"    y-axis \"most rows the busiest worker recomputes\"\n",
		"    line [2200, 1100, 561, 286]\n",
		"    line [600, 300, 153, 78]\n",
		"Legend: black interval none (recommended), vermillion interval 6 (recommended), pink interval 4 (recommended), green interval 3",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("Markdown lacks %q", want)
		}
	}
	// none, not drawn flat at the top
	if strings.Contains(md, "    line [1000, 1000, 561, 286]\n") {
		t.Error("Markdown draws none cut at the chart's top")
	}
}

func TestMarkdownStaysWithinTheLimit(t *testing.T) {
	set := lessonSet(t)
	// A view of 60,000 rows of five numbers, and 3,000 views more: far more
	// than a job summary holds.
	big := results.Block{Title: "big", Columns: []results.Column{
		{Name: "a", Kind: results.Int}, {Name: "b", Kind: results.Int}, {Name: "c", Kind: results.Int},
		{Name: "d", Kind: results.Int}, {Name: "e", Kind: results.Int}}}
	for i := range 60_000 {
		v := results.IntValue(int64(i) * 1_000_003)
		big.Rows = append(big.Rows, []results.Value{v, v, v, v, v})
	}
	views := []results.View{{Name: "huge", Title: "A huge view", Blocks: []results.Block{big}}}
	for i := range 3000 {
		views = append(views, results.View{Name: "many", Title: fmt.Sprintf("View %d of many", i), Blocks: []results.Block{big}})
	}
	set.Views = append(views, set.Views...)
	var buf bytes.Buffer
	if err := results.WriteMarkdown(&buf, set); err != nil {
		t.Fatal(err)
	}
	md := buf.String()
	if buf.Len() > results.MarkdownLimit || results.MarkdownLimit >= 1<<20 {
		t.Errorf("Markdown of %d bytes, limit %d: want within the limit, below 1 MiB", buf.Len(), results.MarkdownLimit)
	}
	for _, want := range []string{
		"\n### A huge view\n",
		// a long block shows its first rows and names the file of the rest
		"*Shown: 24 of 60000 rows, 5 of 5 columns; ",
		"\n### View 0 of many\n",
		"Cut to stay within 1000000 bytes",
		"the many view, blocks of the many view", // named in the note
		"```mermaid",                             // what came before stays
	} {
		if !strings.Contains(md, want) {
			t.Errorf("Markdown lacks %q; it ends %q", want, md[max(0, len(md)-600):])
		}
	}
	if strings.Contains(md, "| 24000072 |") || strings.Contains(md, "### View 2999 of many") {
		t.Error("Markdown holds what it says it cut")
	}
}

func TestMarkdownFoldsLongTables(t *testing.T) {
	set := lessonSet(t)
	var buf bytes.Buffer
	if err := results.WriteMarkdown(&buf, set); err != nil {
		t.Fatal(err)
	}
	// The matrix has 11 rows, the charts' figures are not tables: nothing
	// of the lesson is folded but the settings.
	if n := strings.Count(buf.String(), "<details>"); n != 1 {
		t.Errorf("%d folded parts, want 1 (the settings)", n)
	}
	set.Views[1].Blocks[0].Rows = append(set.Views[1].Blocks[0].Rows, set.Views[1].Blocks[0].Rows...)
	buf.Reset()
	if err := results.WriteMarkdown(&buf, set); err != nil {
		t.Fatal(err)
	}
	if want := "\n<details><summary>seed 20260218, 200 subscribers, 12 periods: stream job 2,200 rows, failure 2026-09 (22 rows)</summary>\n\n| failure |"; !strings.Contains(buf.String(), want) {
		t.Errorf("the doubled matrix is not folded: Markdown lacks %q", want)
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

// TestMarkdownHeadlineTitles checks that a headline line ending in a colon,
// which names the source and state size of the lines after it, becomes a
// bold title between the bullets rather than one bullet among them.
func TestMarkdownHeadlineTitles(t *testing.T) {
	set := lessonSet(t)
	set.Headline = []string{"x: seed 1, state rows 100:", "best 4", "seed 1, state rows 400:", "best none"}
	var buf bytes.Buffer
	if err := results.WriteMarkdown(&buf, set); err != nil {
		t.Fatal(err)
	}
	want := "**x: seed 1, state rows 100**\n\n- best 4\n\n**seed 1, state rows 400**\n\n- best none\n"
	if !strings.Contains(buf.String(), want) {
		t.Errorf("the answers do not read\n%s\nin\n%s", want, buf.String())
	}
}

// TestMarkdownWorkersChartThinned checks that a sweep of 32 worker counts
// is drawn at 16 of them, the first and last among them, and says so.
func TestMarkdownWorkersChartThinned(t *testing.T) {
	e := experiment.Lesson("workers")
	e.Workers = nil
	for w := 1; w <= 32; w++ {
		e.Workers = append(e.Workers, w)
	}
	var buf bytes.Buffer
	if err := results.WriteMarkdown(&buf, evaluatedSet(t, e)); err != nil {
		t.Fatal(err)
	}
	md := buf.String()
	for _, want := range []string{
		`    x-axis "workers" [1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 32]`,
		"Drawn at 16 of its 32 values of workers, evenly chosen",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("Markdown lacks %q", want)
		}
	}
}

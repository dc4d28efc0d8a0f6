package report

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"testing"

	"ckptlab/runner"
	"ckptlab/runner/experiment"
)

// evaluateYAML loads and evaluates an experiment given as YAML.
func evaluateYAML(t *testing.T, src string) *result {
	t.Helper()
	e, err := experiment.LoadBytes("x.yaml", []byte(src), experiment.Overrides{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := evaluateRun(context.Background(), e, runner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// column returns one column of a table, as text.
func column(t *testing.T, rows func(func([]string) bool), header []string, name string) []string {
	t.Helper()
	i := slices.Index(header, name)
	if i < 0 {
		t.Fatalf("no column %s in %v", name, header)
	}
	var out []string
	for r := range rows {
		out = append(out, r[i])
	}
	return out
}

func textRows(r *result, which string) ([]string, func(func([]string) bool)) {
	tab := r.gridTable()
	switch which {
	case "decisions":
		tab = r.decisionsTable()
	case "breakeven":
		tab = r.breakevenTable()
	}
	return tab.Header(), func(yield func([]string) bool) {
		for row := range tab.Rows {
			s := make([]string, len(row))
			for i, v := range row {
				s[i] = v.String()
			}
			if !yield(s) {
				return
			}
		}
	}
}

// TestStateRowsSubscribers checks that the word subscribers shows as N of
// each source in every table, beside a declared number.
func TestStateRowsSubscribers(t *testing.T) {
	r := evaluateYAML(t, "name: x\nsubscribers: [3, 7]\nstate_rows: [subscribers, 50]\nprobabilities: 1\nintervals: [none, 4]\n")
	for _, which := range []string{"grid", "decisions", "breakeven"} {
		h, rows := textRows(r, which)
		subs := column(t, rows, h, "subscribers")
		state := column(t, rows, h, "state_rows")
		for i := range subs {
			if state[i] != subs[i] && state[i] != "50" {
				t.Errorf("%s row %d: state_rows %s with %s subscribers, want %s or 50", which, i, state[i], subs[i], subs[i])
			}
		}
		if !slices.Contains(state, "3") || !slices.Contains(state, "7") || !slices.Contains(state, "50") {
			t.Errorf("%s: state_rows %v, want 3, 7 and 50", which, state)
		}
	}
}

// TestDecisionOrder checks the row order of decisions.csv: sources, then
// state rows, then probabilities, each as declared.
func TestDecisionOrder(t *testing.T) {
	r := evaluateYAML(t, "name: x\nseeds: [2, 1]\nsubscribers: 5\nstate_rows: [9, 3]\nprobabilities: [0.5, 1, 0]\nworkers: [1, 2]\n")
	h, rows := textRows(r, "decisions")
	var got []string
	for row := range rows {
		got = append(got, row[slices.Index(h, "seed")]+"/"+row[slices.Index(h, "state_rows")]+"/"+row[slices.Index(h, "probability")])
	}
	var want []string
	for _, s := range []string{"2", "1"} {
		for _, sr := range []string{"9", "3"} {
			for _, p := range []string{"0.5", "1", "0"} {
				want = append(want, s+"/"+sr+"/"+p)
			}
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("decision rows %v, want %v (not one per partitioning)", got, want)
	}
}

// TestHeadlineCountsInNumberStyle checks that the count of envelopes a
// large grid's headline leaves to breakeven.csv is written in the number
// style, thousands separated.
func TestHeadlineCountsInNumberStyle(t *testing.T) {
	r := evaluateYAML(t, "name: big\nsubscribers: 20\nstate_rows: {from: 0, to: 20000, step: 10}\n")
	h := r.headline()
	more := regexp.MustCompile(`^… and (\d{1,3}(,\d{3})*) more envelopes in breakeven.csv$`)
	for _, l := range h {
		if m := more.FindStringSubmatch(l); m != nil {
			if !strings.Contains(m[1], ",") {
				t.Errorf("%q: want a count past a thousand, thousands separated", l)
			}
			return
		}
	}
	t.Errorf("no line counts the envelopes not shown, in the number style:\n%s", strings.Join(h, "\n"))
}

// TestHeadlineIsShort checks that a large grid is summarized in at most a
// dozen lines, the same on every call.
func TestHeadlineIsShort(t *testing.T) {
	// Faults make the envelopes of the seeds differ, more than fit.
	r := evaluateYAML(t, "name: big\nseeds: {from: 1, to: 6}\nsubscribers: 20\nstate_rows: [subscribers, 5, 40]\n"+
		"probabilities: {from: 0, to: 1, step: 0.1}\nintervals: all\nmissing: 5\n")
	h := r.headline()
	if len(h) == 0 || len(h) > maxHeadline {
		t.Fatalf("headline of %d lines, want 1..%d:\n%s", len(h), maxHeadline, strings.Join(h, "\n"))
	}
	if !strings.HasPrefix(h[0], "big: 198 decisions") {
		t.Errorf("first line %q, want the experiment's name and the count of decisions", h[0])
	}
	if !slices.ContainsFunc(h, func(l string) bool { return strings.HasSuffix(l, "more envelopes in breakeven.csv") }) {
		t.Errorf("no line points to the envelopes not shown:\n%s", strings.Join(h, "\n"))
	}
	if again := r.headline(); !slices.Equal(h, again) {
		t.Errorf("headline differs between calls")
	}
	for _, l := range h {
		if strings.Contains(l, "%!") {
			t.Errorf("badly formatted line %q", l)
		}
	}
}

// TestHeadlineWorkers checks the lines that answer a worker sweep against
// grid.csv: the busiest worker's worst recovery at each worker count, at
// the interval the first decision picks (4 for the lesson at p = 1), and
// the steps where it stops falling.
func TestHeadlineWorkers(t *testing.T) {
	tests := []struct {
		yaml, want, steps string // want "" for no workers lines
	}{
		{"name: x\nworkers: [1, 2, 4]\nprobabilities: 1\n",
			"  600 rows at 1 worker, 300 at 2, 153 at 4",
			"  it falls at every added worker, to 153 at 4 workers"},
		{"name: x\nworkers: {from: 1, to: 16}\nprobabilities: 1\n",
			"  600 rows at 1 worker, 300 at 2, 216 at 3, 153 at 4, 129 at 5, 120 at 6, 99 at 7, 78 at 8, 87 at 9, 72 at 10, 63 at 11, 60 at 12, 60 at 13, 51 at 14, 51 at 15, 45 at 16",
			"  it stops falling at 3 of 15 added workers: it rises from 78 to 87 from 8 to 9 workers, it stays at 60 from 12 to 13 workers, it stays at 51 from 14 to 15 workers; least 45 at 16 workers"},
		{"name: x\nworkers: {from: 1, to: 64}\nprobabilities: 1\n",
			"  600 rows at 1 worker, 300 at 2, …, 153 at 4, …, 78 at 8, …, 45 at 16, …, 24 at 32, …, 12 at 64",
			""},
		{"name: x\nprobabilities: 1\n", "", ""},
	}
	for _, tt := range tests {
		r := evaluateYAML(t, tt.yaml)
		h := r.headline()
		const head = "the busiest worker recovers at most, over every failure (checkpoint every 4 periods, partitioned by subscriber), by workers"
		i := slices.IndexFunc(h, func(l string) bool { return strings.HasPrefix(l, "the busiest worker") })
		if tt.want == "" {
			if i >= 0 {
				t.Errorf("headline of\n%s has a workers line without a sweep: %s", tt.yaml, h[i])
			}
			continue
		}
		if i < 0 || i+2 >= len(h) || h[i] != head || h[i+1] != tt.want || tt.steps != "" && h[i+2] != tt.steps {
			t.Errorf("headline of\n%s is\n%s\nwant\n%s\n%s", tt.yaml, strings.Join(h, "\n"), tt.want, tt.steps)
			continue
		}
		// Each figure is busiest_worker_worst of grid.csv at interval 4.
		said := map[string]string{}
		for _, each := range strings.Split(strings.TrimPrefix(h[i+1], "  "), ", ") {
			f := strings.Fields(strings.Replace(each, " rows", "", 1))
			if len(f) >= 3 {
				said[f[2]] = f[0]
			}
		}
		g := r.gridTable()
		header := g.Header()
		checked := 0
		for row := range g.Rows {
			cells := make([]string, len(row))
			for i, v := range row {
				cells[i] = v.String()
			}
			if cells[slices.Index(header, "interval")] != "4" {
				continue
			}
			w, worst := cells[slices.Index(header, "workers")], cells[slices.Index(header, "busiest_worker_worst")]
			if got, ok := said[w]; ok {
				checked++
				if got != worst {
					t.Errorf("grid.csv has busiest_worker_worst %s at %s workers, the headline says %s", worst, w, got)
				}
			}
		}
		if checked != len(said) {
			t.Errorf("checked %d of the %d figures the headline says", checked, len(said))
		}
	}
}

// TestHeadlineEnvelopesAlike checks that a large grid's headline writes
// envelopes that read alike on one line, counting them: without faults a
// source's stream does not depend on its seed, so thirty seeds share one
// envelope; with faults some differ and get lines of their own.
func TestHeadlineEnvelopesAlike(t *testing.T) {
	h := evaluateYAML(t, "name: x\nseeds: {from: 1, to: 30}\n").headline()
	want := "seeds 1 to 30, 200 subscribers, 12 periods, a checkpoint writes 200 rows (30 seeds alike): no checkpoint below p = 11/18, every 6 periods up to 11/12, every 4 above (927.3 rows at p = 1)"
	if !slices.ContainsFunc(h, func(l string) bool { return strings.HasPrefix(l, want) }) {
		t.Errorf("headline lacks %q:\n%s", want, strings.Join(h, "\n"))
	}
	h = evaluateYAML(t, "name: x\nstate_rows: {from: 400, to: 4000, step: 100}\nprobabilities: [0.5, 1]\n").headline()
	want = "seed 20260218, 200 subscribers, 12 periods, a checkpoint writes 400 to 4,000 rows (37 state sizes alike): no checkpoint for p from 1/2 to 1 (1,200.0 rows at p = 1)"
	if !slices.Contains(h, want) {
		t.Errorf("headline lacks %q:\n%s", want, strings.Join(h, "\n"))
	}
	h = evaluateYAML(t, "name: x\nseeds: {from: 1, to: 30}\nmissing: 40\n").headline()
	if len(h) > maxHeadline {
		t.Errorf("headline of %d lines", len(h))
	}
	lines := 0
	for _, l := range h {
		if strings.HasPrefix(l, "seed") {
			lines++
		}
	}
	if lines < 2 {
		t.Errorf("faults make seeds differ, but the headline has %d envelope lines:\n%s", lines, strings.Join(h, "\n"))
	}
}

// TestHeadlineCountsEnvelopesOnce checks that the headline counts the
// envelopes breakeven.csv has: cases that share a source, apart in
// workers, have one envelope per state rows, not one per case.
func TestHeadlineCountsEnvelopesOnce(t *testing.T) {
	r := evaluateYAML(t, `name: x
state_rows: [100, 200, 300]
probabilities: [0.2, 0.4, 0.6, 0.8, 1]
cases: [{workers: 4}, {workers: 8}]
`)
	groups := map[string]bool{}
	for row := range r.breakevenTable().Rows { // seed, subscribers, periods, state_rows, ...
		groups[row[0].String()+" "+row[1].String()+" "+row[2].String()+" "+row[3].String()] = true
	}
	h := strings.Join(r.headline(), "\n")
	if len(groups) != 3 || !strings.Contains(h, "3 envelopes in breakeven.csv") {
		t.Errorf("breakeven.csv has %d envelopes; the headline says:\n%s", len(groups), h)
	}
}

package diff

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"ckptlab/folder"
	"ckptlab/report"
	"ckptlab/results"
	"ckptlab/runner"
	"ckptlab/runner/experiment"
)

// lesson is the lesson's experiment, short.
const lesson = "name: lesson\n"

// side evaluates an experiment file's text in memory.
func side(t *testing.T, src string, sets ...string) *Side {
	t.Helper()
	path := filepath.Join(t.TempDir(), "x.yaml")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := ExperimentSide(context.Background(), experiment.Disk, path, path, experiment.Overrides{Sets: sets})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// pair compares two experiment texts.
func pair(t *testing.T, old, new string, newSets ...string) Experiment {
	t.Helper()
	e, err := Pair(side(t, old), side(t, new, newSets...))
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func TestIdenticalIsSame(t *testing.T) {
	e := pair(t, lesson, lesson)
	if e.Status != StatusSame || len(e.Settings) != 0 || e.Grid.Points != 24 {
		t.Errorf("identical: status %s, settings %v, points %d", e.Status, e.Settings, e.Grid.Points)
	}
}

// TestUnchangedIsOneLine: an experiment that did not change is one line
// in every format.
func TestUnchangedIsOneLine(t *testing.T) {
	e := pair(t, lesson, lesson)
	e.Old, e.New = "HEAD:experiments/lesson.yaml", "experiments/lesson.yaml"
	for _, tt := range []struct {
		format, want string
	}{
		{FormatText, "lesson: unchanged (HEAD:experiments/lesson.yaml → experiments/lesson.yaml, 24 points)\n"},
		{FormatMD, "- lesson: unchanged (HEAD:experiments/lesson.yaml → experiments/lesson.yaml, 24 points)\n"},
		{FormatJSON, `{"name":"lesson","old":"HEAD:experiments/lesson.yaml","new":"experiments/lesson.yaml","status":"same",`},
	} {
		var b bytes.Buffer
		if err := Write(&b, &Report{Kind: results.JSONKindDiff, Version: results.DiffJSONVersion, Experiments: []Experiment{e, e}}, tt.format); err != nil {
			t.Fatal(err)
		}
		lines := 0
		for l := range strings.Lines(b.String()) {
			if strings.Contains(l, "lesson") {
				lines++
				if !strings.Contains(l, strings.TrimSuffix(tt.want, "\n")) {
					t.Errorf("%s: the line of an unchanged experiment is %q, want %q", tt.format, l, tt.want)
				}
			}
		}
		if lines != 2 {
			t.Errorf("%s: %d lines name the two unchanged experiments, want 2:\n%s", tt.format, lines, b.String())
		}
		if tt.format == FormatJSON {
			var r Report
			if err := json.Unmarshal(b.Bytes(), &r); err != nil || len(r.Experiments) != 2 || r.Experiments[1].Grid.Points != 24 {
				t.Errorf("the JSON does not read back: %v, %+v", err, r)
			}
		}
	}
}

// TestChangedStateRows: the points move from 200 to 400 state rows and
// pair up across the move; the lesson's envelope loses its pieces at 6
// and 4, and at p = 0.75 the expected total now picks none.
func TestChangedStateRows(t *testing.T) {
	e := pair(t, lesson, lesson+"state_rows: 400\n")
	if e.Status != StatusChanged || len(e.Settings) != 1 || e.Settings[0].Key != "state_rows" ||
		!slices.Equal(e.Settings[0].Added, []string{"400"}) || !slices.Equal(e.Settings[0].Removed, []string{"subscribers"}) {
		t.Fatalf("settings %+v", e.Settings)
	}
	if e.Grid.Points != 24 || e.Grid.OnlyOld+e.Grid.OnlyNew != 0 {
		t.Errorf("grid: %d points in both, %d and %d apart; want 24 paired", e.Grid.Points, e.Grid.OnlyOld, e.Grid.OnlyNew)
	}
	found := false
	for _, c := range e.Decisions.Changed {
		if c.Criterion == "best" && c.Key[len(c.Key)-1].Value == "0.75" {
			found = c.Old[0].Value == "6" && c.New[0].Value == "none"
		}
	}
	if !found {
		t.Errorf("no change of the expected total at p = 0.75 from 6 to none in %+v", e.Decisions.Changed)
	}
	if len(e.Envelopes.Changed) != 1 || piecesText(e.Envelopes.Changed[0].Old) != "none on [0, 11/18 (0.6111)], 6 on [11/18 (0.6111), 11/12 (0.9167)], 4 on [11/12 (0.9167), 1]" {
		t.Errorf("envelopes %+v", e.Envelopes)
	}
	for _, c := range e.Grid.Columns {
		switch c.Name {
		case "certain_cost": // doubles wherever there is a checkpoint: 20 of 24 points
			if c.Changed != 20 || c.Largest == nil || c.Largest.Delta != 2400 || c.LargestRelative.Relative != 1 {
				t.Errorf("certain_cost: %+v", c)
			}
		case "recomputed", "rows", "worst":
			if c.Changed != 0 {
				t.Errorf("%s changed at %d points, want none", c.Name, c.Changed)
			}
		}
	}
}

// TestGridStreams checks what the grid comparison holds: no row when both
// grids have the same points in the same order, and only the rows out of
// step (twice the 6 points of an inserted probability) when they do not.
func TestGridStreams(t *testing.T) {
	if e := pair(t, lesson, lesson+"state_rows: 400\n"); e.Grid.held != 0 {
		t.Errorf("same points, same order: held %d rows, want 0", e.Grid.held)
	}
	e := pair(t, lesson, lesson+"probabilities: [1.0, 0.75, 0.6, 0.5, 0.25]\n")
	if e.Grid.held == 0 || e.Grid.held > 12 {
		t.Errorf("a probability inserted: held %d rows, want 1..12", e.Grid.held)
	}
}

func TestRemovedInterval(t *testing.T) {
	e := pair(t, lesson, lesson+"intervals: [none, 6, 4, 3, 2]\n")
	if len(e.Settings) != 1 || !slices.Equal(e.Settings[0].Removed, []string{"1"}) || e.Settings[0].Added != nil {
		t.Errorf("settings %+v", e.Settings)
	}
	if e.Grid.Points != 20 || e.Grid.OnlyOld != 4 || e.Grid.OnlyNew != 0 {
		t.Errorf("grid: %d in both, %d old only, %d new only; want 20, 4, 0", e.Grid.Points, e.Grid.OnlyOld, e.Grid.OnlyNew)
	}
	for _, c := range e.Grid.Columns {
		if c.Changed != 0 {
			t.Errorf("%s changed at %d points: no point left changed", c.Name, c.Changed)
		}
	}
	if len(e.Envelopes.Changed) != 0 {
		t.Errorf("the envelope changed: %+v (interval 1 is on no piece of it)", e.Envelopes.Changed)
	}
}

func TestAddedProbability(t *testing.T) {
	e := pair(t, lesson, lesson+"probabilities: [1.0, 0.75, 0.6, 0.5, 0.25]\n")
	if len(e.Settings) != 1 || !slices.Equal(e.Settings[0].Added, []string{"0.6"}) {
		t.Errorf("settings %+v", e.Settings)
	}
	if e.Grid.Points != 24 || e.Grid.OnlyNew != 6 || e.Grid.OnlyOld != 0 {
		t.Errorf("grid: %d in both, %d new only; want 24, 6", e.Grid.Points, e.Grid.OnlyNew)
	}
	if len(e.Decisions.OnlyNew) != 1 || e.Decisions.OnlyNew[0][4].Value != "0.6" || len(e.Decisions.Changed) != 0 {
		t.Errorf("decisions %+v", e.Decisions)
	}
}

// TestJSONMatchesCSV writes two runs as CSV, compares the folders, reads
// the JSON report back with encoding/json and checks every number it
// gives against the CSVs, read on their own.
func TestJSONMatchesCSV(t *testing.T) {
	dir := t.TempDir()
	write := func(src string, sets ...string) *Side {
		e, err := experiment.LoadBytes("x.yaml", []byte(src), experiment.Overrides{Sets: sets})
		if err != nil {
			t.Fatal(err)
		}
		res, err := runner.Evaluate(context.Background(), e, runner.Options{})
		if err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(dir, strings.Join(sets, ""))
		set, err := report.Set(context.Background(), res, []string{results.FormatCSV})
		if err != nil {
			t.Fatal(err)
		}
		if err := folder.Replace(context.Background(), out, set, []string{results.FormatCSV}); err != nil {
			t.Fatal(err)
		}
		s, err := FolderSide(filepath.Join(out, e.Name))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	src := "name: j\nsubscribers: [200, 300]\nworkers: [2, 4]\n"
	old, new := write(src, "state_rows=100"), write(src, "state_rows=150", "probabilities=[1, 0.5, 0.3]")
	e, err := Pair(old, new)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := Write(&b, &Report{Kind: results.JSONKindDiff, Version: results.DiffJSONVersion, Experiments: []Experiment{e}}, FormatJSON); err != nil {
		t.Fatal(err)
	}
	var r Report
	if err := json.Unmarshal(b.Bytes(), &r); err != nil {
		t.Fatalf("the report does not read back: %v", err)
	}
	if r.Kind != results.JSONKindDiff || r.Version != results.DiffJSONVersion || len(r.Experiments) != 1 {
		t.Fatalf("kind %q version %d, %d experiments", r.Kind, r.Version, len(r.Experiments))
	}
	got := r.Experiments[0]

	// decisions.csv: each change names the cells the two tables hold.
	od, nd := csvRows(t, old.Label, "decisions"), csvRows(t, new.Label, "decisions")
	if len(got.Decisions.Changed) == 0 {
		t.Fatal("no decision changed")
	}
	for _, c := range got.Decisions.Changed {
		orow, nrow := find(od, c.Key), find(nd, c.Key)
		if orow == nil || nrow == nil {
			t.Fatalf("decision %v is not in both tables", c.Key)
		}
		for i := range c.New {
			if c.Old[i].Value != orow[c.Old[i].Column] || c.New[i].Value != nrow[c.New[i].Column] {
				t.Errorf("%v %s: report %s → %s, tables %s → %s", c.Key, c.New[i].Column, c.Old[i].Value, c.New[i].Value, orow[c.Old[i].Column], nrow[c.New[i].Column])
			}
		}
	}
	probs := func(rows []map[string]string) map[string]bool {
		m := map[string]bool{}
		for _, r := range rows {
			m[r["probability"]] = true
		}
		return m
	}
	if n := len(got.Decisions.OnlyNew); n != 2 || !probs(nd)["0.3"] || probs(od)["0.3"] {
		t.Errorf("%d decisions only in the new side, want 2 (p = 0.3 for each of 2 sources)", n)
	}

	// grid.csv: the count and the largest change of every column, from
	// the tables joined on their points (state_rows moved, so left out).
	og, ng := csvRows(t, old.Label, "grid"), csvRows(t, new.Label, "grid")
	key := without(gridKey, map[string]bool{"state_rows": true})
	index := map[string]map[string]string{}
	for _, r := range og {
		index[joinKey(r, key)] = r
	}
	both := 0
	for _, col := range got.Grid.Columns {
		var changed int64
		var largest float64
		for _, nr := range ng {
			or, ok := index[joinKey(nr, key)]
			if !ok {
				continue
			}
			if or[col.Name] != nr[col.Name] {
				changed++
				ov, err1 := strconv.ParseFloat(or[col.Name], 64)
				nv, err2 := strconv.ParseFloat(nr[col.Name], 64)
				if err1 == nil && err2 == nil && abs(nv-ov) > abs(largest) {
					largest = nv - ov
				}
			}
		}
		if changed != col.Changed {
			t.Errorf("%s: report %d changed, tables %d", col.Name, col.Changed, changed)
		}
		if col.Largest != nil && col.Largest.Delta != largest {
			t.Errorf("%s: largest change %v, tables %v", col.Name, col.Largest.Delta, largest)
		}
	}
	for _, nr := range ng {
		if _, ok := index[joinKey(nr, key)]; ok {
			both++
		}
	}
	if int64(both) != got.Grid.Points || got.Grid.OnlyNew != int64(len(ng)-both) || got.Grid.OnlyOld != int64(len(og)-both) {
		t.Errorf("points: report %d in both, %d/%d apart; tables %d in both of %d and %d", got.Grid.Points, got.Grid.OnlyOld, got.Grid.OnlyNew, both, len(og), len(ng))
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// csvRows reads a table of an output folder as maps of column → text.
func csvRows(t *testing.T, dir, table string) []map[string]string {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, table+".csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	all, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var out []map[string]string
	for _, row := range all[1:] {
		m := map[string]string{}
		for i, c := range all[0] {
			m[c] = row[i]
		}
		out = append(out, m)
	}
	return out
}

// find returns the row that holds every cell of key.
func find(rows []map[string]string, key Key) map[string]string {
	for _, r := range rows {
		if !slices.ContainsFunc(key, func(c Cell) bool { return r[c.Column] != c.Value }) {
			return r
		}
	}
	return nil
}

func joinKey(r map[string]string, key []string) string {
	parts := make([]string, len(key))
	for i, k := range key {
		parts[i] = r[k]
	}
	return strings.Join(parts, "\x00")
}

// TestMarkdownFits writes the Markdown of folders of many experiments:
// each stays under GitHub's limit of a comment, in full while it fits,
// then folded, then summarised a line a part, then a row an experiment,
// and past that counts the experiments left out.
func TestMarkdownFits(t *testing.T) {
	src := "name: m\nsubscribers: {from: 100, to: 400, step: 100}\nprobabilities: {from: 0.05, to: 1, step: 0.05}\n"
	changed, same := pair(t, src, src+"state_rows: 300\n"), pair(t, lesson, lesson)
	for _, tt := range []struct {
		changed, same int
		want          []string // in the Markdown
		wantNot       []string
		allNamed      bool // every changed experiment is named
	}{
		{1, 0, []string{"<details><summary>120 lines</summary>", "- … and 20 more\n"}, []string{"Shortened"}, true},
		{1, 3, []string{"### Unchanged (3)\n\n- same0: unchanged (", "- same2: unchanged ("}, []string{"Shortened"}, true},
		{20, 0, []string{"Shortened", "<details><summary>120 lines</summary>", "- … and 110 more\n"}, nil, true},
		{20, 2000, []string{"Shortened", "<details>", "### Unchanged (2,000)\n\nsame0, same1,"}, []string{"same0: unchanged"}, true},
		{100, 0, []string{"Shortened", "**decisions**: 0 choices changed"}, []string{"<details>"}, true},
		{180, 0, []string{"| experiment | settings |", "| m179 | 1 key differs |"}, []string{"**decisions**"}, true},
		{1000, 5, []string{"| m0 | 1 key differs |", "more changed experiments, left out to keep this under 65,536 characters", "\n5 unchanged: same0, same1, same2, same3, same4\n"}, nil, false},
	} {
		r := &Report{}
		for i := range tt.changed {
			e := changed
			e.Name = "m" + strconv.Itoa(i)
			r.Experiments = append(r.Experiments, e)
		}
		for i := range tt.same {
			e := same
			e.Name = "same" + strconv.Itoa(i)
			r.Experiments = append(r.Experiments, e)
		}
		var b bytes.Buffer
		if err := Write(&b, r, FormatMD); err != nil {
			t.Fatal(err)
		}
		md := b.String()
		if len(md) >= MarkdownLimit {
			t.Errorf("%d changed, %d unchanged: %d bytes, want under %d", tt.changed, tt.same, len(md), MarkdownLimit)
		}
		for _, w := range tt.want {
			if !strings.Contains(md, w) {
				t.Errorf("%d changed, %d unchanged: the Markdown lacks %q", tt.changed, tt.same, w)
			}
		}
		for _, w := range tt.wantNot {
			if strings.Contains(md, w) {
				t.Errorf("%d changed, %d unchanged: the Markdown has %q", tt.changed, tt.same, w)
			}
		}
		if tt.allNamed {
			for i := range tt.changed {
				if name := "m" + strconv.Itoa(i); !strings.Contains(md, "### "+name+"\n") && !strings.Contains(md, "| "+name+" |") {
					t.Errorf("%d changed, %d unchanged: %s is not named", tt.changed, tt.same, name)
				}
			}
		}
	}
}

// TestKeyColumns holds the key columns diff pairs rows by to the tables'
// columns as the runner writes them.
func TestKeyColumns(t *testing.T) {
	tests := []struct {
		name string
		got  []string
		want []string
	}{
		{"grid", gridKey, []string{"seed", "subscribers", "periods", "partition_key", "workers", "state_rows", "probability", "interval"}},
		{"decisions", decisionKey, []string{"seed", "subscribers", "periods", "state_rows", "probability"}},
		{"breakeven", envelopeKey, []string{"seed", "subscribers", "periods", "state_rows"}},
		{"process_decisions", processKey, []string{"seed", "subscribers", "periods", "mtbf_seconds", "checkpoint_seconds",
			"restart_seconds", "distribution", "shape"}},
	}
	for _, tt := range tests {
		if !slices.Equal(tt.got, tt.want) {
			t.Errorf("%s key %v, want %v", tt.name, tt.got, tt.want)
		}
	}
}

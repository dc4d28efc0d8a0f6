package diff

import (
	"strings"

	"ckptlab/results"
)

// Report is the comparison of one or more pairs of experiments: the
// document diff --format json writes (kind results.JSONKindDiff), and what
// the text and Markdown renderings show.
type Report struct {
	Kind        string       `json:"kind"`    // results.JSONKindDiff
	Version     int          `json:"version"` // results.DiffJSONVersion
	Experiments []Experiment `json:"experiments"`
}

// Differs reports whether anything differs in any pair.
func (r *Report) Differs() bool {
	for i := range r.Experiments {
		if r.Experiments[i].Status != StatusSame {
			return true
		}
	}
	return false
}

// Statuses of a pair.
const (
	StatusSame    = "same"    // nothing differs
	StatusChanged = "changed" // something differs
	StatusAdded   = "added"   // only the new side has the experiment
	StatusRemoved = "removed" // only the old side has it
)

// Experiment compares one pair.
type Experiment struct {
	Name   string `json:"name"`
	Old    string `json:"old"` // the label of the old side, "" when added
	New    string `json:"new"` // the label of the new side, "" when removed
	Status string `json:"status"`
	// Settings are the keys whose value differs, in the order of the
	// resolved experiment.
	Settings []SettingChange `json:"settings"`
	// Decisions compares decisions.csv.
	Decisions Decisions `json:"decisions"`
	// Envelopes compares breakeven.csv.
	Envelopes Envelopes `json:"envelopes"`
	// Grid compares grid.csv.
	Grid Grid `json:"grid"`
	// Time compares process_decisions.csv, the time model's choices;
	// nil, and left out, when neither side has the model.
	Time *Decisions `json:"time,omitempty"`
}

// SettingChange is a key whose value differs; for an axis given as a
// list, the values added and removed.
type SettingChange struct {
	Key       string   `json:"key"`
	Old       string   `json:"old"` // in YAML flow syntax; "" when the key is absent, null in JSON
	New       string   `json:"new"`
	OldOrigin string   `json:"old_origin,omitempty"` // as experiment.yaml marks it
	NewOrigin string   `json:"new_origin,omitempty"`
	Added     []string `json:"added,omitempty"`
	Removed   []string `json:"removed,omitempty"`
}

// Decisions compares decisions.csv: for each decision in both sides, each
// criterion whose choice changed, and the decisions of one side only.
type Decisions struct {
	Changed []DecisionChange `json:"changed"`
	OnlyOld []Key            `json:"only_old"`
	OnlyNew []Key            `json:"only_new"`
}

// Key names a row by its key columns, in order.
type Key = Cells

// Cells are named values of a row, in order. In JSON they are one object,
// column → value, typed as the column is declared (a number, a string
// such as none, or a boolean), as a row of run's JSON document is; a
// number column's NaN or infinity is null, which JSON has for no number.
type Cells []Cell

// Cell is one named value: a column and its text as the CSV writes it.
type Cell struct {
	Column string
	Value  string
}

// DecisionChange is one criterion of one decision whose choice changed:
// the columns of the choice (best_interval; schedule_checkpoints and
// schedule_points) and, where the criterion has one, its cost
// (best_expected_total).
type DecisionChange struct {
	Key       Key    `json:"key"`
	Criterion string `json:"criterion"` // the columns' prefix: best, worst_case, tail, optimal, young, daly, ...
	Old       Cells  `json:"old"`
	New       Cells  `json:"new"`
}

// Envelopes compares breakeven.csv: each envelope in both sides whose
// pieces changed, and the envelopes of one side only.
type Envelopes struct {
	Changed []EnvelopeChange `json:"changed"`
	OnlyOld []Key            `json:"only_old"`
	OnlyNew []Key            `json:"only_new"`
}

// EnvelopeChange is an envelope whose pieces differ.
type EnvelopeChange struct {
	Key Key     `json:"key"`
	Old []Piece `json:"old"`
	New []Piece `json:"new"`
}

// Piece is one piece of a break-even envelope: an interval, best on
// [From, To], in lowest terms.
type Piece struct {
	Interval string `json:"interval"`
	From     string `json:"from"`
	To       string `json:"to"`
}

// String writes the piece as the report shows it: 6 on [11/18, 11/12].
func (p Piece) String() string { return p.Interval + " on [" + p.From + ", " + p.To + "]" }

// Grid compares grid.csv over the points in both sides.
type Grid struct {
	Points  int64 `json:"points"`   // points in both
	OnlyOld int64 `json:"only_old"` // points of the old side only
	OnlyNew int64 `json:"only_new"`
	// Columns are the metric columns in both sides, in the order of the
	// new side's header, each with how its values changed.
	Columns []Column `json:"columns"`
	// Missing are the columns of one side only.
	OnlyOldColumns []string `json:"only_old_columns,omitempty"`
	OnlyNewColumns []string `json:"only_new_columns,omitempty"`
	// held is the most rows the comparison held at once waiting for a
	// partner: what its memory grows with, besides the summaries.
	held int
}

// Column summarizes the changes of one metric column.
type Column struct {
	Name    string `json:"name"`
	Changed int64  `json:"changed"` // points whose value differs
	// Largest and LargestRelative are the change of largest absolute and
	// of largest relative size (|new - old| / |old|), for a numeric column
	// that changed; nil otherwise. Relative changes from 0 are left out.
	Largest         *Change `json:"largest,omitempty"`
	LargestRelative *Change `json:"largest_relative,omitempty"`
	// First is the first point that changed, for a column that is not
	// numeric (best).
	First *Change `json:"first,omitempty"`
}

// Change is one value's change at one point.
type Change struct {
	At  Key    `json:"at"`
	Old string `json:"old"`
	New string `json:"new"`
	// Delta is new - old, 0 for a column that is not numeric; Relative
	// is delta / |old|, 0 when old is 0. Either is null in JSON when it is
	// not finite (a difference past float64's range).
	Delta    float64 `json:"delta"`
	Relative float64 `json:"relative"`
	column   string  // the column's name, which types old and new in JSON
}

// newReport returns an empty report.
func newReport() *Report {
	return &Report{Kind: results.JSONKindDiff, Version: results.DiffJSONVersion, Experiments: []Experiment{}}
}

// compareSettings lists the keys whose values differ.
func compareSettings(old, new []results.Setting) []SettingChange {
	out := []SettingChange{}
	index := func(list []results.Setting) map[string]results.Setting {
		m := map[string]results.Setting{}
		for _, s := range list {
			m[s.Key] = s
		}
		return m
	}
	om, nm := index(old), index(new)
	seen := map[string]bool{}
	check := func(key string) {
		if seen[key] {
			return
		}
		seen[key] = true
		o, okO := om[key]
		n, okN := nm[key]
		if okO && okN && o.Value == n.Value {
			return
		}
		c := SettingChange{Key: key, Old: o.Value, New: n.Value, OldOrigin: o.Origin, NewOrigin: n.Origin}
		if ov, ok := flowList(o.Value); ok {
			if nv, ok := flowList(n.Value); ok {
				c.Added, c.Removed = minus(nv, ov), minus(ov, nv)
			}
		}
		out = append(out, c)
	}
	for _, s := range new {
		check(s.Key)
	}
	for _, s := range old {
		check(s.Key)
	}
	return out
}

// flowList splits a flow list of plain values, [a, b, c].
func flowList(v string) ([]string, bool) {
	if !strings.HasPrefix(v, "[") || !strings.HasSuffix(v, "]") || strings.ContainsAny(v, "{\"") {
		return nil, false
	}
	inner := strings.TrimSpace(v[1 : len(v)-1])
	if inner == "" {
		return []string{}, true
	}
	parts := strings.Split(inner, ",")
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	return parts, true
}

// minus returns the values of a not in b, in a's order.
func minus(a, b []string) []string {
	in := map[string]bool{}
	for _, x := range b {
		in[x] = true
	}
	var out []string
	for _, x := range a {
		if !in[x] {
			out = append(out, x)
		}
	}
	return out
}

// settingValue returns the value of key in settings, "" when absent.
func settingValue(settings []results.Setting, key string) string {
	for _, s := range settings {
		if s.Key == key {
			return s.Value
		}
	}
	return ""
}

package experiment

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"ckptlab/model"
)

// overrideFile is the file the override tests start from.
const overrideFile = "name: base\nworkers: 2\nstate_rows: 100\nfailure_period: 2026-09\n"

func TestOverridePrecedence(t *testing.T) {
	tests := []struct {
		name    string
		env     []string
		sets    []string
		workers []int
	}{
		{"file", nil, nil, []int{2}},
		{"env over file", []string{"CKPTLAB_WORKERS=3"}, nil, []int{3}},
		{"set over file", nil, []string{"workers=4"}, []int{4}},
		{"set over env", []string{"CKPTLAB_WORKERS=3"}, []string{"workers=4"}, []int{4}},
		{"later env wins", []string{"CKPTLAB_WORKERS=3", "CKPTLAB_WORKERS=5"}, nil, []int{5}},
		{"later set wins", nil, []string{"workers=4", "workers=[6, 7]"}, []int{6, 7}},
		{"other variables ignored", []string{"HOME=/root", "CKPTLABWORKERS=9", "PATH=/bin"}, nil, []int{2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := LoadBytes("x.yaml", []byte(overrideFile), Overrides{Env: tt.env, Sets: tt.sets})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(e.Workers, tt.workers) {
				t.Errorf("workers = %v, want %v", e.Workers, tt.workers)
			}
			if e.StateRows[0] != 100 || e.Name != "base" {
				t.Errorf("keys not overridden changed: %+v", *e)
			}
		})
	}
}

func TestOverrideValues(t *testing.T) {
	tests := []struct {
		env, set string
		check    func(e *Experiment) bool
	}{
		{env: "CKPTLAB_STATE_ROWS=400", check: func(e *Experiment) bool { return reflect.DeepEqual(e.StateRows, []int{400}) }},
		{env: "CKPTLAB_FAILURE_PERIODS=[2026-03, 2026-04]", check: func(e *Experiment) bool {
			return reflect.DeepEqual(e.FailurePeriods, []model.Month{model.NewMonth(2026, 3), model.NewMonth(2026, 4)})
		}},
		{set: "intervals=[none,4,6]", check: func(e *Experiment) bool {
			return reflect.DeepEqual(e.Intervals, []model.Interval{model.None, 4, 6})
		}},
		{set: "intervals=all", check: func(e *Experiment) bool { return e.IntervalsAll && e.Intervals == nil }},
		{set: "workers={from: 1, to: 16}", check: func(e *Experiment) bool { return len(e.Workers) == 16 && e.Workers[15] == 16 }},
		{set: "name=renamed", check: func(e *Experiment) bool { return e.Name == "renamed" }},
		{set: "description='a: b'", check: func(e *Experiment) bool { return e.Description == "a: b" }},
		{set: "start=2026-02", check: func(e *Experiment) bool { return e.Start == model.NewMonth(2026, 2) }},
		{set: "probabilities=0.5", check: func(e *Experiment) bool { return reflect.DeepEqual(e.Probabilities, []float64{0.5}) }},
	}
	for _, tt := range tests {
		t.Run(tt.env+tt.set, func(t *testing.T) {
			var o Overrides
			if tt.env != "" {
				o.Env = []string{tt.env}
			}
			if tt.set != "" {
				o.Sets = []string{tt.set}
			}
			e, err := LoadBytes("x.yaml", []byte(overrideFile), o)
			if err != nil {
				t.Fatal(err)
			}
			if !tt.check(e) {
				t.Errorf("override %s%s not applied: %+v", tt.env, tt.set, *e)
			}
		})
	}
}

func TestOverrideErrors(t *testing.T) {
	tests := []struct {
		name string
		env  []string
		sets []string
		want string
	}{
		{"bad set value", nil, []string{"workers=0"}, "--set workers: 0 is not a worker count (want >= 1)"},
		{"bad env value", []string{"CKPTLAB_WORKERS=0"}, nil, "env CKPTLAB_WORKERS: 0 is not a worker count (want >= 1)"},
		{"list element", nil, []string{"intervals=[none, 0]"}, "--set intervals[1]: 0 is not an interval (want none, all, or 1..12)"},
		{"env list element", []string{"CKPTLAB_INTERVALS=[none, 13]"}, nil,
			"env CKPTLAB_INTERVALS[1]: 13 is not an interval (want none, all, or 1..12)"},
		{"range key", nil, []string{"workers={from: 1, to: 4, by: 2}"}, "--set workers.by: unknown key in a range (want from, to or step)"},
		{"set key case", nil, []string{"State_Rows=1"}, "--set State_Rows: unknown key (did you mean state_rows?)"},
		{"set key upper", nil, []string{"WORKERS=1"}, "--set WORKERS: unknown key (did you mean workers?)"},
		{"env key case", []string{"CKPTLAB_State_Rows=1"}, nil, "env CKPTLAB_State_Rows: unknown key (did you mean CKPTLAB_STATE_ROWS?)"},
		{"env unknown", []string{"CKPTLAB_COLOUR=blue"}, nil,
			"env CKPTLAB_COLOUR: unknown key (want CKPTLAB_ and a key in upper case, such as CKPTLAB_STATE_ROWS)"},
		{"not key=value", nil, []string{"workers"}, "--set workers: not key=value (want --set key=value, such as --set workers=8)"},
		{"no key", nil, []string{"=4"}, "--set =4: not key=value (want --set key=value, such as --set workers=8)"},
		{"empty value", nil, []string{"workers="}, "--set workers: missing value (want a whole number >= 1)"},
		{"syntax", nil, []string{"workers=[1, 2"}, "--set workers: syntax error: did not find expected ',' or ']' (want a YAML flow value, such as [none, 4, 6])"},
		{"two documents", nil, []string{"workers=1\n---\n2"}, "--set workers: a second YAML document starts here (want one document per file)"},
		{"alias", nil, []string{"workers=*a"}, "--set workers: syntax error: unknown anchor 'a' referenced (want a YAML flow value, such as [none, 4, 6])"},
		{"anchor", nil, []string{"workers=&a 4"}, "--set workers: anchor &a is not allowed (want the value written out)"},
		{"quoted", nil, []string{`workers="4"`}, `--set workers: "4" is not a worker count (want a whole number >= 1, without quotes)`},
		{"bad name", nil, []string{"name=../up"}, "--set name: ../up is not a valid name (want [a-z0-9][a-z0-9_-]{0,63}, it names the output folder)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := LoadBytes("x.yaml", []byte(overrideFile), Overrides{Env: tt.env, Sets: tt.sets})
			if err == nil || err.Error() != tt.want {
				t.Errorf("LoadBytes = %v\nwant %s", err, tt.want)
			}
		})
	}
}

// TestOverrideAgainstFile checks that overridden values are checked
// against the file's other values, and that the file's own values are
// checked even where an override replaces them.
func TestOverrideAgainstFile(t *testing.T) {
	tests := []struct {
		name, file string
		sets       []string
		want       string
	}{
		{"periods too few for the file's failure", overrideFile, []string{"periods=6"},
			"x.yaml:4:17: failure_period: 2026-09 is not a period after the first of every periods value (want 2026-02..2026-06)"},
		{"overridden file value still checked", "name: x\nworkers: 0\n", []string{"workers=4"},
			"x.yaml:2:10: workers: 0 is not a worker count (want >= 1)"},
		{"file intervals checked against the cap only", "name: x\nperiods: 12\nintervals: [10]\n", []string{"periods=6", "intervals=[3]", "failure_period=2026-04"},
			""},
		{"name from an override", "workers: 4\n", []string{"name=given"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := LoadBytes("x.yaml", []byte(tt.file), Overrides{Sets: tt.sets})
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tt.want {
				t.Errorf("LoadBytes = %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestOverridesFromEnv(t *testing.T) {
	t.Setenv("CKPTLAB_STATE_ROWS", "400")
	o := OverridesFromEnv([]string{"workers=8"})
	e, err := LoadBytes("x.yaml", []byte("name: x\n"), o)
	if err != nil {
		t.Fatal(err)
	}
	if e.StateRows[0] != 400 || e.Workers[0] != 8 {
		t.Errorf("state_rows = %v, workers = %v; want 400, 8", e.StateRows, e.Workers)
	}
}

func TestSuggestions(t *testing.T) {
	tests := []struct{ in, want string }{
		{"worker", "did you mean workers?"},
		{"seed", "did you mean seeds?"},
		{"Periods", "did you mean periods?"},
		{"failure_perod", "did you mean failure_period?"},
		{"colour", "want one of " + strings.Join(keyNames(), ", ")},
	}
	for _, tt := range tests {
		if got := suggestKey(tt.in); got != tt.want {
			t.Errorf("suggestKey(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestNearest checks which names a misspelled one suggests.
func TestNearest(t *testing.T) {
	tests := []struct {
		name string
		want []string
	}{
		{"probability", []string{"probabilities"}},
		{"Workers", []string{"workers"}},
		{"seed", []string{"seeds"}},
		{"stat_rows", []string{"state_rows"}},
		{"failure", []string{"failure_period", "failure_periods", "failure_weights", "failure_distribution"}},
		{"partition", []string{"partition_key"}},
		{"risk", []string{"risk_level"}},
		{"x", nil},
		{"a0", nil},
		{"colour", nil},
	}
	for _, tt := range tests {
		if got := nearest(tt.name, keyNames()); !slices.Equal(got, tt.want) {
			t.Errorf("nearest(%q) = %v, want %v", tt.name, got, tt.want)
		}
	}
	for _, tt := range []struct {
		name string
		want []string
	}{{"stop", []string{"step"}}, {"by", nil}, {"too", []string{"to"}}} {
		if got := nearest(tt.name, []string{"from", "to", "step"}); !slices.Equal(got, tt.want) {
			t.Errorf("nearest(%q) among the keys of a range = %v, want %v", tt.name, got, tt.want)
		}
	}
}

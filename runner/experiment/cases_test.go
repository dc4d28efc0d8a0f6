package experiment

import (
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"ckptlab/model"
)

func TestLoadCases(t *testing.T) {
	e, err := Load(filepath.Join("testdata", "load", "ok-cases.yaml"), Overrides{})
	if err != nil {
		t.Fatal(err)
	}
	file := e.fileGrid()
	small, large := file, file
	small.Subscribers, small.Periods, small.Keys, small.Line = []int{200}, []int{12}, []string{"subscribers", "periods"}, 3
	large.Subscribers, large.Periods, large.Keys, large.Line = []int{1000}, []int{36}, []string{"subscribers", "periods", "intervals"}, 4
	large.Intervals, large.IntervalsAll = nil, true
	if !reflect.DeepEqual(e.Cases, []Grid{small, large}) {
		t.Errorf("Cases =\n%+v\nwant\n%+v", e.Cases, []Grid{small, large})
	}
	want := []Exclusion{
		{Axes: Axes{PartitionKeys: []model.PartitionKey{model.ByType}, Workers: []int{8, 16}}, Keys: []string{"partition_key", "workers"}, Line: 6},
		{Axes: Axes{Intervals: []model.Interval{1}, Subscribers: []int{1000}}, Keys: []string{"interval", "subscribers"}, Line: 7},
	}
	if !reflect.DeepEqual(e.Exclude, want) {
		t.Errorf("Exclude =\n%+v\nwant\n%+v", e.Exclude, want)
	}
}

// TestCasesOverrides checks that cases and exclude given as --set and
// CKPTLAB_ values in YAML flow syntax replace the file's and are checked
// as the file's are, their errors naming the override.
func TestCasesOverrides(t *testing.T) {
	file := []byte("name: x\nworkers: [4, 8]\n")
	tests := []struct {
		o    Overrides
		want string // the error; "" for none
	}{
		{Overrides{Sets: []string{"cases=[{subscribers: 20}, {subscribers: 30, periods: 10, intervals: all}]"}}, ""},
		{Overrides{Env: []string{"CKPTLAB_EXCLUDE=[{interval: none, workers: 8}]"}}, ""},
		{Overrides{Sets: []string{"cases=[{subscribers: 0}]"}},
			"--set cases[0].subscribers: 0 is not a subscriber count (want >= 1)"},
		{Overrides{Sets: []string{"cases=[{workers: 4}, {workers: [8, 4]}]"}},
			"--set cases[1]: shares the grid point seed 20260218, subscribers 200, periods 12, partition_key subscriber, " +
				"workers 4, state_rows 200, probability 1, interval none with cases[0] (want each point in one case)"},
		{Overrides{Env: []string{"CKPTLAB_CASES=[{start: 2026-02}]"}},
			"env CKPTLAB_CASES[0].start: start is not an axis: it is no column of the grid, so it cannot tell two points apart " +
				"(want it at the top level; a case sets only seeds, subscribers, periods, partition_key, workers, state_rows, probabilities or intervals)"},
		{Overrides{Sets: []string{"exclude=[{workers: 16}]"}},
			"--set exclude[0]: matches no point of the grid: no grid has workers 16 (want values the grid has)"},
		{Overrides{Sets: []string{"state_rows=[100]", "exclude=[{state_rows: subscribers}]"}},
			"--set exclude[0]: matches no point of the grid: no grid has state_rows subscribers (want values the grid has)"},
		{Overrides{Sets: []string{"exclude=[{workers: [4, 8]}]"}},
			"--set exclude: drops every point of the grid (want at least one point left)"},
		{Overrides{Sets: []string{"exclude=[{interval: 4"}},
			"--set exclude: syntax error: did not find expected ',' or '}' (want a YAML flow value, such as [none, 4, 6])"},
	}
	for _, tt := range tests {
		e, err := LoadBytes("x.yaml", file, tt.o)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tt.want {
			t.Errorf("LoadBytes with %v = %q\nwant %q", tt.o, got, tt.want)
		}
		if err == nil && e.Cases == nil && e.Exclude == nil {
			t.Errorf("LoadBytes with %v: neither cases nor exclude", tt.o)
		}
	}
}

// TestSizesWithExclusions compares the counted sizes with those of a visit
// of every point, on grids that exclusions cut in several ways.
func TestSizesWithExclusions(t *testing.T) {
	files := []string{
		"name: x\nworkers: [1, 2, 4]\npartition_key: [subscriber, type]\nexclude:\n" +
			"  - {partition_key: type, workers: [2, 4]}\n  - {interval: [1, 2], workers: 1}\n",
		"name: x\nprobabilities: [1, 0.5]\nstate_rows: [0, 200]\nexclude:\n" +
			"  - {probability: 1, state_rows: 0}\n  - {probability: 0.5, state_rows: 200}\n  - {probability: 1, interval: none}\n",
		"name: x\nsubscribers: [20, 30]\nstate_rows: [subscribers, 25, 0]\nexclude:\n" +
			"  - {state_rows: subscribers, interval: 1}\n  - {state_rows: 25, probability: 1}\n",
		"name: x\ncases:\n  - {subscribers: 20, periods: [10, 12], intervals: all}\n  - {subscribers: 30, seeds: [1, 2]}\n" +
			"exclude:\n  - {periods: 10, interval: [9, 10]}\n  - {seed: 2, probabilities: [1, 0.75, 0.5, 0.25]}\n",
	}
	for _, src := range files {
		e, err := LoadBytes("x.yaml", []byte(src), Overrides{})
		if err != nil {
			t.Fatal(err)
		}
		want, ok := countPoints(e, 1e6)
		if !ok {
			t.Fatal("grid too large to count")
		}
		if got := e.Sizes(); got != want {
			t.Errorf("Sizes() = %+v, want %+v for\n%s", got, want, src)
		}
		if len(e.Exclude) == 0 || want.GridRows == 0 {
			t.Errorf("no exclusion in\n%s", src)
		}
	}
}

// BenchmarkSourcesWithExclusions lists the sources of 100,000 seeds less
// an exclusion: each source is checked for a point left.
func BenchmarkSourcesWithExclusions(b *testing.B) {
	src := "name: x\nseeds: {from: 1, to: 100000}\nworkers: [2, 4]\nexclude:\n  - {seed: [5, 7], workers: 2}\n  - {interval: none, probability: 1}\n"
	e, err := LoadBytes("x.yaml", []byte(src), Overrides{})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if n := len(e.gridSources()); n != 100000 {
			b.Fatalf("%d sources", n)
		}
	}
}

// BenchmarkSizesWithExclusions counts the grid of 100,000 seeds, 100
// periods values and every interval, less exclusions.
func BenchmarkSizesWithExclusions(b *testing.B) {
	src := "name: x\nseeds: {from: 1, to: 100000}\nperiods: {from: 12, to: 111}\nintervals: all\n" +
		"exclude:\n  - {seed: [5, 7], workers: 4}\n  - {interval: [none, 3], probability: 1}\n  - {periods: 20}\n"
	e, err := LoadBytes("x.yaml", []byte(src), Overrides{})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		e.Sizes()
	}
}

// TestOverridesShadowCases checks that an override of an axis key applies
// to every case that sets the key, that the resolved cases no longer hold
// the value the override replaced, and that a collision the override
// causes names it.
func TestOverridesShadowCases(t *testing.T) {
	paired := "name: x\ncases:\n  - {subscribers: 200, periods: 12}\n  - {subscribers: 1000, periods: 36}\n"
	apart := "name: x\ncases:\n  - {subscribers: 200}\n  - {subscribers: 1000}\n"
	tests := []struct {
		name, file string
		o          Overrides
		subs       [][]int  // each case's subscribers
		keys       []string // the keys of the first case
		want       string   // the error; "" for none
	}{
		{"set replaces every case", paired, Overrides{Sets: []string{"subscribers=500"}},
			[][]int{{500}, {500}}, []string{"periods"}, ""},
		{"env replaces every case", paired, Overrides{Env: []string{"CKPTLAB_SUBSCRIBERS=[7, 8]"}},
			[][]int{{7, 8}, {7, 8}}, []string{"periods"}, ""},
		{"other keys left", paired, Overrides{Sets: []string{"workers=2"}},
			[][]int{{200}, {1000}}, []string{"subscribers", "periods"}, ""},
		{"cases set on the command line keep their values", paired,
			Overrides{Sets: []string{"cases=[{subscribers: 3}, {subscribers: 4}]", "subscribers=9"}},
			[][]int{{3}, {4}}, []string{"subscribers"}, ""},
		{"cases set after env win over it", paired,
			Overrides{Env: []string{"CKPTLAB_SUBSCRIBERS=7"}, Sets: []string{"cases=[{subscribers: 3}, {subscribers: 4}]"}},
			[][]int{{3}, {4}}, []string{"subscribers"}, ""},
		{"collision names the override", apart, Overrides{Sets: []string{"subscribers=500"}}, nil, nil,
			"x.yaml:4:5: cases[1]: shares the grid point seed 20260218, subscribers 500, periods 12, partition_key subscriber, " +
				"workers 4, state_rows 500, probability 1, interval none with cases[0] (line 3), once --set subscribers replaces " +
				"the values the cases set, as the command line does in every case (want each point in one case)"},
		{"collision names the variable", apart, Overrides{Env: []string{"CKPTLAB_SUBSCRIBERS=5"}}, nil, nil,
			"x.yaml:4:5: cases[1]: shares the grid point seed 20260218, subscribers 5, periods 12, partition_key subscriber, " +
				"workers 4, state_rows 5, probability 1, interval none with cases[0] (line 3), once CKPTLAB_SUBSCRIBERS replaces " +
				"the values the cases set, as the command line does in every case (want each point in one case)"},
		{"a replaced value is still checked", "name: x\ncases:\n  - {subscribers: 0}\n", Overrides{Sets: []string{"subscribers=5"}}, nil, nil,
			"x.yaml:3:19: cases[0].subscribers: 0 is not a subscriber count (want >= 1)"},
		{"intervals checked against the periods that take effect",
			"name: x\nfailure_period: 2026-03\ncases:\n  - {periods: 4, intervals: [5]}\n  - {periods: 12}\n", Overrides{Sets: []string{"periods=6"}},
			nil, nil, "x.yaml:5:5: cases[1]: shares the decision seed 20260218, subscribers 200, periods 6, state_rows 200, probability 1 " +
				"with cases[0] (line 4), once --set periods replaces the values the cases set, as the command line does in every case, " +
				"which gives it other intervals (want the same intervals for a source, state rows and probability in every case, " +
				"whatever the partitioning, so that best and decisions.csv compare them all)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := LoadBytes("x.yaml", []byte(tt.file), tt.o)
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tt.want {
				t.Fatalf("error = %q\nwant    %q", got, tt.want)
			}
			if err != nil {
				return
			}
			for i, g := range e.Cases {
				if !slices.Equal(g.Subscribers, tt.subs[i]) {
					t.Errorf("cases[%d] subscribers = %v, want %v", i, g.Subscribers, tt.subs[i])
				}
			}
			if !slices.Equal(e.Cases[0].Keys, tt.keys) {
				t.Errorf("cases[0] keys = %v, want %v", e.Cases[0].Keys, tt.keys)
			}
		})
	}
}

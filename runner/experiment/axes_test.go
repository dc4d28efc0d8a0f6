package experiment

import (
	"slices"
	"strings"
	"testing"

	"ckptlab/model"
	"ckptlab/model/process"
)

// TestAxisTableHoldsEveryAxisKey holds the axis table to the key table:
// every key whose doc says it is an axis has an entry, and every entry's
// key is a key of the file.
func TestAxisTableHoldsEveryAxisKey(t *testing.T) {
	var want []string
	for _, d := range keyTable {
		if strings.Contains(d.Doc, "an axis") {
			want = append(want, d.Name)
		}
	}
	var got []string
	for _, a := range AxisTable() {
		if keyNamed(a.Key) == nil {
			t.Errorf("axis %s is not a key of the key table", a.Key)
		}
		got = append(got, a.Key)
	}
	slices.Sort(want)
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("axis table keys %v, want the key table's axes %v", got, want)
	}
}

// TestColumnsByLevel checks the key columns of each table as the levels
// give them.
func TestColumnsByLevel(t *testing.T) {
	tests := []struct {
		levels []Level
		want   []string
	}{
		{[]Level{SourceLevel}, []string{"seed", "subscribers", "periods"}},
		{[]Level{SourceLevel, StateLevel}, []string{"seed", "subscribers", "periods", "state_rows"}},
		{[]Level{SourceLevel, StateLevel, DecisionLevel}, []string{"seed", "subscribers", "periods", "state_rows", "probability"}},
		{[]Level{SourceLevel, PartLevel, StateLevel, DecisionLevel, IntervalLevel},
			[]string{"seed", "subscribers", "periods", "partition_key", "workers", "state_rows", "probability", "interval"}},
		{[]Level{ProcessLevel}, []string{"mtbf_seconds", "checkpoint_seconds", "restart_seconds", "shape"}},
	}
	for _, tt := range tests {
		if got := Columns(tt.levels...); !slices.Equal(got, tt.want) {
			t.Errorf("Columns(%v) = %v, want %v", tt.levels, got, tt.want)
		}
	}
}

// TestEachAxisMatchesItsValue checks that each grid axis reads the point's
// value of its own field: an entry that lists only that value drops the
// point, and one that lists another value does not.
func TestEachAxisMatchesItsValue(t *testing.T) {
	p := Point{Seed: 7, Subscribers: 5, Periods: 4, PartitionKey: model.ByRegion, Workers: 3,
		StateRows: 2, Probability: 0.5, Interval: 2}
	tests := []struct {
		key        string
		hit, other Axes
	}{
		{"seeds", Axes{Seeds: []uint32{7}}, Axes{Seeds: []uint32{8}}},
		{"subscribers", Axes{Subscribers: []int{5}}, Axes{Subscribers: []int{6}}},
		{"periods", Axes{Periods: []int{4}}, Axes{Periods: []int{5}}},
		{"partition_key", Axes{PartitionKeys: []model.PartitionKey{model.ByRegion}}, Axes{PartitionKeys: []model.PartitionKey{model.ByType}}},
		{"workers", Axes{Workers: []int{3}}, Axes{Workers: []int{4}}},
		{"state_rows", Axes{StateRows: []int{2}}, Axes{StateRows: []int{3}}},
		{"probabilities", Axes{Probabilities: []float64{0.5}}, Axes{Probabilities: []float64{0.25}}},
		{"intervals", Axes{Intervals: []model.Interval{2}}, Axes{Intervals: []model.Interval{model.None}}},
	}
	var keys []string
	for _, tt := range tests {
		keys = append(keys, tt.key)
		a := axisNamed(tt.key)
		if a == nil {
			t.Fatalf("no grid axis %s", tt.key)
		}
		hit, other := Exclusion{Axes: tt.hit}, Exclusion{Axes: tt.other}
		if !a.ops.given(&hit.Axes) {
			t.Errorf("%s: given is false for an entry that lists it", tt.key)
		}
		if !a.ops.matches(&hit, &p) || !hit.Matches(p) {
			t.Errorf("%s: an entry of the point's value does not take it in", tt.key)
		}
		if a.ops.matches(&other, &p) || other.Matches(p) {
			t.Errorf("%s: an entry of another value takes the point in", tt.key)
		}
		z := (&Experiment{Exclude: []Exclusion{hit, other}}).Excluder()
		if got := z.axes[slices.Index(axisKeys, tt.key)].of(&p); got != 1 {
			t.Errorf("%s: mask of the point's value is %b, want 1", tt.key, got)
		}
	}
	if !slices.Equal(keys, axisKeys) {
		t.Errorf("tested axes %v, want every grid axis %v", keys, axisKeys)
	}
}

// TestAxisTextIsDescribe checks that each axis writes back the values a
// case sets, in the syntax of the file.
func TestAxisTextIsDescribe(t *testing.T) {
	g := Grid{Axes: Lesson("x").Axes, Keys: axisKeys}
	got := g.Describe(func(s []string) string { return "[" + strings.Join(s, ", ") + "]" }, func(f float64) string { return "~" + model.Interval(int(f*4)).String() })
	want := "seeds: [20260218], subscribers: [200], periods: [12], partition_key: [subscriber], workers: [4], " +
		"state_rows: [subscribers], probabilities: [~4, ~3, ~2, ~1], intervals: [none, 6, 4, 3, 2, 1]"
	if got != want {
		t.Errorf("Describe = %q\nwant %q", got, want)
	}
	g.IntervalsAll = true
	if got := g.axisText("intervals", nil, nil); got != "all" {
		t.Errorf("intervals all written %q", got)
	}
}

// TestGroupsNestTheProcessAxes: the failure processes are the time
// model's axes nested in table order (mtbf outermost), shape only for
// Weibull, and groupCount counts them.
func TestGroupsNestTheProcessAxes(t *testing.T) {
	for _, tt := range []struct {
		name string
		t    Time
	}{
		{"exponential", Time{MTBFs: []float64{900, 21600}, Checkpoints: []float64{300, 60}, Restarts: []float64{0, 600, 1200}, Shapes: []float64{0.7, 2}}},
		{"weibull", Time{MTBFs: []float64{900, 21600}, Checkpoints: []float64{300}, Restarts: []float64{600}, Shapes: []float64{0.7, 2},
			Distribution: process.Weibull}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var want []Group
			shapes := []float64{0}
			if tt.t.Distribution == process.Weibull {
				shapes = tt.t.Shapes
			}
			for _, m := range tt.t.MTBFs {
				for _, d := range tt.t.Checkpoints {
					for _, r := range tt.t.Restarts {
						for _, k := range shapes {
							want = append(want, Group{MTBF: m, Checkpoint: d, Restart: r, Shape: k})
						}
					}
				}
			}
			if got := tt.t.Groups(); !slices.Equal(got, want) {
				t.Errorf("groups %v, want %v", got, want)
			}
			if n := tt.t.groupCount(); n != int64(len(want)) {
				t.Errorf("groupCount %d, want %d", n, len(want))
			}
		})
	}
}

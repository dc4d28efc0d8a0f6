package experiment

import (
	"math/big"
	"reflect"
	"slices"
	"strconv"
	"testing"

	"ckptlab/model"
)

// load loads a file of the given text, failing the test on an error.
func load(t *testing.T, src string) *Experiment {
	t.Helper()
	e, err := LoadBytes("x.yaml", []byte(src), Overrides{})
	if err != nil {
		t.Fatalf("LoadBytes(%q):\n%v", src, err)
	}
	return e
}

func TestIntRanges(t *testing.T) {
	tests := []struct {
		axis string
		want []int
	}{
		{"workers: {from: 1, to: 10, step: 4}", []int{1, 5, 9}},
		{"workers: {from: 1, to: 9, step: 4}", []int{1, 5, 9}},
		{"workers: {from: 1, to: 4}", []int{1, 2, 3, 4}},
		{"workers: {from: 3, to: 3}", []int{3}},
		{"workers: {from: 3, to: 3, step: -2}", []int{3}},
		{"workers: {from: 16, to: 1, step: -5}", []int{16, 11, 6, 1}},
		{"workers: {step: 2, to: 5, from: 1}", []int{1, 3, 5}},
		{"workers: {from: 1, to: 2, step: 1000000000000}", []int{1}},
		{"workers: 7", []int{7}},
		{"workers: [8, 2, 4]", []int{8, 2, 4}},
		{"workers:\n  from: 2\n  to: 6\n  step: 2", []int{2, 4, 6}},
	}
	for _, tt := range tests {
		t.Run(tt.axis, func(t *testing.T) {
			e := load(t, "name: x\n"+tt.axis+"\n")
			if !reflect.DeepEqual(e.Workers, tt.want) {
				t.Errorf("workers = %v, want %v", e.Workers, tt.want)
			}
		})
	}
}

func TestSeedRange(t *testing.T) {
	e := load(t, "name: x\nseeds: {from: 4294967293, to: 4294967295}\n")
	if want := []uint32{4294967293, 4294967294, 4294967295}; !reflect.DeepEqual(e.Seeds, want) {
		t.Errorf("seeds = %v, want %v", e.Seeds, want)
	}
}

// TestProbabilitySweep checks the range 0 to 1 by 0.05: 21 values, each
// from + i*step computed exactly and rounded once, so that every value is the
// float64 nearest its decimal (0.15, not 3*0.05 = 0.15000000000000002), and
// the last exactly 1.
func TestProbabilitySweep(t *testing.T) {
	e := load(t, "name: x\nprobabilities: {from: 0, to: 1, step: 0.05}\n")
	if len(e.Probabilities) != 21 {
		t.Fatalf("got %d values, want 21: %v", len(e.Probabilities), e.Probabilities)
	}
	for i, p := range e.Probabilities {
		// 5i/100: both exact, so the quotient is the float64 nearest to i*0.05.
		if want := float64(5*i) / 100; p != want {
			t.Errorf("value %d = %v, want %v", i, p, want)
		}
	}
	if got := strconv.FormatFloat(e.Probabilities[3], 'f', -1, 64); got != "0.15" {
		t.Errorf("value 3 is written %s, want 0.15", got)
	}
}

// TestFloatRangeNotDecimal checks a range whose ends YAML reads as numbers
// but not as plain decimals still computes from + i*step.
func TestFloatRangeWrittenInExponent(t *testing.T) {
	e := load(t, "name: x\nprobabilities: {from: 0, to: 1e-1, step: 5e-2}\n")
	if want := []float64{0, 0.05, 0.1}; !slices.Equal(e.Probabilities, want) {
		t.Errorf("probabilities = %v, want %v", e.Probabilities, want)
	}
}

func TestFloatRanges(t *testing.T) {
	tests := []struct {
		axis string
		want []float64
	}{
		// not hit: the last value stays below to; values are exact decimals,
		// 0.9 and not the float64 product 3*0.3 = 0.8999999999999999
		{"{from: 0, to: 1, step: 0.3}", []float64{0, 0.3, 0.6, 0.9}},
		// (0.3-0.1)/0.1 is 1.9999999999999998: hit within the tolerance
		{"{from: 0.1, to: 0.3, step: 0.1}", []float64{0.1, 0.2, 0.3}},
		{"{from: 1, to: 0, step: -0.25}", []float64{1, 0.75, 0.5, 0.25, 0}},
		{"{from: 0.5, to: 0.5}", []float64{0.5}},
		{"{from: 0, to: 1}", []float64{0, 1}},
		{"{from: 0, to: 1, step: 0.5}", []float64{0, 0.5, 1}},
		{"[1.0, 0.75, 0.5, 0.25]", []float64{1, 0.75, 0.5, 0.25}},
		{"[1, 0, -0.0]", nil}, // 0 twice: an error, see below
		{"0.5", []float64{0.5}},
		{"1", []float64{1}},
	}
	for _, tt := range tests {
		t.Run(tt.axis, func(t *testing.T) {
			src := "name: x\nprobabilities: " + tt.axis + "\n"
			if tt.want == nil {
				if _, err := LoadBytes("x.yaml", []byte(src), Overrides{}); err == nil {
					t.Errorf("LoadBytes(%q) accepted it", src)
				}
				return
			}
			e := load(t, src)
			if !reflect.DeepEqual(e.Probabilities, tt.want) {
				t.Errorf("probabilities = %v, want %v", e.Probabilities, tt.want)
			}
		})
	}
}

func TestIntervals(t *testing.T) {
	e := load(t, "name: x\nintervals: all\n")
	if !e.IntervalsAll || e.Intervals != nil {
		t.Fatalf("intervals: all gave IntervalsAll %v, Intervals %v", e.IntervalsAll, e.Intervals)
	}
	want := []model.Interval{model.None, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}
	if got := e.IntervalsFor(12); !reflect.DeepEqual(got, want) {
		t.Errorf("IntervalsFor(12) = %v, want %v", got, want)
	}

	tests := []struct {
		axis string
		want []model.Interval
	}{
		{"none", []model.Interval{model.None}},
		{"6", []model.Interval{6}},
		{"[none, 6, 4, 3, 2, 1]", []model.Interval{model.None, 6, 4, 3, 2, 1}},
		{"{from: 12, to: 1, step: -4}", []model.Interval{12, 8, 4}},
		{"[\"none\", 12]", []model.Interval{model.None, 12}},
	}
	for _, tt := range tests {
		e := load(t, "name: x\nintervals: "+tt.axis+"\n")
		if e.IntervalsAll || !reflect.DeepEqual(e.Intervals, tt.want) {
			t.Errorf("intervals: %s = %v, want %v", tt.axis, e.Intervals, tt.want)
		}
	}
}

func TestFailurePeriods(t *testing.T) {
	e := load(t, "name: x\nperiods: [12, 6]\nfailure_period: 2026-04\nfailure_periods: [2026-02, 2026-06]\n")
	want := []model.Month{model.NewMonth(2026, 2), model.NewMonth(2026, 6)}
	if !reflect.DeepEqual(e.FailurePeriods, want) {
		t.Errorf("failure_periods = %v, want %v", e.FailurePeriods, want)
	}
	if got := e.FailuresFor(6); !reflect.DeepEqual(got, []int{1, 5}) {
		t.Errorf("FailuresFor(6) = %v, want [1 5]", got)
	}

	e = load(t, "name: x\nfailure_periods: all\n")
	if e.FailurePeriods != nil {
		t.Errorf("failure_periods: all = %v, want nil", e.FailurePeriods)
	}
	e = load(t, "name: x\nfailure_periods: 2026-12\n")
	if len(e.FailurePeriods) != 1 || e.FailurePeriods[0] != model.NewMonth(2026, 12) {
		t.Errorf("failure_periods: 2026-12 = %v", e.FailurePeriods)
	}
}

func TestPartitionKeys(t *testing.T) {
	e := load(t, "name: x\npartition_key: [type, subscriber, region]\n")
	want := []model.PartitionKey{model.ByType, model.BySubscriber, model.ByRegion}
	if !reflect.DeepEqual(e.PartitionKeys, want) {
		t.Errorf("partition_key = %v, want %v", e.PartitionKeys, want)
	}
}

// TestDecimalRangeIsExact holds the fast path of float ranges to exact
// rational arithmetic, on steps that float64 cannot hold exactly and on
// values past 2^53 units of the step.
func TestDecimalRangeIsExact(t *testing.T) {
	for _, c := range []struct{ from, step string }{
		{"0", "0.05"}, {"0", "0.000001"}, {"0.1", "0.1"}, {"-1", "0.003"}, {"1", "-0.07"},
		{"0.123456789012345", "0.000000000000001"}, {"3", "7"}, {"0", "0.1"}, {"0", "1e-06"}, {"2.5e-3", "5E-7"}, {"-1e2", "25e-1"},
	} {
		at, ok := decimalRange(c.from, c.step)
		if !ok {
			t.Fatalf("%s by %s: no fast path", c.from, c.step)
		}
		var from, step big.Rat
		from.SetString(c.from)
		step.SetString(c.step)
		for _, i := range []int{0, 1, 2, 3, 7, 99, 12345, 999_999, 1 << 40} {
			var v big.Rat
			v.SetInt64(int64(i))
			v.Mul(&v, &step)
			v.Add(&v, &from)
			want, _ := v.Float64()
			if got := at(i, 0, 0); got != want {
				t.Errorf("%s by %s, value %d: %v, want %v", c.from, c.step, i, got, want)
			}
		}
	}
	for _, text := range []string{"1e-60", "1e", "0.1234567890123456", ".", "", "1.2.3", "0x10"} {
		if _, _, ok := decimalOf(text); ok {
			t.Errorf("decimalOf(%q) is ok, want not", text)
		}
	}
}

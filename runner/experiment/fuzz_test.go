package experiment

import (
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"ckptlab/model"
)

// FuzzLoad feeds LoadBytes arbitrary files and --set arguments. It must
// never panic; it returns either an experiment that keeps every invariant
// of a valid one, or an ErrorList whose every error has a position or
// names an override.
func FuzzLoad(f *testing.F) {
	for _, pattern := range []string{
		filepath.Join("..", "..", "experiments", "*.yaml"),
		filepath.Join("testdata", "load", "*.yaml"),
	} {
		files, err := filepath.Glob(pattern)
		if err != nil {
			f.Fatal(err)
		}
		for _, path := range files {
			data, err := os.ReadFile(path)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(data, "")
		}
	}
	for _, set := range []string{"workers=[1, 2]", "intervals=all", "probabilities={from: 0, to: 1, step: 0.1}",
		"periods=6", "name=other", "start=2026-05", "failure_periods=[2026-03]", "x=1", "workers",
		"cases=[{subscribers: 2, periods: 3, intervals: all}, {subscribers: 3}]",
		"cases=[{workers: [1, 2]}, {workers: 2, intervals: [1]}]", "cases=[{start: 2026-01}]",
		"exclude=[{interval: none, workers: 4}]", "exclude=[{probability: [1, 0.5]}, {seed: 20260218, interval: 6}]",
		"exclude=[{interval: all}]", "exclude=[{}]", "exclude=[{state_rows: subscribers, interval: 6}]",
		"cases=[{state_rows: subscribers}, {state_rows: 200, workers: 8}]"} {
		f.Add([]byte("name: x\n"), set)
	}
	f.Fuzz(func(t *testing.T, data []byte, set string) {
		var o Overrides
		if set != "" {
			o.Sets = []string{set}
		}
		e, err := LoadBytes("f.yaml", data, o)
		if err != nil {
			checkErrors(t, err)
			return
		}
		checkExperiment(t, e)
	})
}

// checkErrors checks that err is an ErrorList of positioned errors.
func checkErrors(t *testing.T, err error) {
	var list ErrorList
	if !errors.As(err, &list) || len(list) == 0 {
		t.Fatalf("error %v is not a non-empty ErrorList", err)
	}
	for _, e := range list {
		switch {
		case e.File == "f.yaml" && e.Line >= 1 && e.Col >= 1:
		case (e.File == OriginSet || e.File == OriginEnv) && e.Line == 0:
		default:
			t.Fatalf("error without a position or an override: %#v", e)
		}
		if e.Msg == "" {
			t.Fatalf("error without a message: %#v", e)
		}
	}
}

// checkExperiment checks the invariants of a valid experiment.
func checkExperiment(t *testing.T, e *Experiment) {
	if !namePattern.MatchString(e.Name) || e.Version != 1 || e.File != "f.yaml" {
		t.Fatalf("name %q, version %d, file %q", e.Name, e.Version, e.File)
	}
	minP := 0
	for _, g := range e.Grids() {
		checkGrid(t, e, &g)
		if p := slices.Min(g.Periods); minP == 0 || p < minP {
			minP = p
		}
	}
	for _, f := range append([]model.Month{e.FailurePeriod}, e.FailurePeriods...) {
		if f <= e.Start || f > e.Start+model.Month(minP-1) {
			t.Fatalf("failure %v with start %v and periods %v", f, e.Start, e.Periods)
		}
	}
	sizes := e.Sizes()
	if sizes.Sources < 1 || sizes.GridRows < 1 || sizes.FailureRows < 1 {
		t.Fatalf("sizes %+v", sizes)
	}
	if want, ok := countPoints(e, 20_000); ok && want != sizes {
		t.Fatalf("Sizes() = %+v, counting the points one by one gives %+v", sizes, want)
	}
	if WritePlan == nil {
		t.Fatal("WritePlan is not set: plan_test.go sets it")
	}
	if err := WritePlan(io.Discard, e, "out", []string{"csv", "xlsx", "md"}); err != nil {
		t.Fatal(err)
	}
}

// WritePlan is runner.WritePlan, set by plan_test.go: a valid experiment
// must have a plan, and the plan is written by runner, which this package
// does not import.
var WritePlan func(w io.Writer, e *Experiment, outDir string, formats []string) error

// checkGrid checks the invariants of one grid of a valid experiment.
func checkGrid(t *testing.T, e *Experiment, g *Grid) {
	if len(g.Seeds) == 0 || len(g.Subscribers) == 0 || len(g.Periods) == 0 || len(g.PartitionKeys) == 0 ||
		len(g.Workers) == 0 || len(g.StateRows) == 0 || len(g.Probabilities) == 0 ||
		(len(g.Intervals) == 0) != g.IntervalsAll {
		t.Fatalf("an empty axis: %+v", *g)
	}
	for _, p := range g.Probabilities {
		if !(p >= 0 && p <= 1) || math.Signbit(p) {
			t.Fatalf("probability %v", p)
		}
	}
	minP, maxP := slices.Min(g.Periods), slices.Max(g.Periods)
	if minP < 2 || maxP > maxPeriods || e.Start+model.Month(maxP-1) > lastMonth {
		t.Fatalf("periods %v from %v", g.Periods, e.Start)
	}
	for _, k := range g.Intervals {
		if k < 0 || int(k) > minP {
			t.Fatalf("interval %v with periods %v", k, g.Periods)
		}
	}
}

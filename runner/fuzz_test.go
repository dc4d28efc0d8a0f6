package runner

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
		filepath.Join("..", "experiments", "*.yaml"),
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
		"periods=6", "name=other", "start=2026-05", "failure_periods=[2026-03]", "x=1", "workers"} {
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
	if len(e.Seeds) == 0 || len(e.Subscribers) == 0 || len(e.Periods) == 0 || len(e.PartitionKeys) == 0 ||
		len(e.Workers) == 0 || len(e.StateRows) == 0 || len(e.Probabilities) == 0 ||
		(len(e.Intervals) == 0) != e.IntervalsAll {
		t.Fatalf("an empty axis: %+v", *e)
	}
	for _, p := range e.Probabilities {
		if !(p >= 0 && p <= 1) || math.Signbit(p) {
			t.Fatalf("probability %v", p)
		}
	}
	minP, maxP := slices.Min(e.Periods), slices.Max(e.Periods)
	if minP < 2 || maxP > maxPeriods || e.Start+model.Month(maxP-1) > lastMonth {
		t.Fatalf("periods %v from %v", e.Periods, e.Start)
	}
	for _, k := range e.Intervals {
		if k < 0 || int(k) > minP {
			t.Fatalf("interval %v with periods %v", k, e.Periods)
		}
	}
	for _, f := range append([]model.Month{e.FailurePeriod}, e.FailurePeriods...) {
		if f <= e.Start || f > e.Start+model.Month(minP-1) {
			t.Fatalf("failure %v with start %v and periods %v", f, e.Start, e.Periods)
		}
	}
	if e.Sources() < 1 || e.GridRows() < 1 || e.FailureRows() < 1 {
		t.Fatalf("sizes %d, %d, %d", e.Sources(), e.GridRows(), e.FailureRows())
	}
	if err := WritePlan(io.Discard, e, "out", []string{"csv", "xlsx", "md"}); err != nil {
		t.Fatal(err)
	}
}

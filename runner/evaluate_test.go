package runner

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	"ckptlab/model"
	"ckptlab/runner/experiment"
)

// jobsExperiment has faults, two sources of several tasks each, and every
// partition key over several worker counts: enough for goroutines to take
// tasks in different orders.
func jobsExperiment() *experiment.Experiment {
	e := experiment.Lesson("jobs")
	e.Seeds = []uint32{7, 20260218}
	e.Subscribers = []int{5*chunkSize + 123}
	e.Periods = []int{6, 13}
	e.Missing, e.Duplicates = 5000, 5000
	e.PartitionKeys = model.PartitionKeys
	e.Workers = []int{1, 3, 4, 7}
	e.Probabilities = []float64{1, 0.5, 0.25, 0}
	e.Intervals, e.IntervalsAll = nil, true
	e.FailurePeriod = e.Start + 4
	return &e
}

// evaluateJobs evaluates e on the given number of goroutines, checking
// that its faults drop records.
func evaluateJobs(t *testing.T, e *experiment.Experiment, jobs int) *Evaluation {
	t.Helper()
	res, err := Evaluate(context.Background(), e, Options{Jobs: jobs})
	if err != nil {
		t.Fatal(err)
	}
	for _, sr := range res.Sources {
		if sr.Drops == (model.Drops{}) {
			t.Fatalf("source %+v: no record dropped; the faults are not exercised", sr.Source)
		}
	}
	return res
}

// TestEvaluateSameForEveryJobs checks "same input, same bytes" (docs/outputs.md#result-tables)
// across -j: the evaluated sources, which every table is computed from, do
// not depend on how many goroutines drew the sources, nor on which drew
// what. Package report checks the tables' bytes.
func TestEvaluateSameForEveryJobs(t *testing.T) {
	e := jobsExperiment()
	want := evaluateJobs(t, e, 1)
	if n := len(want.Sources); n != 4 {
		t.Fatalf("%d sources, want 4", n)
	}
	for _, jobs := range []int{2, 3, 8} {
		if got := evaluateJobs(t, e, jobs); !reflect.DeepEqual(got.Sources, want.Sources) {
			t.Errorf("-j %d: the evaluated sources differ from -j 1", jobs)
		}
	}
}

// TestEvaluateProgress checks the promise of Options.Progress: calls one at
// a time, done never decreasing, ending at the total of subscribers.
func TestEvaluateProgress(t *testing.T) {
	e := jobsExperiment()
	total := int64(len(e.Seeds) * e.Subscribers[0] * len(e.Periods))
	var (
		calls, last int64
		inside      bool
	)
	report := func(done, all int64) {
		if inside {
			t.Error("Progress called while a call is running")
		}
		inside = true
		defer func() { inside = false }()
		calls++
		if done < last || all != total {
			t.Errorf("Progress(%d, %d) after %d; want done rising to %d", done, all, last, total)
		}
		last = done
	}
	if _, err := Evaluate(context.Background(), e, Options{Jobs: 4, Progress: report}); err != nil {
		t.Fatal(err)
	}
	if calls == 0 || last != total {
		t.Errorf("%d calls, last done %d; want done to reach %d", calls, last, total)
	}
}

func TestEvaluateCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Evaluate(ctx, jobsExperiment(), Options{Jobs: 2}); !errors.Is(err, context.Canceled) {
		t.Errorf("Evaluate on a canceled context: err = %v, want context.Canceled", err)
	}
}

// TestCountPiecesMerge cuts every source into uneven pieces, counts each
// piece apart, carries its tallies through their binary encoding (as a
// run in shards would), merges them and checks that assemble then gives the
// same sources as Evaluate.
func TestCountPiecesMerge(t *testing.T) {
	checkPiecesMerge(t, jobsExperiment())
}

// checkPiecesMerge is TestCountPiecesMerge for the experiment e.
func checkPiecesMerge(t *testing.T, e *experiment.Experiment) {
	t.Helper()
	want := evaluateJobs(t, e, 2)
	var pieces []piece
	for _, p := range allWork(e) {
		for lo, step := p.Lo, 1; lo < p.Hi; lo, step = lo+step, step*7+3 {
			pieces = append(pieces, piece{Source: p.Source, Lo: lo, Hi: min(lo+step, p.Hi)})
		}
	}
	merged := make([]*model.Tally, len(e.SourceList()))
	for _, p := range pieces {
		tallies, err := countPieces(context.Background(), e, Options{Jobs: 2}, []piece{p})
		if err != nil {
			t.Fatal(err)
		}
		for s, tally := range tallies {
			if (tally != nil) != (s == p.Source) {
				t.Fatalf("piece %+v: tally of source %d is %v", p, s, tally)
			}
			if tally == nil {
				continue
			}
			b, err := tally.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			var decoded model.Tally
			if err := decoded.UnmarshalBinary(b); err != nil {
				t.Fatal(err)
			}
			if merged[s] == nil {
				merged[s] = &decoded
			} else {
				merged[s].Merge(&decoded)
			}
		}
	}
	res := assemble(e, merged)
	if !reflect.DeepEqual(res.Sources, want.Sources) {
		t.Errorf("%d pieces merged: the evaluated sources differ from Evaluate's", len(pieces))
	}
}

func TestCountRejectsPiecesOutsideTheExperiment(t *testing.T) {
	e := jobsExperiment()
	n := e.Subscribers[0]
	for _, p := range []piece{{-1, 0, 1}, {4, 0, 1}, {0, -1, 1}, {0, 5, 4}, {0, 0, n + 1}} {
		if _, err := countPieces(context.Background(), e, Options{}, []piece{p}); err == nil {
			t.Errorf("piece %+v: no error", p)
		}
	}
	if tallies, err := countPieces(context.Background(), e, Options{}, []piece{{1, 7, 7}}); err != nil || tallies[1] != nil {
		t.Errorf("empty piece: %v, %v; want no tally and no error", tallies, err)
	}
}

// TestCountPanicIsAnError checks that a panic while counting, a bug, ends
// countPieces with an error that says so instead of crashing the process, whose
// exit code would read as bad input.
func TestCountPanicIsAnError(t *testing.T) {
	e := jobsExperiment()
	opt := Options{Jobs: 3, Progress: func(done, total int64) { panic("a test panic") }}
	_, err := countPieces(context.Background(), e, opt, allWork(e))
	if err == nil || !strings.Contains(err.Error(), "internal error: counting panicked: a test panic") {
		t.Errorf("Count = %v, want the panic as an error", err)
	}
}

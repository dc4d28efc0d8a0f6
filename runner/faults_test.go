package runner

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	"ckptlab/model"
	"ckptlab/runner/experiment"
)

// wholeTallies counts every source of e in one call of model.Source.Count
// each, which draws the faults per block and shares nothing: the tallies
// the shared fault indexes are held to.
func wholeTallies(e *experiment.Experiment) []*model.Tally {
	var out []*model.Tally
	for _, src := range e.SourceList() {
		t := model.NewTally(src.Periods, e.Partitionings())
		src.Count(t, 0, src.Subscribers)
		out = append(out, t)
	}
	return out
}

func sameTallies(t *testing.T, what string, got, want []*model.Tally) {
	t.Helper()
	for s := range want {
		g, err := got[s].MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		w, err := want[s].MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(g, w) {
			t.Errorf("%s: source %d: tally %+v, counted whole %+v", what, s, got[s].Drops(), want[s].Drops())
		}
	}
}

// TestSharedFaultsMatchCount counts sources whose tasks share fault indexes,
// in one window per source and in several, on one to three goroutines and
// in shards merged, and checks that every tally is the one Count gives
// each source whole.
func TestSharedFaultsMatchCount(t *testing.T) {
	for _, c := range []struct {
		name     string
		sparse   bool // 20 draws of each kind, whose buckets outweigh them
		limit    bool // the budget a source's index over the goroutines, not the default
		windows  int  // of the first source
		together bool // sized together
	}{
		{"one window", false, false, 1, false},
		// windows of three tasks: the expected fill is 7/8 of a source's index
		{"two windows", false, true, 2, true},
		// buckets that a window's limit does not hold for every window: each
		// sizes its own
		{"two sparse windows", true, true, 2, false},
	} {
		e := jobsExperiment()
		if c.sparse {
			e.Missing, e.Duplicates = 20, 20
		}
		want := wholeTallies(e)
		src := e.SourceList()[0]
		var limit int64
		if c.limit {
			limit = src.FaultIndexBytes(0, src.Subscribers)
		}
		for _, jobs := range []int{1, 2, 3} {
			what := fmt.Sprintf("%s, -j %d", c.name, jobs)
			opt := Options{Jobs: jobs, indexBudget: limit * int64(jobs)}
			tasks, shared := cutTasks(nil, nil, piece{Lo: 0, Hi: src.Subscribers}, src, opt)
			windows := map[*sharedFaults]int{}
			sized := map[*sharedSizes]bool{}
			for i, f := range shared {
				if f == nil {
					t.Fatalf("%s: task %+v redraws", what, tasks[i])
				}
				windows[f]++
				sized[f.sizes] = true
			}
			if len(windows) != c.windows {
				t.Errorf("%s: %d windows, want %d", what, len(windows), c.windows)
			}
			if c.together && (len(sized) != 1 || sized[nil]) {
				t.Errorf("%s: the windows' sizes %v, want one sizing shared", what, sized)
			}
			if !c.together && (len(sized) != 1 || !sized[nil]) {
				t.Errorf("%s: the windows' sizes %v, want each window's own", what, sized)
			}
			got, err := countPieces(context.Background(), e, opt, allWork(e))
			if err != nil {
				t.Fatal(err)
			}
			sameTallies(t, what, got, want)
			// Shards cut windows of their own, inside the sources.
			merged := make([]*model.Tally, len(want))
			for i := 1; i <= 5; i++ {
				part, err := countPieces(context.Background(), e, opt, within(allWork(e), shardPart(e, Shard{i, 5})))
				if err != nil {
					t.Fatal(err)
				}
				for s, p := range part {
					switch {
					case p == nil:
					case merged[s] == nil:
						merged[s] = p
					default:
						merged[s].Merge(p)
					}
				}
			}
			sameTallies(t, what+", 5 shards", merged, want)
		}
	}
}

// TestSharedFaultsRefused counts a window whose index is refused at its
// limit: its tasks redraw, and count the same.
func TestSharedFaultsRefused(t *testing.T) {
	e := jobsExperiment()
	want := wholeTallies(e)[0]
	src := e.SourceList()[0]
	f := &sharedFaults{src: src, lo: 0, hi: src.Subscribers, limit: 1, index: src.NewFaultIndex(0, src.Subscribers)}
	got := model.NewTally(src.Periods, e.Partitionings())
	const pieces = 4
	f.left.Store(pieces)
	for k := range pieces {
		f.count(got, k*src.Subscribers/pieces, (k+1)*src.Subscribers/pieces)
		if f.drawn[0].ok || f.drawn[1].ok {
			t.Fatal("an index drawn above its limit")
		}
	}
	sameTallies(t, "refused", []*model.Tally{got}, []*model.Tally{want})
}

// TestSharedFaultsDropped checks that a window's index is dropped after
// its last task, not before.
func TestSharedFaultsDropped(t *testing.T) {
	e := jobsExperiment()
	src := e.SourceList()[0]
	f := &sharedFaults{src: src, lo: 0, hi: src.Subscribers, limit: 1 << 30, index: src.NewFaultIndex(0, src.Subscribers)}
	f.left.Store(2)
	tally := model.NewTally(src.Periods, e.Partitionings())
	f.count(tally, 0, 10)
	if f.index == nil {
		t.Fatal("index dropped before the window's last task")
	}
	f.count(tally, 10, 20)
	if f.index != nil {
		t.Fatal("index kept after the window's last task")
	}
}

// TestFaultIndexMemoryBounds checks plan's share of the fault indexes: a
// source is cut into no more windows, nor given a larger index limit, than
// faultIndexMemory says for it, nor than faultIndexBound says for a larger
// source; a source too small or too dense is not indexed.
func TestFaultIndexMemoryBounds(t *testing.T) {
	for _, big := range []model.Source{
		{Subscribers: 10_000_000, Periods: 120, Missing: 12_000_000, Duplicates: 12_000_000},
		{Subscribers: 100_000_000, Periods: 120, Missing: 120_000_000, Duplicates: 120_000_000},
		{Subscribers: 1_000_000_000, Periods: 3, Missing: 1000, Duplicates: 0},
		{Subscribers: 400_000, Periods: 24, Missing: 300_000, Duplicates: 300_000},
	} {
		for _, jobs := range []int{1, 2, 8} {
			windows, each, _ := faultIndexBound(big, jobs)
			for _, n := range []int{big.Subscribers, big.Subscribers - 1, big.Subscribers / 2, big.Subscribers/3 + 1, big.Subscribers / 5, 200_000, 70_000} {
				src := big
				src.Subscribers = n
				subs, limit := faultWindow(src, jobs, indexBudget)
				if subs == 0 {
					continue
				}
				w := int64((n + subs - 1) / subs)
				own, ownEach, _ := faultIndexMemory(src, jobs)
				if w > windows || w > own {
					t.Errorf("%+v -j %d: %d windows, more than the %d counted for it, or the %d for %d subscribers", src, jobs, w, own, windows, big.Subscribers)
				}
				if limit > each || limit > ownEach {
					t.Errorf("%+v -j %d: an index of up to %d bytes, more than the %d counted for it, or the %d for %d subscribers", src, jobs, limit, ownEach, each, big.Subscribers)
				}
				if full := min(n, subs); limit < src.ExpectedFaultIndexBytes(0, full)*17/16 {
					t.Errorf("%+v -j %d: a limit of %d bytes, less than a sixteenth over the index a window of %d subscribers is expected to take, %d", src, jobs, limit, full, src.ExpectedFaultIndexBytes(0, full))
				}
			}
		}
	}
	dense := model.Source{Subscribers: 1_000_000, Periods: 120, Missing: 360_000_000}
	if subs, _ := faultWindow(dense, 2, indexBudget); subs != 0 {
		t.Errorf("%+v: indexed in windows of %d subscribers", dense, subs)
	}
	small := model.Source{Subscribers: 20_000, Periods: 24, Missing: 300_000, Duplicates: 300_000}
	if w, _, _ := faultIndexBound(small, 2); w != 0 {
		t.Errorf("%+v: %d windows counted for a source of one task", small, w)
	}
}

// BenchmarkFaultWindows counts scale.yaml with one fault of each kind per
// hundred records in process, on every core: at 10^7 subscribers (one
// window, its index drawn once) and at 10^8 (windows sized together, each
// filled in one more pass and reusing the memory of the one before it).
// bench/README.md sets it against model.BenchmarkFloorFaults; profile it
// with -cpuprofile.
func BenchmarkFaultWindows(b *testing.B) {
	for _, n := range []int{10_000_000, 100_000_000} {
		e := scaleExperiment()
		e.Subscribers = []int{n}
		e.Missing, e.Duplicates = n*120/100, n*120/100 // 1% of n × 120 periods
		b.Run(fmt.Sprintf("subscribers=%d", n), func(b *testing.B) {
			for b.Loop() {
				if _, err := Evaluate(context.Background(), e, Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

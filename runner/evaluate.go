package runner

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"

	"ckptlab/model"
)

// Options tune an evaluation. None of them changes a result.
type Options struct {
	// Jobs is the number of goroutines drawing sources; 0 means GOMAXPROCS.
	Jobs int
	// Progress, if set, is called from time to time with the subscribers
	// drawn so far and their total over every source of the experiment.
	// Calls come one at a time, done never decreases, and the last call has
	// done == total.
	Progress func(done, total int64)
}

// Result is an evaluated experiment: for every source, the counts its
// tables are computed from. Its size grows with the number of sources,
// periods and workers, never with subscribers; the result tables are
// produced from it row by row.
type Result struct {
	Exp     *Experiment
	Sources []*SourceResult
}

// SourceResult is one evaluated source.
type SourceResult struct {
	Source    model.Source
	Rows      int64
	Drops     model.Drops
	Intervals []model.Interval
	Failures  []int // the failure set, 0-based periods
	Failure   int   // the named failure, 0-based period
	Stream    model.Recovery
	Parts     []*PartResult // in the order of the partition_key × workers axes
}

// PartResult is one source split over workers by one partition key.
type PartResult struct {
	model.Partitioning
	Workers []model.Recovery
	Costs   []model.Cost // one per interval, in declared order
}

// Jobs returns the number of goroutines a run with -j n draws on: n, or
// GOMAXPROCS when n is 0 or less.
func Jobs(n int) int {
	if n <= 0 {
		return runtime.GOMAXPROCS(0)
	}
	return n
}

// chunkSize is the most subscribers one piece of Work holds. Pieces are the
// unit of parallel work and of progress; any size gives the same result.
const chunkSize = 1 << 14

// Piece is a contiguous range of subscribers of one source: subscribers
// Lo..Hi-1 of the source with index Source in e.SourceList() order.
type Piece struct{ Source, Lo, Hi int }

// Work returns the pieces that together cover every subscriber of every
// source once, in source order.
func (e *Experiment) Work() []Piece {
	var out []Piece
	for s, src := range e.SourceList() {
		for lo := 0; lo < src.Subscribers; lo += chunkSize {
			out = append(out, Piece{Source: s, Lo: lo, Hi: min(lo+chunkSize, src.Subscribers)})
		}
	}
	return out
}

// Evaluate draws every source of the experiment, in parallel, and evaluates
// the recovery model on it: Assemble(e, Count(ctx, e, opt, e.Work())). The
// result is the same for every Options.
func Evaluate(ctx context.Context, e *Experiment, opt Options) (*Result, error) {
	tallies, err := Count(ctx, e, opt, e.Work())
	if err != nil {
		return nil, err
	}
	return Assemble(e, tallies), nil
}

// Count draws the given pieces in parallel and returns one tally per source
// of the experiment, nil for a source no piece touched.
//
// Jobs goroutines take the pieces in turn. Each counts into a tally of its
// own per source, and the tallies are summed at the end: counts are
// integers, so the sum does not depend on which goroutine drew what, and
// tallies of disjoint pieces of one source merge exactly with
// (*model.Tally).Merge. Memory grows with jobs, sources, periods and
// workers, never with subscribers.
func Count(ctx context.Context, e *Experiment, opt Options, pieces []Piece) ([]*model.Tally, error) {
	parts := e.partitionings()
	srcs := e.SourceList()
	faults := make([]model.Faults, len(srcs))
	var total int64
	for _, p := range pieces {
		total += int64(p.Hi - p.Lo)
	}
	jobs := min(Jobs(opt.Jobs), max(len(pieces), 1))
	tallies := make([][]*model.Tally, jobs) // per goroutine, per source
	var once = make([]sync.Once, len(srcs))
	var next atomic.Int64
	var (
		mu   sync.Mutex // serializes Progress calls
		done int64      // subscribers drawn, under mu
	)
	var wg sync.WaitGroup
	for g := range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mine := make([]*model.Tally, len(srcs))
			tallies[g] = mine
			for {
				i := int(next.Add(1) - 1)
				if i >= len(pieces) || ctx.Err() != nil {
					return
				}
				t := pieces[i]
				src := srcs[t.Source]
				once[t.Source].Do(func() { faults[t.Source] = src.Faults() })
				if mine[t.Source] == nil {
					mine[t.Source] = model.NewTally(src.Periods, parts)
				}
				tally := mine[t.Source]
				tally.AddDrops(src.Scan(t.Lo, t.Hi, faults[t.Source], tally.Add))
				if opt.Progress != nil {
					mu.Lock()
					done += int64(t.Hi - t.Lo)
					opt.Progress(done, total)
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	out := make([]*model.Tally, len(srcs))
	for s, src := range srcs {
		for _, mine := range tallies {
			if mine[s] == nil {
				continue
			}
			if out[s] == nil {
				out[s] = model.NewTally(src.Periods, parts)
			}
			out[s].Merge(mine[s])
		}
	}
	return out, nil
}

// Assemble turns one complete tally per source, in SourceList order, into
// the evaluated result.
func Assemble(e *Experiment, tallies []*model.Tally) *Result {
	parts := e.partitionings()
	res := &Result{Exp: e}
	for s, src := range e.SourceList() {
		sr := &SourceResult{Source: src}
		sr.evaluate(e, tallies[s], parts)
		res.Sources = append(res.Sources, sr)
	}
	return res
}

// evaluate computes the source's costs from its tally.
func (sr *SourceResult) evaluate(e *Experiment, tally *model.Tally, parts []model.Partitioning) {
	p := sr.Source.Periods
	sr.Rows = tally.Rows()
	sr.Drops = tally.Drops()
	sr.Intervals = e.IntervalsFor(p)
	sr.Failures = e.FailuresFor(p)
	sr.Failure = int(e.FailurePeriod - e.Start)
	sr.Stream = model.NewRecovery(tally.Stream())
	for i, part := range parts {
		pr := &PartResult{Partitioning: part}
		for _, counts := range tally.Workers(i) {
			pr.Workers = append(pr.Workers, model.NewRecovery(counts))
		}
		for _, k := range sr.Intervals {
			pr.Costs = append(pr.Costs, model.NewCost(sr.Stream, pr.Workers, p, k, sr.Failure, sr.Failures))
		}
		sr.Parts = append(sr.Parts, pr)
	}
}

// SourceList returns the sources of the experiment in table order: seeds,
// then subscribers, then periods.
func (e *Experiment) SourceList() []model.Source {
	var out []model.Source
	for _, seed := range e.Seeds {
		for _, n := range e.Subscribers {
			for _, p := range e.Periods {
				out = append(out, model.Source{Seed: seed, Subscribers: n, Periods: p,
					Start: e.Start, Missing: e.Missing, Duplicates: e.Duplicates})
			}
		}
	}
	return out
}

// partitionings returns the partitionings of every source in table order:
// partition keys, then worker counts.
func (e *Experiment) partitionings() []model.Partitioning {
	var out []model.Partitioning
	for _, k := range e.PartitionKeys {
		for _, w := range e.Workers {
			out = append(out, model.Partitioning{Key: k, Workers: w})
		}
	}
	return out
}

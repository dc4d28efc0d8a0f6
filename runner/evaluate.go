package runner

import (
	"context"
	"runtime"
	"slices"
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
	Source model.Source
	// Grid is the grid, of the experiment's cases, the source belongs to:
	// its axes give the source's partitionings, state rows, probabilities
	// and intervals.
	Grid      *Grid
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

// chunkSize is the most subscribers one task draws. Tasks are the unit of
// parallel work and of progress; any size gives the same result.
const chunkSize = 1 << 14

// Evaluate draws every source of the experiment, in parallel, and evaluates
// the recovery model on it. The result is the same for every Options.
//
// Sources are cut into tasks of contiguous subscribers, which Jobs
// goroutines take in turn. Each goroutine counts into a tally of its own per
// source, and the tallies are summed at the end: counts are integers, so the
// sum, and every table made from it, does not depend on which goroutine
// drew what. Memory grows with jobs, sources, periods and workers, never
// with subscribers.
func Evaluate(ctx context.Context, e *Experiment, opt Options) (*Result, error) {
	jobs := Jobs(opt.Jobs)
	res := &Result{Exp: e}
	type task struct{ src, lo, hi int }
	var tasks []task
	var faults []model.Faults
	parts := e.partitionings()
	var total int64
	gridSources := e.gridSources()
	srcs, index := drawn(gridSources)
	for s, src := range srcs {
		faults = append(faults, src.Faults())
		for lo := 0; lo < src.Subscribers; lo += chunkSize {
			tasks = append(tasks, task{src: s, lo: lo, hi: min(lo+chunkSize, src.Subscribers)})
		}
		total += int64(src.Subscribers)
	}

	jobs = min(jobs, len(tasks))
	tallies := make([][]*model.Tally, jobs) // per goroutine, per source
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
				if i >= len(tasks) || ctx.Err() != nil {
					return
				}
				t := tasks[i]
				src := srcs[t.src]
				if mine[t.src] == nil {
					mine[t.src] = model.NewTally(src.Periods, parts)
				}
				tally := mine[t.src]
				tally.AddDrops(src.Scan(t.lo, t.hi, faults[t.src], tally.Add))
				if opt.Progress != nil {
					mu.Lock()
					done += int64(t.hi - t.lo)
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

	sums := make([]*model.Tally, len(srcs))
	for s, src := range srcs {
		sums[s] = model.NewTally(src.Periods, parts)
		for _, mine := range tallies {
			if mine[s] != nil {
				sums[s].Merge(mine[s])
			}
		}
	}
	for i, gs := range gridSources {
		sr := &SourceResult{Source: gs.Source, Grid: gs.Grid}
		sr.evaluate(e, sums[index[i]], parts)
		res.Sources = append(res.Sources, sr)
	}
	return res, nil
}

// evaluate computes the source's costs from its tally, whose
// partitionings are parts: those of every grid. The source's parts are
// its grid's, in the grid's order.
func (sr *SourceResult) evaluate(e *Experiment, tally *model.Tally, parts []model.Partitioning) {
	p := sr.Source.Periods
	sr.Rows = tally.Rows()
	sr.Drops = tally.Drops()
	sr.Intervals = sr.Grid.IntervalsFor(p)
	sr.Failures = e.FailuresFor(p)
	sr.Failure = int(e.FailurePeriod - e.Start)
	sr.Stream = model.NewRecovery(tally.Stream())
	for _, part := range sr.Grid.partitionings() {
		pr := &PartResult{Partitioning: part}
		for _, counts := range tally.Workers(slices.Index(parts, part)) {
			pr.Workers = append(pr.Workers, model.NewRecovery(counts))
		}
		for _, k := range sr.Intervals {
			pr.Costs = append(pr.Costs, model.NewCost(sr.Stream, pr.Workers, p, k, sr.Failure, sr.Failures))
		}
		sr.Parts = append(sr.Parts, pr)
	}
}

// gridSource is a source of one of the experiment's grids.
type gridSource struct {
	model.Source
	Grid *Grid
}

// gridSources returns the sources of the experiment in table order: grid
// by grid, and in each, seeds, then subscribers, then periods. A source
// every point of which is excluded is left out. A source of two cases is
// there twice, once for each; it is drawn once (see drawn).
func (e *Experiment) gridSources() []gridSource {
	var out []gridSource
	grids := e.Grids()
	for i := range grids {
		g := &grids[i]
		left := e.sourceLeft(g)
		for _, seed := range g.Seeds {
			for _, n := range g.Subscribers {
				for _, p := range g.Periods {
					if !left(seed, n, p) {
						continue
					}
					out = append(out, gridSource{Grid: g, Source: model.Source{Seed: seed, Subscribers: n, Periods: p,
						Start: e.Start, Missing: e.Missing, Duplicates: e.Duplicates}})
				}
			}
		}
	}
	return out
}

// drawn returns the sources to draw for the grid sources gs: each source
// once, in the order it first comes, and for each of gs the index of its
// source. A source of several cases is drawn once: its tally counts the
// partitionings of every grid.
func drawn(gs []gridSource) (srcs []model.Source, index []int) {
	at := make(map[model.Source]int, len(gs))
	index = make([]int, len(gs))
	for i, g := range gs {
		s, ok := at[g.Source]
		if !ok {
			s = len(srcs)
			at[g.Source] = s
			srcs = append(srcs, g.Source)
		}
		index[i] = s
	}
	return srcs, index
}

// partitionings returns the partitionings every source is counted over:
// those of every grid, each once, in the order they first come. One list
// for every source keeps tallies of one experiment alike; a source of a
// grid with fewer partitionings counts some it does not show.
func (e *Experiment) partitionings() []model.Partitioning {
	var out []model.Partitioning
	grids := e.Grids()
	for i := range grids {
		for _, p := range grids[i].partitionings() {
			if !slices.Contains(out, p) {
				out = append(out, p)
			}
		}
	}
	return out
}

// partitionings returns the partitionings of every source of the grid in
// table order: partition keys, then worker counts.
func (g *Grid) partitionings() []model.Partitioning {
	var out []model.Partitioning
	for _, k := range g.PartitionKeys {
		for _, w := range g.Workers {
			out = append(out, model.Partitioning{Key: k, Workers: w})
		}
	}
	return out
}

package runner

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"

	"ckptlab/model"
	"ckptlab/runner/experiment"
)

// Options tune an evaluation. None of them changes a result.
type Options struct {
	// Jobs is the number of goroutines counting sources; 0 means GOMAXPROCS.
	Jobs int
	// Progress, if set, is called from time to time with the subscribers
	// counted so far and their total over the pieces being counted.
	// Calls come one at a time, done never decreases, and the last call has
	// done == total.
	Progress func(done, total int64)

	// Verify says which ranges of each shard file Merge counts again.
	Verify Verify
	// ShardKey, if set, signs the shard files RunShard writes
	// (HMAC-SHA256), and Merge then takes only files signed with it.
	ShardKey []byte

	indexBudget int64 // the fault indexes' budget, if not indexBudget (faults.go): for tests
}

// Evaluation is an evaluated experiment: for every source, the counts its
// tables are computed from. Its size grows with the number of sources,
// periods, workers and the workers faults touched, never with subscribers;
// the result tables are produced from it row by row.
type Evaluation struct {
	Exp     *experiment.Experiment
	Sources []*SourceResult
	// Jobs is the -j the result was evaluated with: the goroutines of the
	// time model's simulations, 0 for GOMAXPROCS.
	Jobs int
}

// SourceResult is one evaluated source.
type SourceResult struct {
	Source model.Source
	// Grid is the grid, of the experiment's cases, the source belongs to:
	// its axes give the source's partitionings, state rows, probabilities
	// and intervals.
	Grid      *experiment.Grid
	Rows      int64
	Drops     model.Drops
	Intervals []model.Interval
	Failures  model.FailureSet // the failure set, with each failure's weight
	Failure   int              // the named failure, 0-based period
	Stream    model.Recovery
	Parts     []*PartResult // in the order of the partition_key × workers axes
}

// PartResult is one source split over workers by one partition key.
type PartResult struct {
	model.Partitioning
	Workers model.WorkerSet
	Costs   []model.Cost // one per interval, in declared order
}

// jobsFor returns the number of goroutines a run with -j n draws on: n, or
// GOMAXPROCS when n is 0 or less.
func jobsFor(n int) int {
	if n <= 0 {
		return runtime.GOMAXPROCS(0)
	}
	return n
}

// chunkSize is the most subscribers of a fault-free source one task
// counts. Tasks are the unit of parallel work and of progress; any size
// gives the same result.
const chunkSize = 1 << 16

// piece is a contiguous range of subscribers of one source: subscribers
// Lo..Hi-1 of the source with index Source in e.SourceList() order (seeds,
// then subscribers, then periods). Pieces are the unit of work that can be
// counted apart, in parallel or in other processes, and merged.
type piece struct{ Source, Lo, Hi int }

// allWork returns the pieces that together cover every subscriber of every
// source once, in source order.
func allWork(e *experiment.Experiment) []piece {
	var out []piece
	for s, src := range e.SourceList() {
		out = append(out, piece{Source: s, Lo: 0, Hi: src.Subscribers})
	}
	return out
}

// taskSize returns how many subscribers of src one task counts. A source
// with faults that is not indexed (faults.go) redraws its fault sequences
// once per task, so its tasks are as large as one fault block allows and,
// below that, never so small that redrawing costs more than counting: at
// least four subscribers per draw.
func taskSize(src model.Source) int {
	if src.Missing == 0 && src.Duplicates == 0 {
		return chunkSize
	}
	draws := src.Missing + src.Duplicates
	return min(src.FaultBlockSubscribers(), max(chunkSize, 4*draws))
}

// countPieces counts the given pieces, in parallel on Jobs(opt.Jobs) goroutines,
// and returns one tally per source of the experiment (nil for a source no
// piece touched). Tallies of disjoint pieces of one source merge exactly
// with (*model.Tally).Merge.
//
// Pieces are cut into tasks that goroutines take in turn. Each goroutine
// counts into a tally of its own per source, and the tallies are summed at
// the end: counts are integers, so the sum, and every table made from it,
// does not depend on which goroutine counted what.
func countPieces(ctx context.Context, e *experiment.Experiment, opt Options, pieces []piece) ([]*model.Tally, error) {
	return count(ctx, e, opt, pieces, nil)
}

// countEach counts the given pieces as countPieces does, but each into a
// tally of its own, and calls emit with the index of each piece and its
// tally once every task of the piece is counted, one call at a time. A
// goroutine holds the tally of one piece at a time, so that no more than
// twice Jobs(opt.Jobs) tallies are alive at once, however many pieces. A
// piece of no subscriber is not emitted.
func countEach(ctx context.Context, e *experiment.Experiment, opt Options, pieces []piece, emit func(i int, t *model.Tally)) error {
	_, err := count(ctx, e, opt, pieces, emit)
	return err
}

// count is countPieces, or countEach if emit is set.
func count(ctx context.Context, e *experiment.Experiment, opt Options, pieces []piece, emit func(int, *model.Tally)) ([]*model.Tally, error) {
	sources := e.SourceList()
	parts := e.Partitionings()
	var total int64
	for _, p := range pieces {
		if p.Source < 0 || p.Source >= len(sources) || p.Lo < 0 || p.Lo > p.Hi || p.Hi > sources[p.Source].Subscribers {
			return nil, fmt.Errorf("piece %d:%d..%d is not a range of subscribers of the experiment's %d sources", p.Source, p.Lo, p.Hi, len(sources))
		}
		total += int64(p.Hi - p.Lo)
	}
	var tasks []piece
	var shared []*sharedFaults // per task, the fault index it reads, if any
	var slots []int            // per task, its piece (countEach) or its source
	// Pieces that follow one another in a source are cut into tasks as one
	// piece, so that they share its fault indexes, and its tasks are split
	// where a piece ends.
	for i := 0; i < len(pieces); {
		j := i + 1
		for j < len(pieces) && pieces[j].Source == pieces[i].Source && pieces[j].Lo == pieces[j-1].Hi {
			j++
		}
		whole := piece{Source: pieces[i].Source, Lo: pieces[i].Lo, Hi: pieces[j-1].Hi}
		cut, cutShared := cutTasks(nil, nil, whole, sources[whole.Source], opt)
		k := i
		for c, t := range cut {
			for {
				for pieces[k].Hi <= t.Lo && k < j-1 {
					k++
				}
				lo, hi := t.Lo, min(t.Hi, pieces[k].Hi)
				tasks = append(tasks, piece{Source: t.Source, Lo: lo, Hi: hi})
				shared = append(shared, cutShared[c])
				if emit != nil {
					slots = append(slots, k)
				} else {
					slots = append(slots, t.Source)
				}
				if hi == t.Hi {
					break
				}
				t.Lo = hi
				if f := cutShared[c]; f != nil {
					f.left.Add(1) // one task more reads the window
				}
			}
		}
		i = j
	}
	// countEach's sums: per piece, its tasks not yet summed and the sum of
	// those that are.
	var (
		sumMu sync.Mutex
		left  []int
		sums  []*model.Tally
	)
	if emit != nil {
		left, sums = make([]int, len(pieces)), make([]*model.Tally, len(pieces))
		for _, k := range slots {
			left[k]++
		}
	}

	jobs := max(1, min(jobsFor(opt.Jobs), len(tasks)))
	tallies := make([][]*model.Tally, jobs) // countPieces: per goroutine, per source
	var next atomic.Int64
	var (
		mu   sync.Mutex // serializes Progress calls
		done int64      // subscribers counted, under mu
	)
	var wg sync.WaitGroup
	var panicked atomic.Pointer[string] // a bug, reported as an error rather than a crash
	for g := range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				if p := recover(); p != nil {
					msg := fmt.Sprint(p)
					panicked.CompareAndSwap(nil, &msg)
					next.Store(int64(len(tasks))) // the others stop too
				}
			}()
			var mine []*model.Tally
			if emit == nil {
				mine = make([]*model.Tally, len(sources))
				tallies[g] = mine
			}
			// countEach: the tally of piece cur, counted from n tasks.
			var own *model.Tally
			cur, n := -1, 0
			flush := func() {
				if own == nil {
					return
				}
				sumMu.Lock()
				defer sumMu.Unlock()
				if sums[cur] == nil {
					sums[cur] = own
				} else {
					sums[cur].Merge(own)
				}
				if left[cur] -= n; left[cur] == 0 {
					emit(cur, sums[cur])
					sums[cur] = nil
				}
				own, n = nil, 0
			}
			for {
				i := int(next.Add(1) - 1)
				if i >= len(tasks) || ctx.Err() != nil {
					break
				}
				t, k := tasks[i], slots[i]
				src := sources[t.Source]
				var into *model.Tally
				if emit != nil {
					if k != cur {
						flush()
						cur = k
					}
					if own == nil {
						own = model.NewTally(src.Periods, parts)
					}
					into, n = own, n+1
				} else {
					if mine[k] == nil {
						mine[k] = model.NewTally(src.Periods, parts)
					}
					into = mine[k]
				}
				if f := shared[i]; f != nil {
					f.count(into, t.Lo, t.Hi)
				} else {
					src.Count(into, t.Lo, t.Hi)
				}
				if opt.Progress != nil {
					func() {
						mu.Lock()
						defer mu.Unlock() // released even if Progress panics
						done += int64(t.Hi - t.Lo)
						opt.Progress(done, total)
					}()
				}
			}
			flush()
		}()
	}
	wg.Wait()
	if p := panicked.Load(); p != nil {
		return nil, fmt.Errorf("internal error: counting panicked: %s (a bug of ckptlab, not of the input; please report it)", *p)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if opt.Progress != nil && len(tasks) == 0 {
		opt.Progress(0, 0)
	}
	if emit != nil {
		return nil, nil
	}

	out := make([]*model.Tally, len(sources))
	for _, mine := range tallies {
		for s, t := range mine {
			switch {
			case t == nil:
			case out[s] == nil:
				out[s] = t
			default:
				out[s].Merge(t)
			}
		}
	}
	return out, nil
}

// assemble turns one complete tally per source (in SourceList order) into
// the evaluated result: a source result for each source of each grid of
// the cases, those of a source several cases share made from its one tally.
func assemble(e *experiment.Experiment, tallies []*model.Tally) *Evaluation {
	res := &Evaluation{Exp: e}
	gs, index := e.GridSources()
	for i, g := range gs {
		sr := &SourceResult{Source: g.Source, Grid: g.Grid}
		t := tallies[index[i]]
		if t == nil { // a source of no subscriber counted
			t = model.NewTally(g.Periods, e.Partitionings())
		}
		sr.evaluate(e, t)
		res.Sources = append(res.Sources, sr)
	}
	return res
}

// Evaluate counts every source of the experiment, in parallel, and
// evaluates the recovery model on it: assemble(e, countPieces(ctx, e, opt,
// allWork(e))). The result is the same for every Options.
func Evaluate(ctx context.Context, e *experiment.Experiment, opt Options) (*Evaluation, error) {
	tallies, err := countPieces(ctx, e, opt, allWork(e))
	if err != nil {
		return nil, err
	}
	res := assemble(e, tallies)
	res.Jobs = opt.Jobs
	return res, nil
}

// evaluate computes the source's costs from its tally, which counts the
// partitionings of every grid; the source's parts are its grid's, in the
// grid's order.
func (sr *SourceResult) evaluate(e *experiment.Experiment, tally *model.Tally) {
	p := sr.Source.Periods
	sr.Rows = tally.Rows()
	sr.Drops = tally.Drops()
	sr.Intervals = sr.Grid.IntervalsFor(p)
	sr.Failures = e.FailureSetFor(p)
	sr.Failure = int(e.FailurePeriod - e.Start)
	sr.Stream = model.NewRecovery(tally.Stream())
	counted := make(map[model.Partitioning]int)
	for i, part := range tally.Partitionings() {
		counted[part] = i
	}
	for _, part := range sr.Grid.Partitionings() {
		pr := &PartResult{Partitioning: part, Workers: tally.WorkerSet(counted[part])}
		for _, k := range sr.Intervals {
			pr.Costs = append(pr.Costs, model.NewCost(sr.Stream, pr.Workers, p, k, sr.Failure, sr.Failures))
		}
		sr.Parts = append(sr.Parts, pr)
	}
}

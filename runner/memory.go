package runner

import (
	"math"
	"slices"
	"strconv"
	"unsafe"

	"ckptlab/internal/satmath"
	"ckptlab/model"
	"ckptlab/results"
	"ckptlab/results/workbook"
	"ckptlab/runner/experiment"
)

// What a run holds besides its counts, measured on the development machine
// (TestMemoryBoundHolds runs the program on a benchmark set and checks the
// figure against its peak resident memory, from above and within twice):
const (
	// programBytes is the resident memory outside the Go heap: runtime,
	// code, goroutine stacks. A run of the lesson peaks at 14 MiB as CSV
	// with 4 MiB of heap. minHeapBytes is the most heap a run of little
	// live memory reaches: the collector's least goal (4 MiB) and what is
	// allocated while it marks.
	programBytes = 14 << 20
	minHeapBytes = 8 << 20
	// codeBytes is the part of programBytes the Go runtime does not
	// manage, so that its memory limit leaves it out: the program's code
	// and data mapped from its file, and the C library's.
	codeBytes = 11 << 20
	// heapFactor is how far the Go heap may grow past what is live before a
	// collection (GOGC=100): twice. The heap, so bounded, is then counted
	// with a margin of marginNum/marginDen (an eighth) for what the
	// scavenger has not yet returned and for the estimates' slack.
	heapFactor = 2
	marginNum  = 9
	marginDen  = 8
	// axisCopies is how many lists of an axis's values a run holds at
	// once: the file's values, the experiment's, and one per table or
	// view being written.
	axisCopies = 8
	// viewSheets is how many sheets the lesson's views take (views.go).
	viewSheets = 5
)

// MemoryBytes returns an upper bound of the memory a run of the experiment
// holds, the program included: what `ckptlab plan` prints and --max-memory
// checks before any work. A run holds the most while it counts (tallies,
// scratch, tasks, fault indexes) or while it writes (the evaluated result,
// the axes, and the bounds the writers of the formats state). The larger
// of the two is counted twice, as the collector lets the heap grow, but
// for the fault indexes, whose memory is reused. It never grows with
// subscribers but for the fault indexes, bounded by indexBudget.
func MemoryBytes(e *experiment.Experiment, jobs int, formats []string) int64 {
	j := int64(jobsFor(jobs))
	var tallies, evaluated, outcomes, sources, tasks int64
	var windows, window, bucketSizes int64 // fault index windows, the largest one's index, and its source's sizes
	parts := e.Partitionings()
	grids := e.Grids()
	gms := make([]*gridMemory, len(grids))
	sizes := make([][]experiment.Sizes, len(grids))
	for i := range grids {
		gms[i] = newGridMemory(e, parts, &grids[i])
		sizes[i] = gms[i].sizes
	}
	sz := writerSizes(e, sizes)
	for i, g := range grids {
		gm := gms[i]
		for k, p := range g.Periods {
			n := gm.sizes[k].Sources
			if n == 0 {
				continue
			}
			sources = satmath.Add(sources, n)
			// a tally per goroutine that counts a task of the source
			t := gm.tasks(e, p)
			tasks = satmath.Add(tasks, satmath.Mul(n, t))
			tallies = satmath.Add(tallies, satmath.Mul(n, min(j, t), gm.tallyBytes(p)))
			w, each, z := gm.faultMemory(e, p, jobs)
			windows, window, bucketSizes = satmath.Add(windows, satmath.Mul(n, w)), max(window, each), max(bucketSizes, z)
			evaluated = satmath.Add(evaluated, satmath.Mul(n, gm.resultBytes(p)))
			outcomes = max(outcomes, outcomeBytes(e, &g, p))
		}
	}
	if len(grids) > 1 && sources > 1 { // a source of several cases is drawn once
		sources = e.Sources()
	}
	// Per goroutine: the names' hashes of a task, the bins they are folded
	// from and the plan of the folding (model/fold.go), a fault block's bits
	// and the touched workers' rows (model.FaultScratchBytes).
	scratch := satmath.Add(4*chunkSize+1<<12+model.FoldBytes, satmath.Mul(128, int64(len(parts))))
	if e.Missing > 0 || e.Duplicates > 0 {
		scratch += model.FaultScratchBytes
	}
	counting := satmath.Add(tallies, satmath.Mul(min(j, tasks), scratch))
	// No more fault indexes than goroutines are alive at once (faults.go),
	// nor sizes of windows sized together. The indexes' memory is not left
	// to the collector: each window fills the slices of one before it
	// (model.FaultBuffers), so they are counted once, not twice over.
	indexes := satmath.Mul(min(j, windows), window)
	counting = satmath.Add(counting, satmath.Mul(min(j, windows), bucketSizes))
	counting = satmath.Add(counting, taskBytes(e, sources))
	// The grid and decisions tables each hold the outcomes of the source
	// they are at while a writer reads them.
	sz.Grid.Held, sz.Decisions.Held = outcomes, outcomes
	writing := satmath.Add(axisBytes(e), writersBytes(formats, sz))
	writing = satmath.Add(writing, processBytes(e, jobs)) // the time model's answer (process.go)
	heap := satmath.Mul(heapFactor, satmath.Add(evaluated, max(counting, writing)))
	heap = max(minHeapBytes, heap, satmath.Add(satmath.Mul(heapFactor, satmath.Add(evaluated, counting)), indexes))
	return satmath.Add(programBytes, satmath.Mul(heap/marginDen, marginNum))
}

// writersBytes sums the bounds the writers of the formats state.
func writersBytes(formats []string, sz results.Sizes) int64 {
	var n int64
	for _, f := range formats {
		switch f {
		case results.FormatCSV:
			n = satmath.Add(n, results.CSVBound(sz))
		case results.FormatXLSX:
			n = satmath.Add(n, workbook.Bound(sz))
		case results.FormatMD:
			n = satmath.Add(n, results.MarkdownBound(sz))
		case results.FormatJSON:
			n = satmath.Add(n, results.JSONBound(sz))
		}
	}
	return n
}

// outcomeBytes bounds the failure outcomes of one source of p periods
// (criteria.Outcomes, one per interval): each distinct count of rows a
// failure recomputes, with how many failures recompute it. Without missing
// records every period but the first has the same rows, so interval k has
// at most k distinct counts; faults can make every failure's count its own.
func outcomeBytes(e *experiment.Experiment, g *experiment.Grid, p int) int64 {
	n := e.FailureCount(p)
	var distinct int64
	for _, k := range g.IntervalsFor(p) {
		d := n
		if e.Missing == 0 && k != model.None {
			d = min(n, int64(k))
		}
		distinct = satmath.Add(distinct, d)
	}
	// 16 bytes per distinct count, and the failures' counts being sorted
	return satmath.Add(satmath.Mul(16, distinct), satmath.Mul(16, n))
}

// axisBytes bounds the lists of the axes' values a run holds.
func axisBytes(e *experiment.Experiment) int64 {
	var values int64
	for _, g := range e.Grids() {
		values = satmath.Add(values, int64(len(g.Seeds)+len(g.Subscribers)+len(g.Periods)+
			len(g.PartitionKeys)+len(g.Workers)+len(g.StateRows)+len(g.Probabilities)+len(g.Intervals)))
	}
	return satmath.Mul(axisCopies*8, values)
}

// touched returns how many workers of a partitioning by key over w workers
// faults can touch: no more than the subscribers a missing draw hits, nor
// than the values of the key.
func touched(e *experiment.Experiment, key model.PartitionKey, w int, subscribers int) int64 {
	n := min(int64(w), int64(e.Missing), int64(subscribers))
	switch key {
	case model.ByRegion:
		n = min(n, int64(len(model.Regions)))
	case model.ByType:
		n = min(n, int64(len(model.Types)))
	}
	return n
}

// gridMemory holds what the bounds of one grid's sources share whatever
// their periods, each summed over the partitionings once, so that the
// bound costs the axes' lengths, not the product of periods and workers.
type gridMemory struct {
	g *experiment.Grid
	// sizes are the grid's counts for each of its periods values.
	sizes []experiment.Sizes
	// countWorkers is Σ (96 + 8·workers) over every grid's partitionings,
	// countTouched the workers faults can touch in them, and ownTouched in
	// the grid's own partitionings.
	countWorkers, countTouched, ownTouched int64
}

func newGridMemory(e *experiment.Experiment, parts []model.Partitioning, g *experiment.Grid) *gridMemory {
	gm := &gridMemory{g: g, sizes: e.PeriodSizes(g)}
	most := slices.Max(g.Subscribers)
	for _, part := range parts {
		gm.countWorkers = satmath.Add(gm.countWorkers, satmath.Add(96, satmath.Mul(8, int64(part.Workers))))
		gm.countTouched = satmath.Add(gm.countTouched, touched(e, part.Key, part.Workers, most))
	}
	for _, k := range g.PartitionKeys {
		for _, w := range g.Workers {
			gm.ownTouched = satmath.Add(gm.ownTouched, touched(e, k, w, most))
		}
	}
	return gm
}

// tasks returns the tasks Count cuts one source of p periods of the grid
// into, for its most subscribers: each goroutine that counts one holds a
// tally of the source.
func (gm *gridMemory) tasks(e *experiment.Experiment, p int) int64 {
	src := gm.source(e, p)
	size := int64(taskSize(src))
	return (int64(src.Subscribers) + size - 1) / size
}

// source returns the largest source of p periods of the grid, as far as
// its memory goes.
func (gm *gridMemory) source(e *experiment.Experiment, p int) model.Source {
	return model.Source{Subscribers: slices.Max(gm.g.Subscribers), Periods: p, Missing: e.Missing, Duplicates: e.Duplicates}
}

// faultValues is the most subscribers values whose fault indexes
// faultMemory bounds one by one.
const faultValues = 64

// faultMemory bounds the fault indexes of the grid's sources of p periods
// (faultIndexMemory): each subscribers value's own, or, for an axis of
// more than faultValues values, those of any source up to the largest.
func (gm *gridMemory) faultMemory(e *experiment.Experiment, p, jobs int) (windows, each, sizes int64) {
	src := gm.source(e, p)
	if len(gm.g.Subscribers) > faultValues {
		return faultIndexBound(src, jobs)
	}
	for _, n := range gm.g.Subscribers {
		src.Subscribers = n
		w, b, z := faultIndexMemory(src, jobs)
		windows, each, sizes = max(windows, w), max(each, b), max(sizes, z)
	}
	return windows, each, sizes
}

// tallyBytes bounds one goroutine's tally of one source of p periods of
// the grid: subscribers per worker, and rows per period of each worker
// faults touched, with its map entry, for the partitionings of every grid.
func (gm *gridMemory) tallyBytes(p int) int64 {
	n := satmath.Add(256, satmath.Mul(8, int64(p)))
	n = satmath.Add(n, gm.countWorkers)
	return satmath.Add(n, satmath.Mul(gm.countTouched, satmath.Add(64, satmath.Mul(8, int64(p)))))
}

// resultBytes bounds the evaluated result of one source of p periods: the
// stream's prefix sums, and per partitioning the touched workers' prefix
// sums and one cost per interval.
func (gm *gridMemory) resultBytes(p int) int64 {
	g := gm.g
	cost := int64(unsafe.Sizeof(model.Cost{}))
	prefix := satmath.Add(32, satmath.Mul(8, int64(p)+1))
	n := satmath.Add(512, prefix)
	parts := satmath.Mul(int64(len(g.PartitionKeys)), int64(len(g.Workers)))
	n = satmath.Add(n, satmath.Mul(parts, satmath.Add(128, satmath.Mul(cost, g.IntervalCount(p)))))
	return satmath.Add(n, satmath.Mul(gm.ownTouched, prefix))
}

// writerSizes returns the sizes of the tables and views a run of e
// writes, as its writers bound their memory by, from each grid's counts
// by periods value; Held is left to the caller.
func writerSizes(e *experiment.Experiment, sizes [][]experiment.Sizes) results.Sizes {
	sz := results.Sizes{Text: int64(len(e.Description))}
	sz.Views.Largest = make([]int64, viewSheets)
	for i, g := range e.Grids() {
		sz.Maps = append(sz.Maps, results.MapSize{StateRows: int64(len(g.StateRows)), Probabilities: int64(len(g.Probabilities))})
		for k, p := range g.Periods {
			addSizes(&sz, e, &g, p, sizes[i][k])
		}
	}
	return sz
}

// addSizes counts the tables and views of the grid's sources of p
// periods, of sizes n, into the sizes the writers bound their memory by.
func addSizes(sz *results.Sizes, e *experiment.Experiment, g *experiment.Grid, p int, n experiment.Sizes) {
	intervals := g.IntervalCount(p)
	perSource := satmath.Mul(n.Sources, int64(len(g.StateRows)))
	addRows(&sz.Grid, n.GridRows, gridShape)
	addRows(&sz.Failures, n.FailureRows, failuresShape)
	addRows(&sz.Decisions, satmath.Mul(perSource, int64(len(g.Probabilities))), decisionsShape)
	addRows(&sz.Breakeven, satmath.Mul(perSource, intervals), breakevenShape)
	sz.Sources = satmath.Add(sz.Sources, n.Sources)
	if n.Sources == 0 {
		return
	}
	// The recovery, the failure × interval matrix, the cost, the
	// probability and the partition views: the cells of a block of each,
	// and of one source's blocks. The partition view has one block a
	// source, a row per partitioning and interval, with the partitioning's
	// key and workers for several.
	failures := e.FailureCount(p)
	sr, parts := int64(len(g.StateRows)), satmath.Mul(int64(len(g.PartitionKeys)), int64(len(g.Workers)))
	partition := 4 * intervals
	if parts > 1 {
		partition = satmath.Mul(6, parts, intervals)
	}
	block := [viewSheets]int64{3 * intervals, satmath.Mul(failures, intervals+1), 7 * intervals,
		satmath.Mul(int64(len(g.Probabilities)), intervals+2), partition}
	for i, c := range block {
		sz.Views.Largest[i] = max(sz.Views.Largest[i], c)
	}
	cells := satmath.Add(satmath.Add(block[0], block[1]), satmath.Add(satmath.Mul(sr, satmath.Add(block[2], block[3])), block[4]))
	sz.Views.Cells = satmath.Add(sz.Views.Cells, satmath.Mul(n.Sources, cells))
	sz.Views.Blocks = satmath.Add(sz.Views.Blocks, satmath.Mul(n.Sources, viewBlocks(g)))
	sz.Views.MostBlocks = satmath.Add(sz.Views.MostBlocks, satmath.Mul(n.Sources, max(1, sr)))
}

// addRows counts rows of a table of the shape into its size.
func addRows(t *results.TableSize, rows int64, shape tableShape) {
	t.Rows, t.Columns, t.Texts = satmath.Add(t.Rows, rows), shape.columns, shape.texts
}

// viewBlocks is how many blocks the lesson's views have for one source.
// The cost and probability views have one per state rows value, the
// others one.
func viewBlocks(g *experiment.Grid) int64 {
	return satmath.Add(3, satmath.Mul(2, int64(len(g.StateRows))))
}

// taskBytes bounds the list of tasks Count makes and the sources.
func taskBytes(e *experiment.Experiment, sources int64) int64 {
	var tasks int64
	for _, g := range e.Grids() {
		for _, n := range g.Subscribers {
			tasks = satmath.Add(tasks, int64(n/chunkSize+1))
		}
	}
	perSource := int64(unsafe.Sizeof(piece{})+unsafe.Sizeof(model.Source{})) + 64
	return satmath.Mul(sources, satmath.Add(satmath.Mul(tasks, int64(unsafe.Sizeof(piece{}))), perSource))
}

// MiB writes a number of bytes in mebibytes, rounded up, for messages.
func MiB(bytes int64) string {
	return strconv.FormatInt((bytes+(1<<20)-1)>>20, 10) + " MiB"
}

// mibBytes returns n mebibytes in bytes, saturating at math.MaxInt64, for
// limits given in MiB such as --max-memory.
func mibBytes(n int64) int64 {
	if n > math.MaxInt64>>20 {
		return math.MaxInt64
	}
	return n << 20
}

// HeapLimit is the soft limit a run of exps sets on the Go runtime's own
// memory (runtime/debug.SetMemoryLimit): the largest figure MemoryBytes
// gives one of them, less the code the runtime does not manage. The
// collector works harder only as the runtime's memory nears the figure
// plan prints, so a run's peak keeps within it.
func HeapLimit(exps []*experiment.Experiment, jobs int, formats []string) int64 {
	var most int64
	for _, e := range exps {
		most = max(most, MemoryBytes(e, jobs, formats))
	}
	return max(most-codeBytes, minHeapBytes)
}

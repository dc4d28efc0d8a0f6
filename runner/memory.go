package runner

import (
	"math"
	"runtime"
	"slices"
	"strconv"
	"unsafe"

	"ckptlab/internal/satmath"
	"ckptlab/model"
	"ckptlab/results"
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
	// tableBytes is what writing one table holds: its file's buffer, the
	// row's and the recent numbers' texts; a run writes up to nine at once.
	tableBytes = 256 << 10
	// axisCopies is how many lists of an axis's values a run holds at
	// once: the file's values, the experiment's, and one per table or
	// view being written.
	axisCopies = 8
	// xlsxBytes is the workbook around its sheets' rows: excelize's
	// parts, styles and zip. xlsxPackBytes is the most that packing one
	// table or view holds besides its sheet's XML: the row encoder's
	// buffer and the file's. The XML is held in pieces of xlsxPieceBytes:
	// one being filled, and two per compressing goroutine (one in, and its
	// output with the compressor's state).
	// xlsxTableCellBytes is the most XML one cell of a table or a view
	// takes, xlsxRowBytes one row's markup. xlsxBlockBytes is what a
	// view's sheet keeps per page break until it is written, a break per
	// block at most and results.MaxPageBreaks a sheet. xlsxBlockCountBytes
	// is what laying a view's sheet out keeps per block of the view at
	// most, one view at a time: a run of the blocks' counts
	// (results/xlsx_view_layout.go) of 12 bytes, twice as its list grows.
	xlsxTableCellBytes  = 64
	xlsxRowBytes        = 64
	xlsxBytes           = 4 << 20
	xlsxPackBytes       = 1 << 20
	xlsxPieceBytes      = 1 << 20
	xlsxBlockBytes      = 64
	xlsxBlockCountBytes = 24
	// viewSheets is how many sheets the lesson's views take (views.go).
	viewSheets = 5
	// xlsxSummaryRows is the most rows the summary sheet holds besides
	// its decision maps: the break-even table's first 40 rows it shows
	// (results/xlsx_summary.go, summaryTableRows) and the headline's dozen
	// lines (maxHeadline), rounded up.
	xlsxSummaryRows = 64
)

// MemoryBytes returns an upper bound of the memory a run of the experiment
// holds, the program included: what `ckptlab plan` prints and --max-memory
// checks before any work. A run holds the most either while it counts
// (the tallies of every source and of Jobs(jobs) goroutines, their scratch
// space, the list of tasks, the fault indexes alive at once) or while it
// writes (the evaluated result, the failure outcomes of the source each
// table is at, the axes' lists, the writers, and, for XLSX or Markdown
// output, a block of the lesson's views at a time, and the workbook writer
// for XLSX); the larger of the two, twice over as the garbage collector
// lets the heap grow (but for the fault indexes, whose memory is reused,
// not collected), and the program. It grows with sources, periods,
// workers, the workers faults can touch and the rows a workbook holds in
// memory, never with subscribers but for the faults' indexes, which are
// bounded by indexBudget. A source several cases share counts once per
// case.
func MemoryBytes(e *experiment.Experiment, jobs int, formats []string) int64 {
	j := int64(jobsFor(jobs))
	views := results.ShowsViews(formats)
	var tallies, evaluated, viewsHeld, outcomes, sources, tasks, decisions int64
	var blocks viewBlockSizes
	var windows, window, bucketSizes int64 // fault index windows, the largest one's index, and its source's sizes
	parts := e.Partitionings()
	grids := e.Grids()
	sizes := make([][]experiment.Sizes, len(grids))
	for i, g := range grids {
		gm := newGridMemory(e, parts, &g)
		sizes[i] = gm.sizes
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
			if views {
				blocks.widen(e, &g, p)
			}
			outcomes = max(outcomes, outcomeBytes(e, &g, p))
			decisions = satmath.Add(decisions, satmath.Mul(n, int64(len(g.StateRows)), int64(len(g.Probabilities))))
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
	// they are at, in each format that has them; the headline of the
	// Markdown holds the decisions'.
	var tables, holders int64
	for _, f := range formats {
		switch f {
		case results.FormatCSV, results.FormatXLSX:
			tables, holders = tables+4, holders+2
		case results.FormatJSON:
			// a row at a time, decisions then break-evens, and the
			// experiment's values read in place (results/json.go)
			tables, holders = tables+1, holders+1
		default:
			tables, holders = tables+1, holders+1
		}
	}
	// The workbook and the Markdown each make one block of a view at a
	// time (runner.Views), at the same time; the workbook one for each
	// view sheet it packs at once.
	for _, f := range formats {
		switch f {
		case results.FormatXLSX:
			viewsHeld = satmath.Add(viewsHeld, blocks.largest(packedAtOnce()))
		case results.FormatMD:
			viewsHeld = satmath.Add(viewsHeld, blocks.largest(1))
		}
	}
	// The summary sheet holds no decisions but its maps (workbookBytes
	// counts them): the first rows of the break-even table it shows and
	// the headline, xlsxSummaryRows at most. The Markdown holds the first
	// decisions (results.MarkdownLimit/200 rows) and their text, and its
	// document.
	if slices.Contains(formats, results.FormatXLSX) {
		viewsHeld = satmath.Add(viewsHeld, xlsxSummaryRows*int64(breakevenWidth+1)*viewCellBytes)
	}
	if slices.Contains(formats, results.FormatMD) {
		// its sections, the file's buffer, and the decisions' rows it collects
		held := satmath.Mul(min(decisions, results.MarkdownLimit/200), int64(decisionsWidth+1)*viewCellBytes)
		viewsHeld = satmath.Add(viewsHeld, satmath.Add(4*results.MarkdownLimit, held))
	}
	writing := satmath.Add(axisBytes(e), satmath.Mul(holders, outcomes))
	writing = satmath.Add(writing, satmath.Add(viewsHeld, tables*tableBytes))
	if slices.Contains(formats, results.FormatXLSX) {
		writing = satmath.Add(writing, workbookBytes(e, sizes))
	}
	writing = satmath.Add(writing, processBytes(e, jobs)) // the time model's answer (process.go)
	heap := satmath.Mul(heapFactor, satmath.Add(evaluated, max(counting, writing)))
	heap = max(minHeapBytes, heap, satmath.Add(satmath.Mul(heapFactor, satmath.Add(evaluated, counting)), indexes))
	return satmath.Add(programBytes, satmath.Mul(heap/marginDen, marginNum))
}

// outcomeBytes bounds the failure outcomes of one source of p periods
// (decide.Outcomes, one per interval): each distinct count of rows a
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

// viewBlockSizes bound the largest block of each of the lesson's views,
// over the sources: the recovery, the failure × interval matrix, the cost,
// the probability and the partition blocks, each with its header and rows.
type viewBlockSizes [viewSheets]int64

// widen makes the sizes bound the blocks of a source of p periods too.
func (b *viewBlockSizes) widen(e *experiment.Experiment, g *experiment.Grid, p int) {
	n := g.IntervalCount(p)
	cells := [viewSheets]int64{3 * n, satmath.Mul(e.FailureCount(p), n+1), 7 * n, satmath.Mul(int64(len(g.Probabilities)), n+2), 4 * n}
	for i, c := range cells {
		// a block's cells are numbers but for its first column
		b[i] = max(b[i], satmath.Add(satmath.Mul(int64(unsafe.Sizeof(results.Value{})), c), 2048))
	}
}

// largest bounds k blocks held at once, each of another view.
func (b *viewBlockSizes) largest(k int64) int64 {
	sizes := slices.Clone(b[:])
	slices.Sort(sizes)
	var n int64
	for _, s := range sizes[len(sizes)-int(min(k, int64(len(sizes)))):] {
		n = satmath.Add(n, s)
	}
	return n
}

// viewBytes bounds the lesson's views of one source of p periods: their
// cells, and per block its header and its rows' slices.
func viewBytes(e *experiment.Experiment, g *experiment.Grid, p int) int64 {
	cell := int64(viewCellBytes)
	n := g.IntervalCount(p)
	failures := e.FailureCount(p)
	cells := satmath.Add(
		satmath.Add(satmath.Mul(failures, n+1), 3*n), // matrix and recovery
		satmath.Add(
			satmath.Mul(int64(len(g.StateRows)), satmath.Add(7*n, satmath.Mul(int64(len(g.Probabilities)), n+2))), // cost and probability
			satmath.Mul(int64(len(g.PartitionKeys)), int64(len(g.Workers)), 4*n),                                  // partition
		))
	return satmath.Add(satmath.Mul(cell, cells), satmath.Mul(2048, viewBlocks(g)))
}

// viewBlocks is how many blocks the lesson's views have for one source.
func viewBlocks(g *experiment.Grid) int64 {
	return satmath.Add(2, satmath.Add(satmath.Mul(2, int64(len(g.StateRows))), satmath.Mul(int64(len(g.PartitionKeys)), int64(len(g.Workers)))))
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

// workbookBytes bounds what the workbook writer keeps in memory: the
// four tables and the lesson's five views, packed a few sheets at a time
// (results.MaxPackedAtOnce), each packed sheet until it is copied into
// the archive, the summary sheet's decision maps, and the workbook around
// them.
func workbookBytes(e *experiment.Experiment, sizes [][]experiment.Sizes) int64 {
	// A table's XML in memory: no more than the whole table, nor than the
	// pieces its compressing goroutines hold, one per core up to
	// results.MaxDeflateWorkers.
	workers := min(runtime.GOMAXPROCS(0), results.MaxDeflateWorkers)
	pieces := int64((1 + 2*workers) * xlsxPieceBytes)
	tableXML := func(rows int64, cols int) int64 {
		return satmath.Mul(rows, satmath.Add(xlsxRowBytes, satmath.Mul(int64(cols), xlsxTableCellBytes)))
	}
	table := func(rows int64, cols int) int64 {
		return satmath.Add(xlsxPackBytes, min(tableXML(rows, cols), pieces))
	}
	// A decision per source, state rows and probability; a break-even
	// piece per source, state rows and interval at most.
	var grid, failures, decisions, breakevens int64
	for i, g := range e.Grids() {
		for j, p := range g.Periods {
			s := sizes[i][j]
			grid, failures = satmath.Add(grid, s.GridRows), satmath.Add(failures, s.FailureRows)
			perSource := satmath.Mul(s.Sources, int64(len(g.StateRows)))
			decisions = satmath.Add(decisions, satmath.Mul(perSource, int64(len(g.Probabilities))))
			breakevens = satmath.Add(breakevens, satmath.Mul(perSource, g.IntervalCount(p)))
		}
	}
	// The five views' sheets, each at most all the views' cells, and the
	// blocks counted until they are written.
	var viewCells, blocks, viewMost, sources int64 // viewMost: the blocks of the view of the most
	for i, g := range e.Grids() {
		for j, p := range g.Periods {
			sources = satmath.Add(sources, sizes[i][j].Sources)
			viewCells = satmath.Add(viewCells, satmath.Mul(sizes[i][j].Sources, viewBytes(e, &g, p)/viewCellBytes))
			blocks = satmath.Add(blocks, satmath.Mul(sizes[i][j].Sources, viewBlocks(&g)))
			viewMost = satmath.Add(viewMost, satmath.Mul(sizes[i][j].Sources, max(1, int64(len(g.StateRows)), int64(len(g.PartitionKeys)*len(g.Workers)))))
		}
	}
	viewXML := satmath.Add(satmath.Mul(viewCells, xlsxTableCellBytes), satmath.Mul(blocks, 3*xlsxRowBytes))
	view := satmath.Add(xlsxPackBytes, min(pieces, viewXML))
	// The four tables and the views are packed a few at a time
	// (results.MaxPackedAtOnce, or the cores if fewer): the largest of
	// them at once.
	packed := []int64{table(grid, gridWidth), table(failures, failuresWidth),
		table(decisions, decisionsWidth), table(breakevens, breakevenWidth), view, view, view, view, view}
	slices.Sort(packed)
	breaks := min(blocks, satmath.Mul(viewSheets, results.MaxPageBreaks))
	n := satmath.Add(xlsxBytes, satmath.Add(satmath.Mul(breaks, xlsxBlockBytes), satmath.Mul(viewMost, xlsxBlockCountBytes)))
	// Each packed sheet, compressed, is kept in memory up to
	// results.PackedInMemory until it is copied into the archive: no more
	// than its XML.
	held := satmath.Mul(viewSheets, min(viewXML, results.PackedInMemory))
	for _, t := range []struct {
		rows int64
		cols int
	}{{grid, gridWidth}, {failures, failuresWidth}, {decisions, decisionsWidth}, {breakevens, breakevenWidth}} {
		held = satmath.Add(held, min(tableXML(t.rows, t.cols), satmath.Mul(t.rows/results.MaxSheetRows+1, results.PackedInMemory)))
	}
	n = satmath.Add(n, held)
	// The archive excelize saves, in memory up to results.ArchiveInMemory
	// (a buffer of that size, made at once).
	n = satmath.Add(n, results.ArchiveInMemory)
	n = satmath.Add(n, decisionMapBytes(e, sources))
	for _, t := range packed[len(packed)-int(packedAtOnce()):] {
		n = satmath.Add(n, t)
	}
	return n
}

// decisionMapBytes bounds the summary sheet's decision maps: one for
// each of the first few sources (results.SummaryMaps), and no more maps
// than the sources of the grids, each of every state rows and probability
// value of the experiment at most (a map's source may run on into the
// next case's rows), with a cell per pair. A sweep of one source so counts
// one map, not SummaryMaps: the 2M-row workbook's is 15 MiB of its heap.
func decisionMapBytes(e *experiment.Experiment, sources int64) int64 {
	const valueBytes = int64(unsafe.Sizeof(results.Value{})) + 96 // and its place in a map
	var n int64
	for _, g := range e.Grids() {
		sr, p := int64(len(g.StateRows)), int64(len(g.Probabilities))
		n = satmath.Add(n, satmath.Add(satmath.Mul(sr, satmath.Add(valueBytes+24, 4*p)), satmath.Mul(p, valueBytes)))
	}
	return satmath.Mul(min(results.SummaryMaps, sources), n)
}

// packedAtOnce is how many tables and views the workbook packs at once.
func packedAtOnce() int64 { return int64(min(results.MaxPackedAtOnce, runtime.GOMAXPROCS(0))) }

// viewCellBytes is what a cell of a view holds: the value and its text.
const viewCellBytes = int64(unsafe.Sizeof(results.Value{})) + 16

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

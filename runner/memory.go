package runner

import (
	"math"
	"runtime"
	"slices"
	"strconv"
	"unsafe"

	"ckptlab/model"
	"ckptlab/results"
	"ckptlab/runner/experiment"
)

// What a run holds besides its counts, measured on the development machine
// and rounded up (TestMemoryBoundHolds runs the program and checks the sum
// against its peak resident memory):
const (
	// programBytes is the program itself: runtime, code, the CSV and
	// Markdown writers' buffers, the loaded experiment. A run of the lesson
	// peaks at 11 MiB as CSV, 15 MiB as XLSX.
	programBytes = 32 << 20
	// heapFactor is how far the Go heap may grow past what is live before a
	// collection (GOGC=100): twice.
	heapFactor = 2
	// xlsxCellBytes is the most XML one cell of a worksheet takes, and
	// xlsxRowBytes one row's markup; xlsxSheetBytes the most excelize's
	// stream writer keeps of one sheet in memory (its 16 MiB chunk in a
	// buffer that may double), xlsxBytes its workbook, styles and zip.
	// xlsxPackBytes is the most that packing one table holds besides its
	// sheet's XML: the row encoder's buffer and the file's. The XML is
	// held in pieces of xlsxPieceBytes, up to four per compressing
	// goroutine (one queued, one in, one out, and a compressor's state).
	xlsxCellBytes  = 64
	xlsxRowBytes   = 64
	xlsxSheetBytes = 32 << 20
	xlsxBytes      = 8 << 20
	xlsxPackBytes  = 2 << 20
	xlsxPieceBytes = 1 << 20
)

// MemoryBytes returns an upper bound of the memory a run of the experiment
// holds, the program included: what `ckptlab plan` prints and --max-memory
// checks before any work. It counts the program, the tallies of Jobs(jobs)
// goroutines and their scratch space, the evaluated result, and, when views
// is set (XLSX or Markdown output), the lesson's views and the workbook
// writer; the live heap twice over, as the garbage collector lets it grow.
// It grows with sources, periods, workers, the workers faults can touch
// and the rows a workbook holds in memory, never with subscribers. A
// source several cases share counts once per case.
func MemoryBytes(e *experiment.Experiment, jobs int, views bool) int64 {
	j := int64(Jobs(jobs))
	var live, sources int64
	parts := e.Partitionings()
	grids := e.Grids()
	sizes := make([][]experiment.Sizes, len(grids))
	for i, g := range grids {
		gm := newGridMemory(e, parts, &g)
		sizes[i] = gm.sizes
		for k, p := range g.Periods {
			perSource := experiment.AddSat(experiment.MulSat(j, gm.tallyBytes(p)), gm.resultBytes(p))
			if views {
				perSource = experiment.AddSat(perSource, viewBytes(e, &g, p))
			}
			live = experiment.AddSat(live, experiment.MulSat(gm.sizes[k].Sources, perSource))
			sources = experiment.AddSat(sources, gm.sizes[k].Sources)
		}
	}
	if len(grids) > 1 && sources > 1 { // a source of several cases is drawn once
		sources = e.Sources()
	}
	// Per goroutine: the names' hashes of a task, a fault block's bits.
	scratch := int64(4*chunkSize + 1<<21 + 1<<12)
	live = experiment.AddSat(live, experiment.MulSat(j, scratch))
	live = experiment.AddSat(live, taskBytes(e, sources))
	total := experiment.AddSat(programBytes, experiment.MulSat(heapFactor, live))
	if views {
		total = experiment.AddSat(total, experiment.MulSat(heapFactor, workbookBytes(e, sizes)))
	}
	return total
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
		gm.countWorkers = experiment.AddSat(gm.countWorkers, experiment.AddSat(96, experiment.MulSat(8, int64(part.Workers))))
		gm.countTouched = experiment.AddSat(gm.countTouched, touched(e, part.Key, part.Workers, most))
	}
	for _, k := range g.PartitionKeys {
		for _, w := range g.Workers {
			gm.ownTouched = experiment.AddSat(gm.ownTouched, touched(e, k, w, most))
		}
	}
	return gm
}

// tallyBytes bounds one goroutine's tally of one source of p periods of
// the grid: subscribers per worker, and rows per period of each worker
// faults touched, with its map entry, for the partitionings of every grid.
func (gm *gridMemory) tallyBytes(p int) int64 {
	n := experiment.AddSat(256, experiment.MulSat(8, int64(p)))
	n = experiment.AddSat(n, gm.countWorkers)
	return experiment.AddSat(n, experiment.MulSat(gm.countTouched, experiment.AddSat(128, experiment.MulSat(8, int64(p)))))
}

// resultBytes bounds the evaluated result of one source of p periods: the
// stream's prefix sums, and per partitioning the touched workers' prefix
// sums and one cost per interval.
func (gm *gridMemory) resultBytes(p int) int64 {
	g := gm.g
	cost := int64(unsafe.Sizeof(model.Cost{}))
	prefix := experiment.AddSat(32, experiment.MulSat(8, int64(p)+1))
	n := experiment.AddSat(512, prefix)
	parts := experiment.MulSat(int64(len(g.PartitionKeys)), int64(len(g.Workers)))
	n = experiment.AddSat(n, experiment.MulSat(parts, experiment.AddSat(128, experiment.MulSat(cost, g.IntervalCount(p)))))
	return experiment.AddSat(n, experiment.MulSat(gm.ownTouched, prefix))
}

// viewBytes bounds the lesson's views of one source of p periods: their
// cells, and a block header per block.
func viewBytes(e *experiment.Experiment, g *experiment.Grid, p int) int64 {
	cell := int64(unsafe.Sizeof(results.Value{})) + 16 // a cell and its text
	n := g.IntervalCount(p)
	failures := e.FailureCount(p)
	cells := experiment.AddSat(
		experiment.AddSat(experiment.MulSat(failures, n+1), 3*n), // matrix and recovery
		experiment.AddSat(
			experiment.MulSat(int64(len(g.StateRows)), experiment.AddSat(7*n, experiment.MulSat(int64(len(g.Probabilities)), n+2))), // cost and probability
			experiment.MulSat(int64(len(g.PartitionKeys)), int64(len(g.Workers)), 4*n),                                              // partition
		))
	blocks := experiment.AddSat(2, experiment.AddSat(experiment.MulSat(2, int64(len(g.StateRows))), experiment.MulSat(int64(len(g.PartitionKeys)), int64(len(g.Workers)))))
	return experiment.AddSat(experiment.MulSat(cell, cells), experiment.MulSat(512, blocks))
}

// taskBytes bounds the list of tasks Count makes and the sources.
func taskBytes(e *experiment.Experiment, sources int64) int64 {
	var tasks int64
	for _, g := range e.Grids() {
		for _, n := range g.Subscribers {
			tasks = experiment.AddSat(tasks, int64(n/chunkSize+1))
		}
	}
	perSource := int64(unsafe.Sizeof(Piece{})+unsafe.Sizeof(model.Source{})) + 64
	return experiment.MulSat(sources, experiment.AddSat(experiment.MulSat(tasks, int64(unsafe.Sizeof(Piece{}))), perSource))
}

// workbookBytes bounds what the workbook writer keeps in memory: the
// tables being packed, all four at once (results.MaxPackedAtOnce), the
// lesson's views as sheets of excelize's stream writer, and the workbook
// around them.
func workbookBytes(e *experiment.Experiment, sizes [][]experiment.Sizes) int64 {
	// A table's XML in memory: no more than the whole table, nor than the
	// pieces its compressing goroutines hold, one per core up to
	// results.MaxDeflateWorkers.
	workers := min(runtime.GOMAXPROCS(0), results.MaxDeflateWorkers)
	pieces := int64(4 * workers * xlsxPieceBytes)
	table := func(rows int64, cols int) int64 {
		xml := experiment.MulSat(rows, experiment.AddSat(xlsxRowBytes, experiment.MulSat(int64(cols), xlsxCellBytes)))
		return experiment.AddSat(xlsxPackBytes, min(xml, pieces))
	}
	// Decisions and breakeven have no more rows than the grid.
	var grid, failures int64
	for _, gs := range sizes {
		for _, s := range gs {
			grid, failures = experiment.AddSat(grid, s.GridRows), experiment.AddSat(failures, s.FailureRows)
		}
	}
	n := experiment.AddSat(int64(xlsxBytes), table(grid, len(gridColumns)))
	n = experiment.AddSat(n, table(failures, len(failureColumns)))
	n = experiment.AddSat(n, table(grid, len(decisionColumns)))
	n = experiment.AddSat(n, table(grid, len(breakevenColumns)))
	// The five views, as sheets of their cells.
	var viewCells int64
	for i, g := range e.Grids() {
		for j, p := range g.Periods {
			viewCells = experiment.AddSat(viewCells, experiment.MulSat(sizes[i][j].Sources, viewBytes(e, &g, p)/int64(unsafe.Sizeof(results.Value{}))))
		}
	}
	return experiment.AddSat(n, min(5*xlsxSheetBytes, experiment.MulSat(viewCells, xlsxCellBytes+xlsxRowBytes)))
}

// MiB writes a number of bytes in mebibytes, rounded up, for messages.
func MiB(bytes int64) string {
	return strconv.FormatInt((bytes+(1<<20)-1)>>20, 10) + " MiB"
}

// MiBBytes returns n mebibytes in bytes, saturating at math.MaxInt64, for
// limits given in MiB such as --max-memory.
func MiBBytes(n int64) int64 {
	if n > math.MaxInt64>>20 {
		return math.MaxInt64
	}
	return n << 20
}

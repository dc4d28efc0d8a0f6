package runner

import (
	"math"
	"slices"
	"strconv"
	"unsafe"

	"ckptlab/model"
	"ckptlab/results"
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
	// xlsxPackBytes is what packing one table sheet holds: rows formatted
	// and being compressed, the compressor's state, buffers.
	xlsxCellBytes  = 64
	xlsxRowBytes   = 64
	xlsxSheetBytes = 32 << 20
	xlsxBytes      = 8 << 20
	xlsxPackBytes  = 8 << 20
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
func (e *Experiment) MemoryBytes(jobs int, views bool) int64 {
	j := int64(Jobs(jobs))
	var live int64
	for _, g := range e.Grids() {
		for _, p := range g.Periods {
			perSource := addSat(mulSat(j, e.tallyBytes(&g, p)), e.resultBytes(&g, p))
			if views {
				perSource = addSat(perSource, e.viewBytes(&g, p))
			}
			live = addSat(live, mulSat(e.sourcesOf(&g, p), perSource))
		}
	}
	// Per goroutine: the names' hashes of a task, a fault block's bits.
	scratch := int64(4*chunkSize + 1<<21 + 1<<12)
	live = addSat(live, mulSat(j, scratch))
	live = addSat(live, e.taskBytes())
	total := addSat(programBytes, mulSat(heapFactor, live))
	if views {
		total = addSat(total, mulSat(heapFactor, e.xlsxBytes()))
	}
	return total
}

// touched returns how many workers of a partitioning by key over w workers
// faults can touch: no more than the subscribers a missing draw hits, nor
// than the values of the key.
func (e *Experiment) touched(key model.PartitionKey, w int, subscribers int) int64 {
	n := min(int64(w), int64(e.Missing), int64(subscribers))
	switch key {
	case model.ByRegion:
		n = min(n, int64(len(model.Regions)))
	case model.ByType:
		n = min(n, int64(len(model.Types)))
	}
	return n
}

// sourcesOf returns the number of sources of p periods grid g draws.
func (e *Experiment) sourcesOf(g *Grid, p int) int64 {
	one := *g
	one.Periods = []int{p}
	return e.GridSizes(&one).Sources
}

// tallyBytes bounds one goroutine's tally of one source of p periods of
// grid g: subscribers per worker, and rows per period of each worker
// faults touched, with its map entry, for the partitionings of every grid.
func (e *Experiment) tallyBytes(g *Grid, p int) int64 {
	n := addSat(256, mulSat(8, int64(p)))
	most := slices.Max(g.Subscribers)
	for _, part := range e.partitionings() {
		n = addSat(n, addSat(96, mulSat(8, int64(part.Workers))))
		n = addSat(n, mulSat(e.touched(part.Key, part.Workers, most), addSat(128, mulSat(8, int64(p)))))
	}
	return n
}

// resultBytes bounds the evaluated result of one source of p periods: the
// stream's prefix sums, and per partitioning the touched workers' prefix
// sums and one cost per interval.
func (e *Experiment) resultBytes(g *Grid, p int) int64 {
	cost := int64(unsafe.Sizeof(model.Cost{}))
	prefix := addSat(32, mulSat(8, int64(p)+1))
	n := addSat(512, prefix)
	most := slices.Max(g.Subscribers)
	for _, k := range g.PartitionKeys {
		for _, w := range g.Workers {
			n = addSat(n, addSat(128, mulSat(cost, g.intervalCount(p))))
			n = addSat(n, mulSat(e.touched(k, w, most), prefix))
		}
	}
	return n
}

// viewBytes bounds the lesson's views of one source of p periods: their
// cells, and a block header per block.
func (e *Experiment) viewBytes(g *Grid, p int) int64 {
	cell := int64(unsafe.Sizeof(results.Value{})) + 16 // a cell and its text
	n := g.intervalCount(p)
	failures := e.failureCount(p)
	cells := addSat(
		addSat(mulSat(failures, n+1), 3*n), // matrix and recovery
		addSat(
			mulSat(int64(len(g.StateRows)), addSat(7*n, mulSat(int64(len(g.Probabilities)), n+2))), // cost and probability
			mulSat(int64(len(g.PartitionKeys)), int64(len(g.Workers)), 4*n),                        // partition
		))
	blocks := addSat(2, addSat(mulSat(2, int64(len(g.StateRows))), mulSat(int64(len(g.PartitionKeys)), int64(len(g.Workers)))))
	return addSat(mulSat(cell, cells), mulSat(512, blocks))
}

// taskBytes bounds the list of tasks Count makes and the sources.
func (e *Experiment) taskBytes() int64 {
	var tasks int64
	for _, g := range e.Grids() {
		for _, n := range g.Subscribers {
			tasks = addSat(tasks, int64(n/chunkSize+1))
		}
	}
	perSource := int64(unsafe.Sizeof(Piece{})+unsafe.Sizeof(model.Source{})) + 64
	return mulSat(e.Sources(), addSat(mulSat(tasks, int64(unsafe.Sizeof(Piece{}))), perSource))
}

// xlsxBytes bounds what the workbook writer keeps in memory: the table
// sheets being packed (see results.MaxPackedAtOnce), the lesson's views
// as sheets of excelize's stream writer, and the workbook around them.
func (e *Experiment) xlsxBytes() int64 {
	sheets := func(rows int64) int64 { // a table longer than a sheet continues on the next
		return max(1, (rows+results.MaxSheetRows-1)/results.MaxSheetRows)
	}
	tables := addSat(sheets(e.GridRows()), sheets(e.FailureRows()))
	n := addSat(int64(xlsxBytes), mulSat(min(tables, results.MaxPackedAtOnce), xlsxPackBytes))
	// The five views, as sheets of their cells.
	var viewCells int64
	for _, g := range e.Grids() {
		for _, p := range g.Periods {
			viewCells = addSat(viewCells, mulSat(e.sourcesOf(&g, p), e.viewBytes(&g, p)/int64(unsafe.Sizeof(results.Value{}))))
		}
	}
	return addSat(n, min(5*xlsxSheetBytes, mulSat(viewCells, xlsxCellBytes+xlsxRowBytes)))
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

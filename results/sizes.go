package results

import (
	"slices"
	"unsafe"

	"ckptlab/internal/satmath"
)

// Sizes are the counts a set's writers hold memory by.
// A plan knows them before it evaluates anything.
type Sizes struct {
	Grid, Failures, Decisions, Breakeven TableSize
	Views                                ViewSizes
	// Maps are the decision maps' axes, one per grid of the experiment.
	Maps []MapSize
	// Sources counts the sources of every grid, each once per grid.
	Sources int64
	// Text is the length of the longest text written whole: the
	// description.
	Text int64
}

// TableSize is a table's shape.
type TableSize struct {
	Rows int64
	// Columns counts the columns, Texts those of them of kind Text.
	Columns, Texts int
	// Held is what ranging over the rows holds besides them.
	Held int64
}

// ViewSizes are the sizes of the lesson's view sheets.
type ViewSizes struct {
	// Largest holds, per view sheet, the cells of its largest block.
	Largest []int64
	// Cells and Blocks are those of every view of every source.
	Cells, Blocks int64
	// MostBlocks is the blocks of the view of the most, over the sources.
	MostBlocks int64
}

// MapSize is a grid's decision axes: its state rows and probabilities.
type MapSize struct{ StateRows, Probabilities int64 }

// Tables returns the four tables' sizes.
func (s Sizes) Tables() []TableSize {
	return []TableSize{s.Grid, s.Failures, s.Decisions, s.Breakeven}
}

// fileBytes is the buffer each file of a set is written through.
const fileBytes = 64 << 10

// CellBytes is what a cell held in memory takes: its value and its text.
const CellBytes = int64(unsafe.Sizeof(Value{})) + 16

// blockBytes bounds one block of a view of the given cells, made in
// memory: its cells, its header and its rows' slices.
func blockBytes(cells int64) int64 {
	return satmath.Add(satmath.Mul(int64(unsafe.Sizeof(Value{})), cells), 2048)
}

// BlocksBytes bounds k blocks held at once, each of another view.
func (v ViewSizes) BlocksBytes(k int) int64 {
	largest := make([]int64, len(v.Largest))
	for i, c := range v.Largest {
		largest[i] = blockBytes(c)
	}
	slices.Sort(largest)
	var n int64
	for _, b := range largest[len(largest)-min(k, len(largest)):] {
		n = satmath.Add(n, b)
	}
	return n
}

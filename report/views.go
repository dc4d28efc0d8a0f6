package report

import (
	"fmt"
	"iter"
	"slices"

	"ckptlab/answer"
	"ckptlab/model"
	"ckptlab/results"
	"ckptlab/runner"
)

// views returns the lesson's own tables for the result, one block per
// combination of the axes each depends on, with the lesson's column names.
// A block shows the intervals with a point left in the grid for the
// combination, and no block is left with none. Each view makes its blocks
// when ranged over, in table order, one at a time: a sweep's views are
// never held whole.
func (r *result) views() []results.View {
	return []results.View{
		{Name: "recovery", Title: "Recovery at the named failure: rows the whole job recomputes",
			Each: r.sourceBlocks(func(pt *gridPoint, title string, yield func(results.Block) bool) bool {
				return yield(recoveryBlock(pt.sr, title, pick(pt.sr.Parts[0].Costs, pt.left)))
			})},
		{Name: "matrix", Title: "Rows recomputed, failure × interval",
			Each: r.sourceBlocks(func(pt *gridPoint, title string, yield func(results.Block) bool) bool {
				return yield(matrixBlock(pt.sr, title, pick(pt.sr.Parts[0].Costs, pt.left)))
			})},
		{Name: "cost", Title: "Certain cost of checkpoints, and worst and average recovery over the failure set",
			Each: r.stateRowsBlocks(func(pt *gridPoint, title string, _ *answer.Bests) results.Block {
				return costBlock(title, pick(pt.sr.Parts[0].Costs, pt.left), pt.stateRows)
			})},
		{Name: "probability", Title: "Expected total (probability × average recovery + certain cost) and the best interval",
			Each: r.stateRowsBlocks(func(pt *gridPoint, title string, e *answer.Bests) results.Block {
				return probabilityBlock(title, pt, e)
			})},
		{Name: "partition", Title: "Rows the single failed worker asks back at the named failure",
			Each: r.sourceBlocks(func(pt *gridPoint, title string, yield func(results.Block) bool) bool {
				blk, ok := r.partitionBlock(pt.si, title)
				return !ok || yield(blk)
			})},
	}
}

// sourceBlocks ranges over the blocks blocks makes of each source, in
// table order, each source with its title and the intervals with a point
// left; blocks reports whether to go on.
func (r *result) sourceBlocks(blocks func(pt *gridPoint, title string, yield func(results.Block) bool) bool) iter.Seq[results.Block] {
	return func(yield func(results.Block) bool) {
		for pt := range r.walk(bySource) {
			if !blocks(pt, sourceTitle(pt.sr), yield) {
				return
			}
		}
	}
}

// stateRowsBlocks ranges over a block per source and state rows with a
// point left, in table order, made by block with the point of the source
// and state rows and its bests.
func (r *result) stateRowsBlocks(block func(pt *gridPoint, title string, e *answer.Bests) results.Block) iter.Seq[results.Block] {
	return func(yield func(results.Block) bool) {
		var envs bestsOf
		src, title := -1, ""
		for pt := range r.walk(byState) {
			if pt.si != src {
				src, title = pt.si, sourceTitle(pt.sr)
			}
			if !yield(block(pt, title+", state rows "+results.Count.FormatInt(int64(pt.stateRows)), envs.at(r, pt))) {
				return
			}
		}
	}
}

// title names the source in a block's or a chart's title, its counts in
// the number style.
func sourceTitle(sr *runner.SourceResult) string {
	s := sr.Source
	count := results.Count.FormatInt
	return fmt.Sprintf("seed %d, %s subscribers, %s periods: stream job %s rows, failure %s",
		s.Seed, count(int64(s.Subscribers)), count(int64(s.Periods)), count(int64(sr.Rows)), s.Label(sr.Failure))
}

func recoveryBlock(sr *runner.SourceResult, title string, costs []model.Cost) results.Block {
	b := results.Block{Title: title, Columns: []results.Column{
		{Name: "interval", Kind: results.Text},
		{Name: "checkpoints", Kind: results.Int},
		{Name: "recomputed rows", Kind: results.Int},
	}}
	for _, c := range costs {
		b.Rows = append(b.Rows, []results.Value{
			results.TextValue(c.Interval.String()),
			results.IntValue(int64(c.Checkpoints)),
			results.IntValue(c.Recomputed),
		})
	}
	return b
}

func matrixBlock(sr *runner.SourceResult, title string, costs []model.Cost) results.Block {
	b := results.Block{Title: title, Columns: []results.Column{{Name: "failure", Kind: results.Text}}}
	for _, c := range costs {
		b.Columns = append(b.Columns, results.Column{Name: c.Interval.String(), Kind: results.Int})
	}
	weighed := sr.Failures.Weights != nil
	if weighed {
		b.Columns = append(b.Columns, results.Column{Name: "weight", Kind: results.Int})
	}
	for i, f := range sr.Failures.Periods {
		row := []results.Value{results.TextValue(sr.Source.Label(f))}
		for _, c := range costs {
			row = append(row, results.IntValue(sr.Stream.Recomputed(c.Interval, f)))
		}
		if weighed {
			row = append(row, results.IntValue(sr.Failures.Weight(i)))
		}
		b.Rows = append(b.Rows, row)
	}
	return b
}

// costColumns are the cost view's columns.
var costColumns = []results.Column{
	{Name: "interval", Kind: results.Text},
	{Name: "checkpoints", Kind: results.Int},
	{Name: "certain cost", Kind: results.Int},
	{Name: "worst", Kind: results.Int},
	{Name: "worst total", Kind: results.Int},
	{Name: "average", Kind: results.Float, Decimals: 1},
	{Name: "average total", Kind: results.Float, Decimals: 1},
}

// costBlock is the cost table of the costs at stateRows rows a
// checkpoint. A view of a state_rows sweep makes one per value, so its
// rows are cut from one slice of cells.
func costBlock(title string, costs []model.Cost, stateRows int) results.Block {
	cols := len(costColumns)
	b := results.Block{Title: title, Columns: slices.Clone(costColumns), Rows: make([][]results.Value, len(costs))}
	cells := make([]results.Value, len(costs)*cols)
	for i, c := range costs {
		row := cells[i*cols : (i+1)*cols : (i+1)*cols]
		row[0] = results.TextValue(c.Interval.String())
		row[1] = results.IntValue(int64(c.Checkpoints))
		row[2] = results.IntValue(c.CertainCost(stateRows))
		row[3] = results.IntValue(c.Worst)
		row[4] = results.IntValue(c.WorstTotal(stateRows))
		row[5] = results.FloatValue(c.Average())
		row[6] = results.FloatValue(c.AverageTotal(stateRows))
		b.Rows[i] = row
	}
	return b
}

// probabilityBlock shows, for each probability with a point left, the
// expected total of every interval shown (those with a point left at the
// state rows), and the answer's best there. The rows are cut from one
// slice of cells.
func probabilityBlock(title string, pt *gridPoint, e *answer.Bests) results.Block {
	sr, stateRows, shown := pt.sr, pt.stateRows, pt.left
	all := sr.Parts[0].Costs
	cols := 2
	for _, ok := range shown {
		if ok {
			cols++
		}
	}
	b := results.Block{Title: title, Columns: make([]results.Column, 0, cols)}
	b.Columns = append(b.Columns, results.Column{Name: "failure probability", Kind: results.Float, Decimals: -1})
	for i, c := range all {
		if shown[i] {
			b.Columns = append(b.Columns, results.Column{Name: c.Interval.String(), Kind: results.Float, Decimals: 1})
		}
	}
	b.Columns = append(b.Columns, results.Column{Name: "best", Kind: results.Text})
	probs := sr.Grid.Probabilities
	b.Rows = make([][]results.Value, 0, len(probs))
	cells := make([]results.Value, 0, len(probs)*cols)
	for j, p := range probs {
		best := e.Best[j]
		if best < 0 {
			continue
		}
		from := len(cells)
		cells = append(cells, results.FloatValue(p))
		col := 0
		for i, c := range all {
			if !shown[i] {
				continue
			}
			cells = append(cells, results.FloatValue(expectedTotal(c, p, stateRows)))
			col++
			if i == best {
				b.Marked = append(b.Marked, [2]int{len(b.Rows), col})
			}
		}
		cells = append(cells, results.TextValue(all[best].Interval.String()))
		b.Rows = append(b.Rows, cells[from:len(cells):len(cells)])
	}
	return b
}

// partitionBlock is the lesson's partitioned recovery of a source, one
// table for all its partitionings with a point left: as the lesson prints
// it for one partitioning (its key and workers in the title), and with the
// partition key and worker count as leading columns for several, so that
// a worker sweep reads down one table and each printed page carries its
// header. ok is false when no partitioning has a point left.
func (r *result) partitionBlock(si int, title string) (blk results.Block, ok bool) {
	var parts []*runner.PartResult
	var lefts [][]bool
	for pt := range r.walkSource(si, byPart) {
		parts, lefts = append(parts, pt.pr), append(lefts, slices.Clone(pt.left))
	}
	if len(parts) == 0 {
		return results.Block{}, false
	}
	lesson := []results.Column{
		{Name: "interval", Kind: results.Text},
		{Name: "whole job from scratch", Kind: results.Int},
		{Name: "busiest worker with partitioned state", Kind: results.Int},
		{Name: "exactly-once state", Kind: results.Int},
	}
	if len(parts) == 1 {
		pr := parts[0]
		blk.Title = fmt.Sprintf("%s, partitioned by %s over %s", title, pr.Key, countNoun(int64(pr.Partitioning.Workers), "worker"))
		blk.Columns = lesson
	} else {
		blk.Title = title + ", by partition key and workers"
		blk.Keys = 3
		blk.Columns = append([]results.Column{
			{Name: "partitioned by", Kind: results.Text},
			{Name: "workers", Kind: results.Int},
		}, lesson...)
	}
	for i, pr := range parts {
		for _, c := range pick(pr.Costs, lefts[i]) {
			row := []results.Value{
				results.TextValue(c.Interval.String()),
				results.IntValue(c.Recomputed),
				results.IntValue(c.Busiest),
				results.IntValue(c.ExactlyOnceState()),
			}
			if len(parts) > 1 {
				row = append([]results.Value{results.TextValue(pr.Key.String()), results.IntValue(int64(pr.Partitioning.Workers))}, row...)
			}
			blk.Rows = append(blk.Rows, row)
		}
	}
	return blk, true
}

// pick returns the costs whose flag in left is set.
func pick(costs []model.Cost, left []bool) []model.Cost {
	out := make([]model.Cost, 0, len(costs))
	for i, c := range costs {
		if left[i] {
			out = append(out, c)
		}
	}
	return out
}

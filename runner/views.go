package runner

import (
	"fmt"

	"ckptlab/model"
	"ckptlab/results"
)

// Views returns the lesson's own tables for the result, one block per
// combination of the axes each depends on, with the lesson's column names.
func (r *Result) Views() []results.View {
	e := r.Exp
	rec := results.View{Name: "recovery", Title: "Recovery at the named failure: rows the whole job recomputes"}
	mat := results.View{Name: "matrix", Title: "Rows recomputed, failure × interval"}
	cost := results.View{Name: "cost", Title: "Certain cost of checkpoints, and worst and average recovery over the failure set"}
	prob := results.View{Name: "probability", Title: "Expected total (probability × average recovery + certain cost) and the best interval"}
	part := results.View{Name: "partition", Title: "Rows the single failed worker asks back at the named failure"}
	for _, sr := range r.Sources {
		title := sr.title()
		costs := sr.Parts[0].Costs // the whole stream's figures are the same in every part
		rec.Blocks = append(rec.Blocks, sr.recoveryBlock(title, costs))
		mat.Blocks = append(mat.Blocks, sr.matrixBlock(title))
		for _, stateRows := range e.StateRowsFor(sr.Source.Subscribers) {
			t := fmt.Sprintf("%s, state rows %d", title, stateRows)
			cost.Blocks = append(cost.Blocks, costBlock(t, costs, stateRows))
			prob.Blocks = append(prob.Blocks, probabilityBlock(t, costs, stateRows, e.Probabilities))
		}
		for _, pr := range sr.Parts {
			workers := "workers"
			if pr.Partitioning.Workers == 1 {
				workers = "worker"
			}
			t := fmt.Sprintf("%s, partitioned by %s over %d %s", title, pr.Key, pr.Partitioning.Workers, workers)
			part.Blocks = append(part.Blocks, partitionBlock(t, pr))
		}
	}
	return []results.View{rec, mat, cost, prob, part}
}

func (sr *SourceResult) title() string {
	s := sr.Source
	return fmt.Sprintf("seed %d, %d subscribers, %d periods: stream job %d rows, failure %s",
		s.Seed, s.Subscribers, s.Periods, sr.Rows, s.Label(sr.Failure))
}

func (sr *SourceResult) recoveryBlock(title string, costs []model.Cost) results.Block {
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

func (sr *SourceResult) matrixBlock(title string) results.Block {
	b := results.Block{Title: title, Columns: []results.Column{{Name: "failure", Kind: results.Text}}}
	for _, k := range sr.Intervals {
		b.Columns = append(b.Columns, results.Column{Name: k.String(), Kind: results.Int})
	}
	for _, f := range sr.Failures {
		row := []results.Value{results.TextValue(sr.Source.Label(f))}
		for _, k := range sr.Intervals {
			row = append(row, results.IntValue(sr.Stream.Recomputed(k, f)))
		}
		b.Rows = append(b.Rows, row)
	}
	return b
}

func costBlock(title string, costs []model.Cost, stateRows int) results.Block {
	b := results.Block{Title: title, Columns: []results.Column{
		{Name: "interval", Kind: results.Text},
		{Name: "checkpoints", Kind: results.Int},
		{Name: "certain cost", Kind: results.Int},
		{Name: "worst", Kind: results.Int},
		{Name: "worst total", Kind: results.Int},
		{Name: "average", Kind: results.Float, Decimals: 1},
		{Name: "average total", Kind: results.Float, Decimals: 1},
	}}
	for _, c := range costs {
		b.Rows = append(b.Rows, []results.Value{
			results.TextValue(c.Interval.String()),
			results.IntValue(int64(c.Checkpoints)),
			results.IntValue(c.CertainCost(stateRows)),
			results.IntValue(c.Worst),
			results.IntValue(c.WorstTotal(stateRows)),
			results.FloatValue(c.Average()),
			results.FloatValue(c.AverageTotal(stateRows)),
		})
	}
	return b
}

func probabilityBlock(title string, costs []model.Cost, stateRows int, probabilities []float64) results.Block {
	b := results.Block{Title: title, Columns: []results.Column{{Name: "failure probability", Kind: results.Float, Decimals: -1}}}
	for _, c := range costs {
		b.Columns = append(b.Columns, results.Column{Name: c.Interval.String(), Kind: results.Float, Decimals: 1})
	}
	b.Columns = append(b.Columns, results.Column{Name: "best", Kind: results.Text})
	for i, p := range probabilities {
		row := []results.Value{results.FloatValue(p)}
		for _, c := range costs {
			row = append(row, results.FloatValue(c.ExpectedTotal(p, stateRows)))
		}
		best := model.Best(costs, p, stateRows)
		row = append(row, results.TextValue(costs[best].Interval.String()))
		b.Rows = append(b.Rows, row)
		b.Marked = append(b.Marked, [2]int{i, 1 + best})
	}
	return b
}

func partitionBlock(title string, pr *PartResult) results.Block {
	b := results.Block{Title: title, Columns: []results.Column{
		{Name: "interval", Kind: results.Text},
		{Name: "whole job from scratch", Kind: results.Int},
		{Name: "busiest worker with partitioned state", Kind: results.Int},
		{Name: "exactly-once state", Kind: results.Int},
	}}
	for _, c := range pr.Costs {
		b.Rows = append(b.Rows, []results.Value{
			results.TextValue(c.Interval.String()),
			results.IntValue(c.Recomputed),
			results.IntValue(c.Busiest),
			results.IntValue(c.ExactlyOnceState()),
		})
	}
	return b
}

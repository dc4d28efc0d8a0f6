package runner

import (
	"hash/fnv"
	"math"
	"strconv"
	"strings"
	"sync"

	"ckptlab/internal/satmath"
	"ckptlab/model"
	"ckptlab/model/process"
	"ckptlab/results"
	"ckptlab/runner/experiment"
)

// timeGroup is the time model's answer for one source and failure process
// (SPEC 15): a row of process_decisions.csv, with a row of process.csv per
// declared interval.
type timeGroup struct {
	sr    *SourceResult
	group experiment.Group
	dist  process.Distribution
	work  process.Work
	rows  []timeRow // one per declared interval
	best  int       // index of rows, -1 when no row has a figure

	// exact figures under exponential failures; not for Weibull
	exact            bool
	optimal          model.Interval
	optimalExpected  float64
	schedule         []int // points, ascending
	scheduleExpected float64
	textbook         process.Textbook
	textbookOK       bool
}

// bestFigure returns the figure of the group's best interval; ok is false
// when no interval has one.
func (g *timeGroup) bestFigure() (float64, bool) {
	if g.best < 0 {
		return 0, false
	}
	return g.figure(g.best)
}

// timeRow is one declared interval of a group.
type timeRow struct {
	interval model.Interval
	expected float64 // exponential only
	mc       process.Estimate
}

// figure returns the time the row is judged by: the exact expectation,
// or, for Weibull, the simulation's mean; ok is false without one.
func (g *timeGroup) figure(i int) (float64, bool) {
	if g.exact {
		return g.rows[i].expected, true
	}
	mc := g.rows[i].mc
	return mc.Mean, mc.OK
}

// timeGroups returns the time model's answer of the run, computed once:
// a group per source of the time model and failure process, in the order
// of process_decisions.csv; nil without the model.
func (r *Result) timeGroups() []*timeGroup {
	r.timeOnce.Do(func() { r.time = r.evaluateTime() })
	return r.time
}

// evaluateTime computes every group: the exact figures, then the
// simulations of every point on the run's goroutines.
func (r *Result) evaluateTime() []*timeGroup {
	t := r.Exp.Time
	if t == nil {
		return nil
	}
	var out []*timeGroup
	seen := map[string]bool{}
	for _, sr := range r.Sources {
		key := experiment.GridSource{Source: sr.Source, Grid: sr.Grid}.TimeKey()
		if seen[key] {
			continue
		}
		seen[key] = true
		work := process.NewWork(streamRows(sr), t.Throughput)
		for _, g := range t.Groups() {
			out = append(out, newTimeGroup(sr, g, t.Distribution, work))
		}
	}
	r.simulate(out)
	for _, g := range out {
		g.best = -1
		var least float64
		for i := range g.rows {
			if v, ok := g.figure(i); ok && (g.best < 0 || v < least) {
				g.best, least = i, v
			}
		}
	}
	return out
}

// streamRows returns the stream's rows per period of a source.
func streamRows(sr *SourceResult) []int64 {
	rows := make([]int64, sr.Source.Periods)
	var before int64
	for j := range rows {
		upTo := sr.Stream.Recomputed(model.None, j)
		rows[j], before = upTo-before, upTo
	}
	return rows
}

// newTimeGroup evaluates the exact figures of a group.
func newTimeGroup(sr *SourceResult, g experiment.Group, dist process.Distribution, work process.Work) *timeGroup {
	p := process.Process{MTBF: g.MTBF, Checkpoint: g.Checkpoint, Restart: g.Restart}
	tg := &timeGroup{sr: sr, group: g, dist: dist, work: work, exact: dist == process.Exponential}
	tg.rows = make([]timeRow, len(sr.Intervals))
	for i, k := range sr.Intervals {
		tg.rows[i].interval = k
		if tg.exact {
			tg.rows[i].expected = p.ExpectedInterval(work, k)
		}
	}
	if tg.exact {
		tg.optimal, tg.optimalExpected = p.Optimal(work)
		tg.schedule, tg.scheduleExpected = p.Schedule(work)
	}
	tg.textbook, tg.textbookOK = p.Textbook(work)
	return tg
}

// simulate runs the Monte Carlo replications of every point of the groups,
// the points spread over the run's goroutines. Each point's estimate
// depends on its seed and key alone, so the figures are the same for any
// number of goroutines.
func (r *Result) simulate(groups []*timeGroup) {
	t := r.Exp.Time
	if t.Replications == 0 {
		return
	}
	type point struct {
		g *timeGroup
		i int
	}
	var points []point
	for _, g := range groups {
		for i := range g.rows {
			points = append(points, point{g, i})
		}
	}
	jobs := jobsFor(r.jobs)
	inner := 1 // goroutines of one point: all of them when points are fewer
	if len(points) < jobs {
		inner = jobs
	}
	next := make(chan point)
	var wg sync.WaitGroup
	for range min(jobs, len(points)) {
		wg.Go(func() {
			for pt := range next {
				g, row := pt.g, &pt.g.rows[pt.i]
				segs := g.work.Segments(process.Points(row.interval, g.sr.Source.Periods))
				f := process.Failures{Distribution: g.dist, MTBF: g.group.MTBF, Shape: g.group.Shape}
				row.mc = process.Simulate(segs, g.group.Checkpoint, g.group.Restart, f, t.Replications,
					uint64(g.sr.Source.Seed), pointKey(g, row.interval), inner)
			}
		})
	}
	for _, pt := range points {
		next <- pt
	}
	close(next)
	wg.Wait()
}

// pointKey names a point of the time model for its generator: the source
// (but its seed, which seeds the generator), the failure process and the
// interval.
func pointKey(g *timeGroup, k model.Interval) uint64 {
	h := fnv.New64a()
	s := g.sr.Source
	for _, part := range []string{strconv.Itoa(s.Subscribers), strconv.Itoa(s.Periods), s.Start.String(),
		strconv.Itoa(s.Missing), strconv.Itoa(s.Duplicates), g.dist.String(),
		strconv.FormatFloat(g.group.MTBF, 'g', -1, 64), strconv.FormatFloat(g.group.Checkpoint, 'g', -1, 64),
		strconv.FormatFloat(g.group.Restart, 'g', -1, 64), strconv.FormatFloat(g.group.Shape, 'g', -1, 64), k.String()} {
		h.Write([]byte(part))
		h.Write([]byte{0})
	}
	return h.Sum64()
}

// processRow is one row of process.csv: a group and one of its intervals.
type processRow struct {
	*timeGroup
	i int
}

// timeColumn is one column of the time model's tables: its header and the
// cell of a row, empty where the row has no figure.
type timeColumn[R any] struct {
	results.Column
	cell func(r *R) results.Value
}

// empty is the cell of a figure a row does not have.
var empty = results.TextValue("")

// floatOr returns v as a cell, or an empty one when not ok or not finite.
func floatOr(v float64, ok bool) results.Value {
	if !ok || math.IsNaN(v) || math.IsInf(v, 0) {
		return empty
	}
	return results.FloatValue(v)
}

// groupColumns are the leading columns of both tables: the source's keys
// and the failure process.
func groupColumns[R any](g func(r *R) *timeGroup) []timeColumn[R] {
	return []timeColumn[R]{
		{results.Column{Name: "seed", Kind: results.Int, Quantity: results.General}, func(r *R) results.Value { return results.IntValue(int64(g(r).sr.Source.Seed)) }},
		{results.Column{Name: "subscribers", Kind: results.Int}, func(r *R) results.Value { return results.IntValue(int64(g(r).sr.Source.Subscribers)) }},
		{results.Column{Name: "periods", Kind: results.Int}, func(r *R) results.Value { return results.IntValue(int64(g(r).sr.Source.Periods)) }},
		{seconds("mtbf_seconds"), func(r *R) results.Value { return results.FloatValue(g(r).group.MTBF) }},
		{seconds("checkpoint_seconds"), func(r *R) results.Value { return results.FloatValue(g(r).group.Checkpoint) }},
		{seconds("restart_seconds"), func(r *R) results.Value { return results.FloatValue(g(r).group.Restart) }},
		{results.Column{Name: "distribution", Kind: results.Text}, func(r *R) results.Value { return results.TextValue(g(r).dist.String()) }},
		{results.Column{Name: "shape", Kind: results.Float, Decimals: -1, Quantity: results.General}, func(r *R) results.Value {
			return floatOr(g(r).group.Shape, g(r).dist == process.Weibull)
		}},
	}
}

// processColumns are the columns of process.csv (SPEC 15): per group and
// declared interval, the checkpoints, the work, the exact expected time
// (exponential), the share of time lost, the simulation's mean and 95 %
// half-width (with replications), and whether the interval is the group's
// best.
var processColumns = append(groupColumns(func(r *processRow) *timeGroup { return r.timeGroup }),
	timeColumn[processRow]{results.Column{Name: "interval", Kind: results.Text, Numeric: true}, func(r *processRow) results.Value {
		return results.TextValue(r.rows[r.i].interval.String())
	}},
	timeColumn[processRow]{results.Column{Name: "checkpoints", Kind: results.Int}, func(r *processRow) results.Value {
		return results.IntValue(int64(process.Checkpoints(r.rows[r.i].interval, r.sr.Source.Periods)))
	}},
	timeColumn[processRow]{seconds("work_seconds"), func(r *processRow) results.Value { return results.FloatValue(r.work.Seconds()) }},
	timeColumn[processRow]{seconds("expected_seconds"), func(r *processRow) results.Value { return floatOr(r.rows[r.i].expected, r.exact) }},
	timeColumn[processRow]{fraction("lost_fraction"), func(r *processRow) results.Value {
		v, ok := r.figure(r.i)
		if !ok {
			return empty
		}
		return floatOr(process.LostFraction(v, r.work.Seconds()))
	}},
	timeColumn[processRow]{seconds("mc_mean_seconds"), func(r *processRow) results.Value { return floatOr(r.rows[r.i].mc.Mean, r.rows[r.i].mc.OK) }},
	timeColumn[processRow]{seconds("mc_half_width_seconds"), func(r *processRow) results.Value {
		return floatOr(r.rows[r.i].mc.HalfWidth, r.rows[r.i].mc.OK)
	}},
	timeColumn[processRow]{results.Column{Name: "best", Kind: results.Bool}, func(r *processRow) results.Value { return results.BoolValue(r.i == r.best) }},
)

// processDecisionColumns are the columns of process_decisions.csv (SPEC
// 15): per group, the best declared interval, the optimum over every
// interval and over every schedule (exponential), and the textbook optima
// in periods of mean work.
var processDecisionColumns = append(groupColumns(func(g *timeGroup) *timeGroup { return g }),
	timeColumn[timeGroup]{results.Column{Name: "best_interval", Kind: results.Text, Numeric: true}, func(g *timeGroup) results.Value {
		if g.best < 0 {
			return empty
		}
		return results.TextValue(g.rows[g.best].interval.String())
	}},
	timeColumn[timeGroup]{seconds("best_expected_seconds"), func(g *timeGroup) results.Value {
		if g.best < 0 {
			return empty
		}
		return floatOr(g.figure(g.best))
	}},
	timeColumn[timeGroup]{fraction("best_lost_fraction"), func(g *timeGroup) results.Value {
		if g.best < 0 {
			return empty
		}
		v, _ := g.figure(g.best)
		return floatOr(process.LostFraction(v, g.work.Seconds()))
	}},
	timeColumn[timeGroup]{results.Column{Name: "optimal_interval", Kind: results.Text, Numeric: true}, func(g *timeGroup) results.Value {
		if !g.exact {
			return empty
		}
		return results.TextValue(g.optimal.String())
	}},
	timeColumn[timeGroup]{seconds("optimal_expected_seconds"), func(g *timeGroup) results.Value { return floatOr(g.optimalExpected, g.exact) }},
	timeColumn[timeGroup]{results.Column{Name: "schedule_checkpoints", Kind: results.Int}, func(g *timeGroup) results.Value {
		if !g.exact {
			return empty
		}
		return results.IntValue(int64(len(g.schedule)))
	}},
	timeColumn[timeGroup]{results.Column{Name: "schedule_points", Kind: results.Text}, func(g *timeGroup) results.Value {
		return results.TextValue(g.scheduleLabels(" "))
	}},
	timeColumn[timeGroup]{seconds("schedule_expected_seconds"), func(g *timeGroup) results.Value { return floatOr(g.scheduleExpected, g.exact) }},
	timeColumn[timeGroup]{estimate("young_periods"), func(g *timeGroup) results.Value { return floatOr(g.textbook.Young, g.textbookOK) }},
	timeColumn[timeGroup]{estimate("daly_periods"), func(g *timeGroup) results.Value { return floatOr(g.textbook.Daly, g.textbookOK) }},
	timeColumn[timeGroup]{estimate("exact_periods"), func(g *timeGroup) results.Value { return floatOr(g.textbook.Exact, g.textbookOK) }},
)

func seconds(name string) results.Column {
	return results.Column{Name: name, Kind: results.Float, Decimals: 1, Quantity: results.Seconds}
}

func fraction(name string) results.Column {
	return results.Column{Name: name, Kind: results.Float, Decimals: -1, Quantity: results.Share}
}

func estimate(name string) results.Column {
	return results.Column{Name: name, Kind: results.Float, Decimals: 2, Quantity: results.Estimate}
}

// scheduleLabels writes the labels of the group's best schedule, joined by
// sep; "" for none or without the exact model.
func (g *timeGroup) scheduleLabels(sep string) string {
	labels := make([]string, len(g.schedule))
	for i, t := range g.schedule {
		labels[i] = g.sr.Source.Label(t)
	}
	return strings.Join(labels, sep)
}

func timeHeader[R any](cols []timeColumn[R]) []results.Column {
	out := make([]results.Column, len(cols))
	for i, c := range cols {
		out[i] = c.Column
	}
	return out
}

func timeCells[R any](dst []results.Value, cols []timeColumn[R], r *R) []results.Value {
	for _, c := range cols {
		dst = append(dst, c.cell(r))
	}
	return dst
}

// ProcessTables returns process.csv's and process_decisions.csv's tables,
// or zero tables without the time model.
func (r *Result) ProcessTables() (rows, decisions results.Table) {
	if r.Exp.Time == nil {
		return results.Table{}, results.Table{}
	}
	rows = results.Table{Name: "process", Columns: timeHeader(processColumns), Rows: func(yield func([]results.Value) bool) {
		var cells []results.Value
		for _, g := range r.timeGroups() {
			for i := range g.rows {
				cells = timeCells(cells[:0], processColumns, &processRow{g, i})
				if !yield(cells) {
					return
				}
			}
		}
	}}
	decisions = results.Table{Name: "process_decisions", Columns: timeHeader(processDecisionColumns), Rows: func(yield func([]results.Value) bool) {
		var cells []results.Value
		for _, g := range r.timeGroups() {
			cells = timeCells(cells[:0], processDecisionColumns, g)
			if !yield(cells) {
				return
			}
		}
	}}
	return rows, decisions
}

// processBytes bounds what the time model's answer holds while the tables
// are written: a row per group and interval, a group's figures and the
// work per period of each source, the schedule's program (five words a
// period) and the moments of one simulation's blocks per goroutine.
func processBytes(e *experiment.Experiment, jobs int) int64 {
	if e.Time == nil {
		return 0
	}
	rows, groups := e.ProcessRows()
	n := satmath.Add(satmath.Mul(rows, 64), satmath.Mul(groups, 256))
	most := 0
	for _, gs := range e.TimeSources() {
		n = satmath.Add(n, int64(8*(gs.Periods+1)))
		most = max(most, gs.Periods)
	}
	n = satmath.Add(n, int64(40*(most+1)))
	blocks := int64(e.Time.Replications/1024 + 1)
	return satmath.Add(n, satmath.Mul(int64(jobsFor(jobs)), blocks, 32))
}

package answer

import (
	"hash/fnv"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"ckptlab/model"
	"ckptlab/model/process"
	"ckptlab/runner/experiment"
)

// A TimeSource is a source of the time model, as its answer reads it.
type TimeSource struct {
	// Index numbers the source in the run.
	Index  int
	Source model.Source
	// Intervals are the declared intervals, in declared order.
	Intervals []model.Interval
	// Rows are the stream's rows per period.
	Rows []int64
}

// A Time is the time model's answer for one source and failure process
// (SPEC 15): a row of process_decisions.csv, with a row of process.csv
// per declared interval.
type Time struct {
	Index        int
	Source       model.Source
	Group        experiment.Group
	Distribution process.Distribution
	Work         process.Work
	Rows         []TimeRow // one per declared interval
	// Best indexes Rows: the least time, ties to the first declared; -1
	// when no row has a figure.
	Best int

	// Exact reports whether the figures below are computed: under
	// exponential failures, not Weibull.
	Exact            bool
	Optimal          model.Interval
	OptimalExpected  float64
	Schedule         []int // points, ascending
	ScheduleExpected float64
	Textbook         process.Textbook
	TextbookOK       bool
}

// A TimeRow is one declared interval of a Time.
type TimeRow struct {
	Interval model.Interval
	Expected float64 // exponential only
	MC       process.Estimate
}

// Figure returns the time row i is judged by: the exact expectation or,
// for Weibull, the simulation's mean; ok is false without one.
func (t *Time) Figure(i int) (float64, bool) {
	if t.Exact {
		return t.Rows[i].Expected, true
	}
	mc := t.Rows[i].MC
	return mc.Mean, mc.OK
}

// BestFigure returns the figure of the best row; ok is false without one.
func (t *Time) BestFigure() (float64, bool) {
	if t.Best < 0 {
		return 0, false
	}
	return t.Figure(t.Best)
}

// ScheduleLabels returns the periods of the best schedule's checkpoints,
// joined by sep; "" for none or without the exact model.
func (t *Time) ScheduleLabels(sep string) string {
	labels := make([]string, len(t.Schedule))
	for i, p := range t.Schedule {
		labels[i] = t.Source.Label(p)
	}
	return strings.Join(labels, sep)
}

// Declared reports whether k is among the declared intervals.
func (t *Time) Declared(k model.Interval) bool {
	for _, row := range t.Rows {
		if row.Interval == k {
			return true
		}
	}
	return false
}

// NewTimes computes the time model's answer: a Time per source and failure
// process, in the order of process_decisions.csv. The simulations run on
// jobs goroutines (all CPUs for jobs <= 0), with the same figures for any.
func NewTimes(sources []TimeSource, m *experiment.Time, jobs int) []*Time {
	var out []*Time
	for _, s := range sources {
		work := process.NewWork(s.Rows, m.Throughput)
		for _, g := range m.Groups() {
			out = append(out, newTime(s, g, m.Distribution, work))
		}
	}
	simulate(out, m.Replications, jobs)
	for _, t := range out {
		t.Best = -1
		var least float64
		for i := range t.Rows {
			if v, ok := t.Figure(i); ok && (t.Best < 0 || v < least) {
				t.Best, least = i, v
			}
		}
	}
	return out
}

// newTime evaluates the exact figures of a source and failure process.
func newTime(s TimeSource, g experiment.Group, dist process.Distribution, work process.Work) *Time {
	p := process.Process{MTBF: g.MTBF, Checkpoint: g.Checkpoint, Restart: g.Restart}
	t := &Time{Index: s.Index, Source: s.Source, Group: g, Distribution: dist, Work: work, Exact: dist == process.Exponential}
	t.Rows = make([]TimeRow, len(s.Intervals))
	for i, k := range s.Intervals {
		t.Rows[i].Interval = k
		if t.Exact {
			t.Rows[i].Expected = p.ExpectedInterval(work, k)
		}
	}
	if t.Exact {
		t.Optimal, t.OptimalExpected = p.Optimal(work)
		t.Schedule, t.ScheduleExpected = p.Schedule(work)
	}
	t.Textbook, t.TextbookOK = p.Textbook(work)
	return t
}

// simulate runs the replications of every point, the points spread over
// the goroutines. Each point's estimate depends on its seed and key alone,
// so the figures are the same for any number of goroutines.
func simulate(times []*Time, replications, jobs int) {
	if replications == 0 {
		return
	}
	if jobs <= 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	type point struct {
		t *Time
		i int
	}
	var points []point
	for _, t := range times {
		for i := range t.Rows {
			points = append(points, point{t, i})
		}
	}
	inner := 1 // goroutines of one point: all of them when points are fewer
	if len(points) < jobs {
		inner = jobs
	}
	next := make(chan point)
	var wg sync.WaitGroup
	for range min(jobs, len(points)) {
		wg.Go(func() {
			for pt := range next {
				t, row := pt.t, &pt.t.Rows[pt.i]
				segs := t.Work.Segments(process.Points(row.Interval, t.Source.Periods))
				f := process.Failures{Distribution: t.Distribution, MTBF: t.Group.MTBF, Shape: t.Group.Shape}
				row.MC = process.Simulate(segs, t.Group.Checkpoint, t.Group.Restart, f, replications,
					uint64(t.Source.Seed), pointKey(t, row.Interval), inner)
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
func pointKey(t *Time, k model.Interval) uint64 {
	h := fnv.New64a()
	s := t.Source
	for _, part := range []string{strconv.Itoa(s.Subscribers), strconv.Itoa(s.Periods), s.Start.String(),
		strconv.Itoa(s.Missing), strconv.Itoa(s.Duplicates), t.Distribution.String(),
		strconv.FormatFloat(t.Group.MTBF, 'g', -1, 64), strconv.FormatFloat(t.Group.Checkpoint, 'g', -1, 64),
		strconv.FormatFloat(t.Group.Restart, 'g', -1, 64), strconv.FormatFloat(t.Group.Shape, 'g', -1, 64), k.String()} {
		h.Write([]byte(part))
		h.Write([]byte{0})
	}
	return h.Sum64()
}

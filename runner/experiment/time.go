package experiment

import (
	"strconv"

	"ckptlab/internal/satmath"
	"ckptlab/internal/words"
	"ckptlab/model/process"
)

// Time is the time model of failures (SPEC 15) of an experiment, on when
// the file sets throughput: durations in seconds, axes in declared order.
type Time struct {
	Throughput   float64   // rows per second
	Checkpoints  []float64 // checkpoint_time
	Restarts     []float64 // restart_time
	MTBFs        []float64 // mtbf
	Distribution process.Distribution
	Shapes       []float64 // weibull_shape, of a Weibull distribution
	Replications int
}

// timeKeys are the keys of the time model, throughput first.
var timeKeys = []string{"throughput", "checkpoint_time", "restart_time", "mtbf",
	"failure_distribution", "weibull_shape", "replications"}

// Group is one failure process of the time model: a row of
// process_decisions.csv per source.
type Group struct {
	MTBF, Checkpoint, Restart float64
	Shape                     float64 // Weibull only
}

// Groups returns the failure processes in table order: the time model's
// axes nested in the order of the axis table, each in declared order.
func (t *Time) Groups() []Group {
	out := []Group{{}}
	for _, a := range axisTable {
		if a.process == nil {
			continue
		}
		values := a.process.values(t)
		next := make([]Group, 0, len(out)*len(values))
		for _, g := range out {
			for _, v := range values {
				*a.process.field(&g) = v
				next = append(next, g)
			}
		}
		out = next
	}
	return out
}

// shapes are the values of weibull_shape a group takes: the declared ones
// of a Weibull distribution, none (0) of the exponential.
func (t *Time) shapes() []float64 {
	if t.Distribution == process.Weibull {
		return t.Shapes
	}
	return []float64{0}
}

// groupCount is len(t.Groups()), saturating.
func (t *Time) groupCount() int64 {
	n := int64(1)
	for _, a := range axisTable {
		if a.process != nil {
			n = satmath.Mul(n, int64(len(a.process.values(t))))
		}
	}
	return n
}

// TimeSources returns the sources of the time model with their declared
// intervals: each grid source once for the same intervals, in table order.
func (e *Experiment) TimeSources() []GridSource {
	var out []GridSource
	seen := map[string]bool{}
	for _, gs := range e.gridSources() {
		k := gs.TimeKey()
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, gs)
	}
	return out
}

// TimeKey tells the sources of the time model apart: two grid sources of
// the same source and declared intervals are one.
func (gs GridSource) TimeKey() string {
	return strconv.FormatUint(uint64(gs.Seed), 10) + " " + strconv.Itoa(gs.Subscribers) + " " +
		strconv.Itoa(gs.Periods) + ": " + joinIntervals(gs.Grid.IntervalsFor(gs.Periods))
}

// ProcessRows returns the rows of process.csv and of process_decisions.csv:
// per source of the time model, a row per group and declared interval, and
// a row per group. Both are 0 without the time model.
func (e *Experiment) ProcessRows() (rows, decisions int64) {
	if e.Time == nil {
		return 0, 0
	}
	groups := e.Time.groupCount()
	for _, gs := range e.TimeSources() {
		n := int64(len(gs.Grid.IntervalsFor(gs.Periods)))
		rows = satmath.Add(rows, satmath.Mul(groups, n))
		decisions = satmath.Add(decisions, groups)
	}
	return rows, decisions
}

// timeSetting gives the setting of key of the time model's keys, written only
// when the model is on: without throughput the resolved experiment and its
// hash stay those of a file without the keys.
func timeSetting(key string) func(e *Experiment) (Setting, bool) {
	return func(e *Experiment) (Setting, bool) {
		t := e.Time
		if t == nil {
			return Setting{}, false
		}
		switch key {
		case "throughput":
			return scalar(words.Float(t.Throughput)), true
		case "checkpoint_time":
			return list(t.Checkpoints, words.Float), true
		case "restart_time":
			return list(t.Restarts, words.Float), true
		case "mtbf":
			return list(t.MTBFs, words.Float), true
		case "failure_distribution":
			return scalar(t.Distribution.String()), true
		case "weibull_shape":
			return list(t.Shapes, words.Float), t.Distribution == process.Weibull
		case "replications":
			return scalar(strconv.Itoa(t.Replications)), true
		}
		return Setting{}, false
	}
}

// Package experiment reads experiment files into an Experiment: the YAML
// file, then the CKPTLAB_<KEY> environment variables and the --set
// arguments over it, every key resolved to its value with where it came
// from. It checks every key, its type and its bounds, the axes and their
// ranges, that the cases do not overlap and that each exclude entry drops
// a point but not all of them, and reports every mistake at once, each
// error pointing at its file, line, column and key (or at the override
// that gave the value). It also says how large the experiment's grid is
// and which sources it draws, without evaluating anything: package runner
// evaluates an Experiment.
package experiment

import (
	"strconv"

	"ckptlab/model"
)

// Experiment is a resolved experiment: every key of the file after defaults
// and overrides, validated. Axes keep their declared order, which is the
// order of rows in the result tables.
type Experiment struct {
	// File is the path the experiment was read from, for messages.
	File        string
	Version     int
	Name        string
	Description string

	// Axes are the file's axes, in declared order. StateRows may hold
	// SubscriberState, which stands for the word subscribers: N of each
	// source (StateRowsFor resolves it). When IntervalsAll is set,
	// Intervals is empty and every periods value P has the intervals
	// none, 1..P.
	Axes
	IntervalsAll bool

	// Scalars.
	Start model.Month
	// RiskLevel is alpha of the tail criterion, in [0, 1).
	RiskLevel     float64
	Missing       int
	Duplicates    int
	FailurePeriod model.Month
	// FailurePeriods lists the failures averaged over; nil means every
	// period but the first, for each periods value.
	FailurePeriods []model.Month
	// FailureWeights weighs the failures of the failure set
	// (failure_weights); a label it does not hold weighs 1. It holds no
	// weight of 1, and is nil when every failure weighs 1, as in the lesson.
	FailureWeights map[model.Month]int64

	// Cases, when not nil, are the grids whose union is the experiment's
	// grid (see Grids); the axes above are then the values a case takes
	// where it is silent.
	Cases []Grid
	// Exclude lists the entries that drop points from the grid.
	Exclude []Exclusion

	// Time is the time model of failures, nil without throughput.
	Time *Time

	// Origins says, for each key whose value did not come from the file,
	// where it came from: OriginDefault, the CKPTLAB_<KEY> variable's name,
	// or OriginSet. experiment.yaml and plan show it.
	Origins map[string]string
}

// Lesson returns the experiment of the lesson "State in Stream Engines" with
// the given name: the defaults of every key of an experiment file.
func Lesson(name string) Experiment {
	return Experiment{
		Version: 1,
		Name:    name,
		Axes: Axes{
			Seeds:         []uint32{20260218},
			Subscribers:   []int{200},
			Periods:       []int{12},
			PartitionKeys: []model.PartitionKey{model.BySubscriber},
			Workers:       []int{4},
			StateRows:     []int{subscriberState},
			Probabilities: []float64{1.0, 0.75, 0.5, 0.25},
			Intervals:     []model.Interval{model.None, 6, 4, 3, 2, 1},
		},
		Start:         model.NewMonth(2026, 1),
		RiskLevel:     0.95,
		FailurePeriod: model.NewMonth(2026, 9),
	}
}

// IntervalsFor returns the intervals the file's axes evaluate for a source
// of p periods; a case has its own (see Grid.IntervalsFor).
func (e *Experiment) IntervalsFor(p int) []model.Interval {
	g := e.fileGrid()
	return g.IntervalsFor(p)
}

// FailuresFor returns the failure set, as 0-based period indexes, for a
// source of p periods: the declared labels, or every period but the first.
func (e *Experiment) FailuresFor(p int) []int {
	if e.FailurePeriods == nil {
		out := make([]int, 0, p-1)
		for j := 1; j < p; j++ {
			out = append(out, j)
		}
		return out
	}
	out := make([]int, len(e.FailurePeriods))
	for i, m := range e.FailurePeriods {
		out[i] = int(m - e.Start)
	}
	return out
}

// FailureSetFor returns the failure set of a source of p periods with the
// weight of each failure: FailuresFor(p), weighed by FailureWeights. Its
// Weights are nil when every failure weighs 1.
func (e *Experiment) FailureSetFor(p int) model.FailureSet {
	fs := model.FailureSet{Periods: e.FailuresFor(p)}
	if e.FailureWeights == nil {
		return fs
	}
	fs.Weights = make([]int64, len(fs.Periods))
	for i, f := range fs.Periods {
		w, ok := e.FailureWeights[e.Start+model.Month(f)]
		if !ok {
			w = 1
		}
		fs.Weights[i] = w
	}
	return fs
}

// WeightsText writes the failure weights as the resolved experiment shows
// them, in YAML flow syntax, labels ascending: "{2026-06: 3, 2026-12: 0}".
func (e *Experiment) WeightsText() string { return weightsText(e.FailureWeights) }

// subscriberState stands in StateRows for the word subscribers: the state
// is one entry per subscriber (the lesson's PF50), so a checkpoint holds N
// rows for a source of N subscribers.
const subscriberState = -1

// StateRowsFor returns the state rows the file's axes give a source of n
// subscribers; a case has its own (see Grid.StateRowsFor).
func (e *Experiment) StateRowsFor(n int) []int {
	g := e.fileGrid()
	return g.StateRowsFor(n)
}

// stateRowsText writes one declared state_rows value: a number or the word
// subscribers, as the file writes it; the resolved configuration and the
// plan of a run show state_rows so.
func stateRowsText(v int) string {
	if v == subscriberState {
		return "subscribers"
	}
	return strconv.Itoa(v)
}

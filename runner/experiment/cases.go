package experiment

import (
	"slices"
	"strings"

	"ckptlab/internal/words"
	"ckptlab/model"
)

// Axes are the values of the axes of a grid, or those an exclude entry
// lists (a nil list leaves that axis free). Intervals lists the declared
// intervals; a Grid with IntervalsAll holds none.
type Axes struct {
	Seeds         []uint32
	Subscribers   []int
	Periods       []int
	PartitionKeys []model.PartitionKey
	Workers       []int
	StateRows     []int
	Probabilities []float64
	Intervals     []model.Interval
}

// set puts the axis values read from a case or an exclude entry into a,
// leaving the axes it does not name as they are, and reports whether the
// intervals are the word all.
func (a *Axes) set(values map[string]*parsed) (intervalsAll bool) {
	for key, v := range values {
		if ax := axisNamed(key); ax != nil && ax.ops.set(a, v) {
			intervalsAll = true
		}
	}
	return intervalsAll
}

// Grid is one cartesian grid of an experiment: the axes of one case of
// the file's cases, with the file's values where the case is silent. A file
// without cases is one grid, of the file's axes. The grid of an experiment
// is the union of its grids, in order, less the excluded points (docs/experiments.md#cases-and-exclusions).
type Grid struct {
	Axes
	// IntervalsAll, when set, gives every periods value P the intervals
	// none, 1..P; Intervals is then empty.
	IntervalsAll bool

	// Keys lists the axis keys the case sets, in the order written; nil
	// for the file's own grid.
	Keys []string
	// Line is the line of the case in the experiment file; 0 for the
	// file's own grid and for a case of an override.
	Line int
}

// Exclusion is one entry of exclude: a point is dropped when its value is
// listed for every axis the entry names. A nil list leaves that axis free.
type Exclusion struct {
	Axes

	// Keys lists the keys the entry names, as written (interval or
	// intervals), in the order written.
	Keys []string
	// Line is the line of the entry in the experiment file; 0 for an entry
	// of an override.
	Line int
}

// Point is one point of the grid: a row of grid.csv before its metrics.
type Point struct {
	Seed         uint32
	Subscribers  int
	Periods      int
	PartitionKey model.PartitionKey
	Workers      int
	StateRows    int
	Probability  float64
	Interval     model.Interval
}

// Grids returns the grids whose union is the experiment's grid, in table
// order: the cases, or the file's own grid when there are none.
func (e *Experiment) Grids() []Grid {
	if e.Cases != nil {
		return e.Cases
	}
	return []Grid{e.fileGrid()}
}

// fileGrid is the grid of the file's axes.
func (e *Experiment) fileGrid() Grid {
	return Grid{Axes: e.Axes, IntervalsAll: e.IntervalsAll}
}

// IntervalsFor returns the intervals the grid evaluates for a source of p
// periods.
func (g *Grid) IntervalsFor(p int) []model.Interval {
	if !g.IntervalsAll {
		return g.Intervals
	}
	out := make([]model.Interval, 0, p+1)
	out = append(out, model.None)
	for k := 1; k <= p; k++ {
		out = append(out, model.Interval(k))
	}
	return out
}

// StateRowsFor returns the state rows of a source of n subscribers, in
// declared order: the declared numbers, and n for the word subscribers.
func (g *Grid) StateRowsFor(n int) []int {
	out := make([]int, len(g.StateRows))
	for i, v := range g.StateRows {
		out[i] = v
		if v == subscriberState {
			out[i] = n
		}
	}
	return out
}

// IntervalCount is len(g.IntervalsFor(p)) without building the list: the
// sizes of a grid, and the memory bound of its evaluation, count intervals
// of sources of thousands of periods.
func (g *Grid) IntervalCount(p int) int64 {
	if g.IntervalsAll {
		return int64(p) + 1
	}
	return int64(len(g.Intervals))
}

// Matches reports whether the entry drops the point.
func (x *Exclusion) Matches(p Point) bool {
	for _, a := range gridAxes {
		if !a.ops.matches(x, &p) {
			return false
		}
	}
	return true
}

// listsStateRows reports whether the entry takes in the state rows of a
// point of a source of n subscribers: the number, or, for the word
// subscribers, n.
func (x *Exclusion) listsStateRows(v, n int) bool {
	return lists(x.StateRows, v) || v == n && slices.Contains(x.StateRows, subscriberState)
}

// lists reports whether an entry's values of one axis take in v: a nil
// list takes in every value.
func lists[T comparable](values []T, v T) bool {
	return values == nil || slices.Contains(values, v)
}

// Excluded reports whether an entry of exclude drops the point.
func (e *Experiment) Excluded(p Point) bool {
	for i := range e.Exclude {
		if e.Exclude[i].Matches(p) {
			return true
		}
	}
	return false
}

// axisText writes the grid's values of an axis key, each with format.
// intervals: all is the word all.
func (g *Grid) axisText(key string, join func(values []string) string, float func(float64) string) string {
	if a := axisNamed(key); a != nil {
		return a.ops.text(g, join, float)
	}
	return ""
}

// grid returns the entry's values as a grid, for axisText.
func (x *Exclusion) grid() Grid {
	return Grid{Axes: x.Axes}
}

// Describe writes the case as the file gives it: its keys, in the file's
// order, each with its values joined by join, probabilities written by
// float. The resolved configuration and the plan of a run show a case
// each in its own syntax.
func (g *Grid) Describe(join func([]string) string, float func(float64) string) string {
	return describe(g, g.Keys, func(k string) string { return k }, join, float)
}

// Describe writes the exclude entry as the file gives it: see
// Grid.Describe.
func (x *Exclusion) Describe(join func([]string) string, float func(float64) string) string {
	g := x.grid()
	return describe(&g, x.Keys, axisOf, join, float)
}

// joinWith formats values and joins them.
func joinWith[T any](values []T, format func(T) string, join func([]string) string) string {
	return join(words.Format(values, format))
}

// describe writes keys and their values as "k: v, k: v", the values
// joined by join. axis names the axis key of a written key.
func describe(g *Grid, keys []string, axis func(string) string, join func([]string) string, float func(float64) string) string {
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + ": " + g.axisText(axis(k), join, float)
	}
	return strings.Join(parts, ", ")
}

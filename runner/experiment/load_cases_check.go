package experiment

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"ckptlab/model"
)

// String writes the point as its columns and values: "seed 1,
// subscribers 200, …, interval none".
func (p Point) String() string {
	return p.decision() + ", interval " + p.Interval.String()
}

// decision writes the point's values but its interval: the decision it
// belongs to.
func (p Point) decision() string {
	return fmt.Sprintf("seed %d, subscribers %d, periods %d, partition_key %s, workers %d, state_rows %d, probability %s",
		p.Seed, p.Subscribers, p.Periods, p.PartitionKey, p.Workers, p.StateRows, ShortFloat(p.Probability))
}

// decisionRow writes the values of the row of decisions.csv the point
// belongs to, which does not depend on partitioning.
func (p Point) decisionRow() string {
	return fmt.Sprintf("seed %d, subscribers %d, periods %d, state_rows %d, probability %s",
		p.Seed, p.Subscribers, p.Periods, p.StateRows, ShortFloat(p.Probability))
}

// firstShared returns the first value of b that a holds too.
func firstShared[T comparable](a, b []T) (T, bool) {
	for _, v := range b {
		if slices.Contains(a, v) {
			return v, true
		}
	}
	var zero T
	return zero, false
}

// shared returns a point two grids share, or, when they share no point,
// a point of a decision both give different intervals: the decision's
// intervals would come from two cases, and best would compare only some of
// them. A decision, as decisions.csv has it, is a source, state rows and
// probability whatever the partitioning, so two cases of other partition
// keys or workers must give a source they share the same intervals.
// point says which of the two it is; ok is false when the grids are apart.
func shared(a, b *Grid) (p Point, point, ok bool) {
	var oks [3]bool
	p.Seed, oks[0] = firstShared(a.Seeds, b.Seeds)
	p.Probability, oks[1] = firstShared(a.Probabilities, b.Probabilities)
	// state rows compare as the tables show them: the word subscribers is
	// the source's subscribers
	for _, n := range b.Subscribers {
		if slices.Contains(a.Subscribers, n) {
			if p.StateRows, oks[2] = firstShared(a.StateRowsFor(n), b.StateRowsFor(n)); oks[2] {
				p.Subscribers = n
				break
			}
		}
	}
	if slices.Contains(oks[:], false) {
		return Point{}, false, false
	}
	var okKey, okWorkers bool
	p.PartitionKey, okKey = firstShared(a.PartitionKeys, b.PartitionKeys)
	p.Workers, okWorkers = firstShared(a.Workers, b.Workers)
	for _, periods := range b.Periods {
		if !slices.Contains(a.Periods, periods) {
			continue
		}
		ia, ib := a.IntervalsFor(periods), b.IntervalsFor(periods)
		if k, ok := firstShared(ia, ib); ok && okKey && okWorkers {
			p.Periods, p.Interval = periods, k
			return p, true, true
		}
		if !sameSet(ia, ib) {
			p.Periods = periods
			return p, false, true
		}
	}
	return Point{}, false, false
}

// sameSet reports whether a and b hold the same values.
func sameSet[T comparable](a, b []T) bool {
	for _, v := range a {
		if !slices.Contains(b, v) {
			return false
		}
	}
	for _, v := range b {
		if !slices.Contains(a, v) {
			return false
		}
	}
	return true
}

// checkCases reports every case that shares a point or a decision with
// an earlier one, naming the first such.
func checkCases(e *Experiment, items []*mapItem, pl place) ErrorList {
	var errs ErrorList
	for j := range e.Cases {
		for i := range j {
			p, point, ok := shared(&e.Cases[i], &e.Cases[j])
			if !ok {
				continue
			}
			other := "cases[" + strconv.Itoa(i) + "]"
			if pl.Lines {
				other += " (line " + strconv.Itoa(e.Cases[i].Line) + ")"
			}
			it := items[j]
			if point {
				errs = append(errs, pl.errorAt(it.node, it.suffix(),
					"shares the grid point %s with %s (want each point in one case)", p, other))
			} else {
				errs = append(errs, pl.errorAt(it.node, it.suffix(),
					"shares the decision %s with %s, which gives it other intervals (want the same intervals for a source, state rows and probability in every case, whatever the partitioning, so that best and decisions.csv compare them all)",
					p.decisionRow(), other))
			}
			break
		}
	}
	return errs
}

// checkExclude reports every exclude entry that matches no point of the
// grid, and an exclusion that leaves no point.
func checkExclude(e *Experiment, items []*mapItem, pl place, list *setting) ErrorList {
	var errs ErrorList
	grids := e.Grids()
	for i := range e.Exclude {
		one := *e
		one.Exclude = e.Exclude[i : i+1]
		var left, all int64
		for _, g := range grids {
			left = AddSat(left, one.GridSizes(&g).GridRows)
			all = AddSat(all, one.fullSizes(&g).GridRows)
		}
		if left < all {
			continue
		}
		it := items[i]
		errs = append(errs, pl.errorAt(it.node, it.suffix(), "matches no point of the grid: %s (want values the grid has)",
			whyNoMatch(&e.Exclude[i], grids)))
	}
	if len(errs) == 0 && e.GridRows() == 0 {
		errs = append(errs, list.Place.errorAt(list.Node, "", "drops every point of the grid (want at least one point left)"))
	}
	return errs
}

// whyNoMatch says why an entry matches no point: values of one key that
// no grid has, or values that no grid has together.
func whyNoMatch(x *Exclusion, grids []Grid) string {
	nowhere := func(has func(g *Grid) bool) bool {
		return !slices.ContainsFunc(grids, func(g Grid) bool { return has(&g) })
	}
	checks := []struct {
		key    string
		given  bool
		values func() string
		has    func(g *Grid) bool
	}{
		{"seed", x.Seeds != nil, func() string {
			return joinValues(x.Seeds, func(v uint32) string { return strconv.FormatUint(uint64(v), 10) })
		}, func(g *Grid) bool { return anyShared(g.Seeds, x.Seeds) }},
		{"subscribers", x.Subscribers != nil, func() string { return joinValues(x.Subscribers, strconv.Itoa) },
			func(g *Grid) bool { return anyShared(g.Subscribers, x.Subscribers) }},
		{"periods", x.Periods != nil, func() string { return joinValues(x.Periods, strconv.Itoa) },
			func(g *Grid) bool { return anyShared(g.Periods, x.Periods) }},
		{"partition_key", x.PartitionKeys != nil, func() string { return joinValues(x.PartitionKeys, model.PartitionKey.String) },
			func(g *Grid) bool { return anyShared(g.PartitionKeys, x.PartitionKeys) }},
		{"workers", x.Workers != nil, func() string { return joinValues(x.Workers, strconv.Itoa) },
			func(g *Grid) bool { return anyShared(g.Workers, x.Workers) }},
		{"state_rows", x.StateRows != nil, func() string { return joinValues(x.StateRows, StateRowsText) },
			func(g *Grid) bool { return anyShared(g.StateRows, x.StateRows) }},
		{"probability", x.Probabilities != nil, func() string { return joinValues(x.Probabilities, ShortFloat) },
			func(g *Grid) bool { return anyShared(g.Probabilities, x.Probabilities) }},
		{"interval", x.Intervals != nil, func() string { return joinValues(x.Intervals, model.Interval.String) },
			func(g *Grid) bool {
				return slices.ContainsFunc(g.Periods, func(p int) bool { return anyShared(g.IntervalsFor(p), x.Intervals) })
			}},
	}
	for _, c := range checks {
		if c.given && nowhere(c.has) {
			return "no grid has " + c.key + " " + c.values()
		}
	}
	return "no grid has its values together"
}

// anyShared reports whether a and b share a value.
func anyShared[T comparable](a, b []T) bool {
	_, ok := firstShared(a, b)
	return ok
}

// An axis of more than LongAxis values is long: messages show its first
// ShownOfLong values and an ellipsis, and the plan of a run the last one
// too. Exported so that the plan shortens an axis as the messages do.
const (
	LongAxis    = 8
	ShownOfLong = 3
)

// joinValues writes values as "a or b".
func joinValues[T any](values []T, format func(T) string) string {
	s := make([]string, len(values))
	for i, v := range values {
		s[i] = format(v)
	}
	if len(s) > LongAxis {
		s = append(s[:ShownOfLong], "…")
	}
	return strings.Join(s, " or ")
}

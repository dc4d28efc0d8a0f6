package experiment

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"ckptlab/internal/words"
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
		p.Seed, p.Subscribers, p.Periods, p.PartitionKey, p.Workers, p.StateRows, words.Float(p.Probability))
}

// decisionRow writes the values of the row of decisions.csv the point
// belongs to, which does not depend on partitioning.
func (p Point) decisionRow() string {
	return fmt.Sprintf("seed %d, subscribers %d, periods %d, state_rows %d, probability %s",
		p.Seed, p.Subscribers, p.Periods, p.StateRows, words.Float(p.Probability))
}

// setOf returns the values of a list as a set, for look-ups in lists of
// a million values.
func setOf[T comparable](a []T) map[T]bool {
	set := make(map[T]bool, len(a))
	for _, v := range a {
		set[v] = true
	}
	return set
}

// firstShared returns the first value of b that a holds too.
func firstShared[T comparable](a, b []T) (T, bool) {
	if len(a) > 0 && len(b) > 0 {
		inA := setOf(a)
		for _, v := range b {
			if inA[v] {
				return v, true
			}
		}
	}
	var zero T
	return zero, false
}

// sharedStateRows returns, for the first subscribers value n that a and b
// share at which they share a state rows value (the word subscribers
// standing for n), n and the first such value in b's order. It looks each
// value up once, not the state rows once per subscribers value: which of
// b's values a holds depends on n only through the word subscribers and
// the number n itself.
func sharedStateRows(a, b *Grid) (n, rows int, ok bool) {
	inA := setOf(a.StateRows)
	aPerN := inA[subscriberState]
	fixed, perN := -1, -1 // b's first number a holds; b's word subscribers
	at := make(map[int]int, len(b.StateRows))
	for i, v := range b.StateRows {
		if v == subscriberState {
			if perN < 0 {
				perN = i
			}
			continue
		}
		if _, seen := at[v]; !seen {
			at[v] = i
		}
		if fixed < 0 && inA[v] {
			fixed = i
		}
	}
	inASubs := setOf(a.Subscribers)
	for _, n := range b.Subscribers {
		if !inASubs[n] {
			continue
		}
		first := fixed
		if i, listed := at[n]; listed && aPerN && (first < 0 || i < first) {
			first = i // b lists the number n, a the word subscribers
		}
		if perN >= 0 && (inA[n] || aPerN) && (first < 0 || perN < first) {
			first = perN // b's word subscribers is n, which a holds
		}
		if first >= 0 {
			rows = b.StateRows[first]
			if rows == subscriberState {
				rows = n
			}
			return n, rows, true
		}
	}
	return 0, 0, false
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
	if n, rows, ok := sharedStateRows(a, b); ok {
		p.Subscribers, p.StateRows, oks[2] = n, rows, true
	}
	if slices.Contains(oks[:], false) {
		return Point{}, false, false
	}
	var okKey, okWorkers bool
	p.PartitionKey, okKey = firstShared(a.PartitionKeys, b.PartitionKeys)
	p.Workers, okWorkers = firstShared(a.Workers, b.Workers)
	inA := setOf(a.Periods)
	for _, periods := range b.Periods {
		if !inA[periods] {
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
	inA, inB := setOf(a), setOf(b)
	if len(inA) != len(inB) {
		return false
	}
	for v := range inB {
		if !inA[v] {
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
			by := shadowedBy(items[i], it)
			if point {
				errs = append(errs, pl.errorAt(it.node, it.suffix(),
					"shares the grid point %s with %s%s (want each point in one case)", p, other, by))
			} else {
				errs = append(errs, pl.errorAt(it.node, it.suffix(),
					"shares the decision %s with %s%s, which gives it other intervals (want the same intervals for a source, state rows and probability in every case, whatever the partitioning, so that best and decisions.csv compare them all)",
					p.decisionRow(), other, by))
			}
			break
		}
	}
	return errs
}

// shadowedBy says which overrides made two cases collide by replacing
// values they set (", once --set subscribers replaces the values the cases
// set, …"), or "" when no override replaced a value of either.
func shadowedBy(a, b *mapItem) string {
	var by []string
	for _, o := range append(slices.Clone(a.shadowed), b.shadowed...) {
		if !slices.Contains(by, o) {
			by = append(by, o)
		}
	}
	if len(by) == 0 {
		return ""
	}
	return ", once " + words.And(by) + " " + words.Plural(len(by), "replaces", "replace") +
		" the values the cases set, as the command line does in every case"
}

// checkExclude reports every exclude entry that matches no point of the
// grid, and an exclusion that leaves no point.
func checkExclude(e *Experiment, items []*mapItem, pl place, list *setting) ErrorList {
	var errs ErrorList
	grids := e.Grids()
	ix := e.Excluder()
	var dropping uint64
	for i := range grids {
		dropping |= ix.dropping(&grids[i])
	}
	for i := range e.Exclude {
		if dropping&(1<<i) != 0 {
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
	for _, a := range gridAxes {
		if a.ops.given(&x.Axes) && nowhere(func(g *Grid) bool { return a.ops.shares(g, x) }) {
			g := x.grid()
			return "no grid has " + a.Column + " " + a.ops.text(&g, shortOr, words.Float)
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

// shortOr joins values as "a or b", a long axis shortened.
func shortOr(s []string) string {
	if len(s) > LongAxis {
		s = append(s[:ShownOfLong], "…")
	}
	return strings.Join(s, " or ")
}

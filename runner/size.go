package runner

import (
	"slices"

	"ckptlab/model"
)

// Sizes are the counts of one grid, or of a whole experiment, after the
// exclusions: the sources drawn, and the rows of grid.csv and failures.csv.
// Counts saturate at math.MaxInt64 instead of overflowing.
type Sizes struct {
	Sources, GridRows, FailureRows int64
}

func (s *Sizes) add(o Sizes) {
	s.Sources = addSat(s.Sources, o.Sources)
	s.GridRows = addSat(s.GridRows, o.GridRows)
	s.FailureRows = addSat(s.FailureRows, o.FailureRows)
}

// Sizes returns the experiment's counts: the sum over its grids. A source
// of several cases counts once per case, as each case draws its own; a
// source whose every point is excluded is not drawn and does not count.
func (e *Experiment) Sizes() Sizes {
	var total Sizes
	for _, g := range e.Grids() {
		total.add(e.GridSizes(&g))
	}
	return total
}

// Sources returns the number of sources drawn: see Sizes.
func (e *Experiment) Sources() int64 { return e.Sizes().Sources }

// GridRows returns the number of rows of grid.csv: the points of every
// grid that no exclusion drops.
func (e *Experiment) GridRows() int64 { return e.Sizes().GridRows }

// FailureRows returns the number of rows of failures.csv: for every
// (source, partition_key, workers, interval) of a grid with a point left,
// one row per failure of the failure set.
func (e *Experiment) FailureRows() int64 { return e.Sizes().FailureRows }

// failureCount is the size of the failure set of a source of p periods.
func (e *Experiment) failureCount(p int) int64 {
	if e.FailurePeriods == nil {
		return int64(p - 1)
	}
	return int64(len(e.FailurePeriods))
}

// GridSizes returns the counts of one grid of the experiment, after the
// exclusions. It counts without enumerating the points: the values of each
// axis fall into classes by the set of exclude entries that take them in
// (a bit mask), and a point is dropped when the masks of its values share
// a bit. Counting over classes costs the length of the axes plus the
// product of the numbers of classes, which stays small.
func (e *Experiment) GridSizes(g *Grid) Sizes {
	if len(e.Exclude) == 0 {
		return e.fullSizes(g)
	}
	x := e.Exclude
	sp := combine(axisClasses(g.StateRows, x, func(x *Exclusion) []int { return x.StateRows }),
		axisClasses(g.Probabilities, x, func(x *Exclusion) []float64 { return x.Probabilities }))
	kept := map[uint64]int64{} // combination mask → (state_rows, probability) pairs left
	keptOf := func(m uint64) int64 {
		if n, ok := kept[m]; ok {
			return n
		}
		var n int64
		for ms, c := range sp {
			if m&ms == 0 {
				n = addSat(n, c)
			}
		}
		kept[m] = n
		return n
	}
	src := combine(combine(classes{fullMask(len(x)): 1},
		axisClasses(g.Seeds, x, func(x *Exclusion) []uint32 { return x.Seeds })),
		axisClasses(g.Subscribers, x, func(x *Exclusion) []int { return x.Subscribers }))
	pw := combine(axisClasses(g.PartitionKeys, x, func(x *Exclusion) []model.PartitionKey { return x.PartitionKeys }),
		axisClasses(g.Workers, x, func(x *Exclusion) []int { return x.Workers }))
	var out Sizes
	for _, p := range g.Periods {
		perP := combine(src, axisClasses([]int{p}, x, func(x *Exclusion) []int { return x.Periods }))
		iv := axisClasses(g.IntervalsFor(p), x, func(x *Exclusion) []model.Interval { return x.Intervals })
		failures := e.failureCount(p)
		for ms, n := range perP {
			var rows, fails int64
			for mc, c := range combine(combine(classes{ms: 1}, pw), iv) {
				if k := keptOf(mc); k > 0 {
					rows = addSat(rows, mulSat(c, k))
					fails = addSat(fails, mulSat(c, failures))
				}
			}
			out.GridRows = addSat(out.GridRows, mulSat(n, rows))
			out.FailureRows = addSat(out.FailureRows, mulSat(n, fails))
			if rows > 0 {
				out.Sources = addSat(out.Sources, n)
			}
		}
	}
	return out
}

// fullSizes is GridSizes without exclusions: products of axis lengths.
func (e *Experiment) fullSizes(g *Grid) Sizes {
	sources := mulSat(int64(len(g.Seeds)), int64(len(g.Subscribers)))
	parts := mulSat(int64(len(g.PartitionKeys)), int64(len(g.Workers)))
	points := mulSat(int64(len(g.StateRows)), int64(len(g.Probabilities)))
	var out Sizes
	for _, p := range g.Periods {
		combos := mulSat(sources, parts, g.intervalCount(p))
		out.Sources = addSat(out.Sources, sources)
		out.GridRows = addSat(out.GridRows, mulSat(combos, points))
		out.FailureRows = addSat(out.FailureRows, mulSat(combos, e.failureCount(p)))
	}
	return out
}

// classes counts values, or combinations of values, by their mask: bit i
// is set when exclude entry i takes in every value of the combination.
type classes map[uint64]int64

// fullMask has a bit for each of n entries (n <= 64).
func fullMask(n int) uint64 {
	if n >= 64 {
		return ^uint64(0)
	}
	return 1<<n - 1
}

// axisClasses sorts the values of one axis into classes. pick returns an
// entry's values of the axis, nil when the entry leaves the axis free.
func axisClasses[T comparable](values []T, x []Exclusion, pick func(*Exclusion) []T) classes {
	out := classes{}
	for _, v := range values {
		var m uint64
		for i := range x {
			if vs := pick(&x[i]); vs == nil || slices.Contains(vs, v) {
				m |= 1 << i
			}
		}
		out[m]++
	}
	return out
}

// combine returns the classes of the combinations of a value of a and one
// of b. Sums of non-negative counts saturate to the same figure in any
// order, so the random order of map iteration does not show.
func combine(a, b classes) classes {
	out := make(classes, len(a)*len(b))
	for ma, ca := range a {
		for mb, cb := range b {
			out[ma&mb] = addSat(out[ma&mb], mulSat(ca, cb))
		}
	}
	return out
}

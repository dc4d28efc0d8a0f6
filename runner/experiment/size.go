package experiment

import (
	"math"
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
	s.Sources = AddSat(s.Sources, o.Sources)
	s.GridRows = AddSat(s.GridRows, o.GridRows)
	s.FailureRows = AddSat(s.FailureRows, o.FailureRows)
}

// Sizes returns the experiment's counts: the sum over its grids, but for
// sources, which are drawn once however many cases share them. A source
// whose every point is excluded is not drawn and does not count.
func (e *Experiment) Sizes() Sizes {
	total := e.sum()
	if len(e.Cases) > 1 && total.Sources > 1 {
		srcs, _ := drawn(e.gridSources())
		total.Sources = int64(len(srcs))
	}
	return total
}

// sum returns the sum of the sizes of the grids.
func (e *Experiment) sum() Sizes {
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
func (e *Experiment) GridRows() int64 { return e.sum().GridRows }

// FailureRows returns the number of rows of failures.csv: for every
// (source, partition_key, workers, interval) of a grid with a point left,
// one row per failure of the failure set.
func (e *Experiment) FailureRows() int64 { return e.sum().FailureRows }

// FailureCount is the size of the failure set of a source of p periods,
// len(e.FailuresFor(p)) without building the list: the rows of
// failures.csv, and the memory bound of an evaluation, count with it.
func (e *Experiment) FailureCount(p int) int64 {
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
	z := newSizer(e, g)
	x := e.Exclude
	seeds := combine(classes{fullMask(len(x)): 1}, axisClasses(g.Seeds, x, func(x *Exclusion) []uint32 { return x.Seeds }))
	subscribers := axisClasses(g.Subscribers, x, func(x *Exclusion) []int { return x.Subscribers })
	var out Sizes
	count := func(src classes, n int) {
		for _, p := range g.Periods {
			for ms, c := range combine(src, classes{z.periodMask(p): 1}) {
				rows, fails := z.source(ms, p, n)
				out.GridRows = AddSat(out.GridRows, MulSat(c, rows))
				out.FailureRows = AddSat(out.FailureRows, MulSat(c, fails))
				if rows > 0 {
					out.Sources = AddSat(out.Sources, c)
				}
			}
		}
	}
	if !z.perN {
		count(combine(seeds, subscribers), 0)
		return out
	}
	for _, n := range g.Subscribers { // state rows depend on n
		count(combine(seeds, classes{maskOf(n, x, func(x *Exclusion) []int { return x.Subscribers }): 1}), n)
	}
	return out
}

// sizer counts the points of the sources of one grid left by the
// exclusions, remembering what it counted.
type sizer struct {
	e    *Experiment
	g    *Grid
	perN bool    // whether the state rows, or an entry's, hold the word subscribers
	pw   classes // (partition_key, workers) pairs
	sp   map[int]classes
	kept map[sourceKey]int64 // combination mask and n → (state_rows, probability) pairs left
	iv   map[int]classes     // periods → intervals
	done map[sourceKey][2]int64
}

// sourceKey is a class of sources, or of combinations of a source's
// values: their mask, and the source's periods and subscribers when they
// matter.
type sourceKey struct {
	mask           uint64
	periods, subsc int
}

func newSizer(e *Experiment, g *Grid) *sizer {
	x := e.Exclude
	perN := slices.Contains(g.StateRows, SubscriberState)
	for i := range x {
		perN = perN || slices.Contains(x[i].StateRows, SubscriberState)
	}
	return &sizer{e: e, g: g, perN: perN,
		pw: combine(axisClasses(g.PartitionKeys, x, func(x *Exclusion) []model.PartitionKey { return x.PartitionKeys }),
			axisClasses(g.Workers, x, func(x *Exclusion) []int { return x.Workers })),
		sp: map[int]classes{}, kept: map[sourceKey]int64{}, iv: map[int]classes{}, done: map[sourceKey][2]int64{},
	}
}

// periodMask is the mask of a periods value.
func (z *sizer) periodMask(p int) uint64 {
	return maskOf(p, z.e.Exclude, func(x *Exclusion) []int { return x.Periods })
}

// source returns the grid rows and failures rows of a source of p
// periods and n subscribers (0 unless perN) whose seed, subscribers and
// periods values have mask m.
func (z *sizer) source(m uint64, p, n int) (rows, fails int64) {
	key := sourceKey{m, p, n}
	if r, ok := z.done[key]; ok {
		return r[0], r[1]
	}
	iv, ok := z.iv[p]
	if !ok {
		iv = axisClasses(z.g.IntervalsFor(p), z.e.Exclude, func(x *Exclusion) []model.Interval { return x.Intervals })
		z.iv[p] = iv
	}
	failures := z.e.FailureCount(p)
	for mc, c := range combine(combine(classes{m: 1}, z.pw), iv) {
		if k := z.keptOf(mc, n); k > 0 {
			rows = AddSat(rows, MulSat(c, k))
			fails = AddSat(fails, MulSat(c, failures))
		}
	}
	z.done[key] = [2]int64{rows, fails}
	return rows, fails
}

// keptOf returns the (state_rows, probability) pairs left for a
// combination of mask m of a source of n subscribers.
func (z *sizer) keptOf(m uint64, n int) int64 {
	key := sourceKey{mask: m, subsc: n}
	if c, ok := z.kept[key]; ok {
		return c
	}
	sp, ok := z.sp[n]
	if !ok {
		x := z.e.Exclude
		states := classes{}
		for _, v := range z.g.StateRowsFor(n) {
			states[stateRowsMask(v, n, x)]++
		}
		sp = combine(states, axisClasses(z.g.Probabilities, x, func(x *Exclusion) []float64 { return x.Probabilities }))
		z.sp[n] = sp
	}
	var c int64
	for ms, k := range sp {
		if m&ms == 0 {
			c = AddSat(c, k)
		}
	}
	z.kept[key] = c
	return c
}

// sourceLeft returns a function reporting whether a source of the grid
// has a point left: the one GridSizes counts in Sources.
func (e *Experiment) sourceLeft(g *Grid) func(seed uint32, n, p int) bool {
	if len(e.Exclude) == 0 {
		return func(uint32, int, int) bool { return true }
	}
	z := newSizer(e, g)
	x := e.Exclude
	return func(seed uint32, n, p int) bool {
		m := maskOf(seed, x, func(x *Exclusion) []uint32 { return x.Seeds }) &
			maskOf(n, x, func(x *Exclusion) []int { return x.Subscribers }) & z.periodMask(p)
		if !z.perN {
			n = 0
		}
		rows, _ := z.source(m, p, n)
		return rows > 0
	}
}

// fullSizes is GridSizes without exclusions: products of axis lengths.
func (e *Experiment) fullSizes(g *Grid) Sizes {
	sources := MulSat(int64(len(g.Seeds)), int64(len(g.Subscribers)))
	parts := MulSat(int64(len(g.PartitionKeys)), int64(len(g.Workers)))
	points := MulSat(int64(len(g.StateRows)), int64(len(g.Probabilities)))
	var out Sizes
	for _, p := range g.Periods {
		combos := MulSat(sources, parts, g.IntervalCount(p))
		out.Sources = AddSat(out.Sources, sources)
		out.GridRows = AddSat(out.GridRows, MulSat(combos, points))
		out.FailureRows = AddSat(out.FailureRows, MulSat(combos, e.FailureCount(p)))
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
		out[maskOf(v, x, pick)]++
	}
	return out
}

// stateRowsMask is the mask of the state rows v of a source of n
// subscribers: the entries that list v, or the word subscribers when v is n.
func stateRowsMask(v, n int, x []Exclusion) uint64 {
	var m uint64
	for i := range x {
		if x[i].StateRows == nil || x[i].listsStateRows(v, n) {
			m |= 1 << i
		}
	}
	return m
}

// maskOf is the mask of one value of an axis: the entries that take it in.
func maskOf[T comparable](v T, x []Exclusion, pick func(*Exclusion) []T) uint64 {
	var m uint64
	for i := range x {
		if vs := pick(&x[i]); vs == nil || slices.Contains(vs, v) {
			m |= 1 << i
		}
	}
	return m
}

// combine returns the classes of the combinations of a value of a and one
// of b. Sums of non-negative counts saturate to the same figure in any
// order, so the random order of map iteration does not show.
func combine(a, b classes) classes {
	out := make(classes, len(a)*len(b))
	for ma, ca := range a {
		for mb, cb := range b {
			out[ma&mb] = AddSat(out[ma&mb], MulSat(ca, cb))
		}
	}
	return out
}

// MulSat multiplies counts, saturating at math.MaxInt64. Sizes saturate
// instead of overflowing; the memory estimates of evaluation, made from
// them, saturate alike with it.
func MulSat(factors ...int64) int64 {
	out := int64(1)
	for _, f := range factors {
		if f == 0 {
			return 0
		}
		if out > math.MaxInt64/f {
			out = math.MaxInt64
		} else {
			out *= f
		}
	}
	return out
}

// AddSat adds counts, saturating at math.MaxInt64: see MulSat.
func AddSat(a, b int64) int64 {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}

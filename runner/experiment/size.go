package experiment

import (
	"ckptlab/internal/satmath"
	"slices"
)

// Sizes are the counts of one grid, or of a whole experiment, after the
// exclusions: the sources drawn, and the rows of grid.csv and failures.csv.
// Counts saturate at math.MaxInt64 instead of overflowing.
type Sizes struct {
	Sources, GridRows, FailureRows int64
}

func (s *Sizes) add(o Sizes) {
	s.Sources = satmath.Add(s.Sources, o.Sources)
	s.GridRows = satmath.Add(s.GridRows, o.GridRows)
	s.FailureRows = satmath.Add(s.FailureRows, o.FailureRows)
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
	ix := e.Excluder()
	for _, g := range e.Grids() {
		for _, s := range e.gridSizes(&g, ix) {
			total.add(s)
		}
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
	var out Sizes
	for _, s := range e.gridSizes(g, e.Excluder()) {
		out.add(s)
	}
	return out
}

// PeriodSizes returns the counts of one grid of the experiment, after
// the exclusions, for each of its periods values: GridSizes of the grid
// with that periods value alone, for all of them at once.
func (e *Experiment) PeriodSizes(g *Grid) []Sizes {
	return e.gridSizes(g, e.Excluder())
}

// gridSizes is PeriodSizes with the index of the exclude entries.
func (e *Experiment) gridSizes(g *Grid, ix *Excluder) []Sizes {
	out := make([]Sizes, len(g.Periods))
	if len(e.Exclude) == 0 {
		for i, p := range g.Periods {
			out[i] = e.fullSizes(g, p)
		}
		return out
	}
	z := newSizer(e, g, ix)
	seeds := ix.freeClasses(g, SourceLevel)
	subscribers := ix.subscribers.classes(g)
	count := func(src classes, n int) {
		for i, p := range g.Periods {
			for ms, c := range combine(src, classes{z.periodMask(p): 1}) {
				rows, fails := z.source(ms, p, n)
				out[i].GridRows = satmath.Add(out[i].GridRows, satmath.Mul(c, rows))
				out[i].FailureRows = satmath.Add(out[i].FailureRows, satmath.Mul(c, fails))
				if rows > 0 {
					out[i].Sources = satmath.Add(out[i].Sources, c)
				}
			}
		}
	}
	if !z.perN {
		count(combine(seeds, subscribers), 0)
		return out
	}
	for _, n := range g.Subscribers { // state rows depend on n
		count(combine(seeds, classes{ix.subscribers.masks.of(n): 1}), n)
	}
	return out
}

// sizer counts the points of the sources of one grid left by the
// exclusions, remembering what it counted.
type sizer struct {
	e    *Experiment
	g    *Grid
	ix   *Excluder
	perN bool    // whether the state rows, or an entry's, hold the word subscribers
	pw   classes // (partition_key, workers) pairs
	sp   map[int]classes
	// states are the classes of the grid's state rows numbers, the word
	// subscribers left out, and probs of its probabilities, each made
	// once; listed says which numbers the grid's state rows hold.
	states, probs classes
	listed        map[int]bool
	word          bool                // the grid's state rows hold the word subscribers
	kept          map[sourceKey]int64 // combination mask and n → (state_rows, probability) pairs left
	iv            map[int]classes     // periods → intervals
	done          map[sourceKey][2]int64
}

// sourceKey is a class of sources, or of combinations of a source's
// values: their mask, and the source's periods and subscribers when they
// matter.
type sourceKey struct {
	mask           uint64
	periods, subsc int
}

func newSizer(e *Experiment, g *Grid, ix *Excluder) *sizer {
	perN := ix.stateRows.perN != 0 || slices.Contains(g.StateRows, subscriberState)
	return &sizer{e: e, g: g, ix: ix, perN: perN,
		pw: ix.freeClasses(g, PartLevel),
		sp: map[int]classes{}, kept: map[sourceKey]int64{}, iv: map[int]classes{}, done: map[sourceKey][2]int64{},
	}
}

// periodMask is the mask of a periods value.
func (z *sizer) periodMask(p int) uint64 {
	return z.ix.periods.masks.of(p)
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
		iv = axisClasses(z.g.IntervalsFor(p), &z.ix.intervals.masks)
		z.iv[p] = iv
	}
	failures := z.e.FailureCount(p)
	for mc, c := range combine(combine(classes{m: 1}, z.pw), iv) {
		if k := z.keptOf(mc, n); k > 0 {
			rows = satmath.Add(rows, satmath.Mul(c, k))
			fails = satmath.Add(fails, satmath.Mul(c, failures))
		}
	}
	z.done[key] = [2]int64{rows, fails}
	return rows, fails
}

// statesOf returns the classes of the state rows of a source of n
// subscribers: those of the numbers, which do not depend on n but for the
// number n itself, and n for the word subscribers. Each n costs the
// classes, not the state rows.
func (z *sizer) statesOf(n int) classes {
	if z.states == nil {
		z.states, z.listed = classes{}, map[int]bool{}
		for _, v := range z.g.StateRows {
			if v != subscriberState {
				z.states[z.ix.stateRows.masks.of(v)]++
				if z.ix.stateRows.perN != 0 { // only then does listing n matter
					z.listed[v] = true
				}
			} else {
				z.word = true
			}
		}
		z.probs = z.ix.freeClasses(z.g, DecisionLevel)
	}
	out := make(classes, len(z.states)+2)
	for m, c := range z.states {
		out[m] = c
	}
	perN := z.ix.stateRows.perN
	of := z.ix.stateRows.masks.of(n)
	if z.listed[n] && perN != 0 { // the number n is n's state rows too
		if out[of]--; out[of] == 0 {
			delete(out, of)
		}
		out[of|perN]++
	}
	if z.word {
		out[of|perN]++
	}
	return out
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
		sp = combine(z.statesOf(n), z.probs)
		z.sp[n] = sp
	}
	var c int64
	for ms, k := range sp {
		if m&ms == 0 {
			c = satmath.Add(c, k)
		}
	}
	z.kept[key] = c
	return c
}

// sourceLeft returns a function reporting whether a source of the grid
// has a point left: the one GridSizes counts in Sources.
func (e *Experiment) sourceLeft(g *Grid, ix *Excluder) func(seed uint32, n, p int) bool {
	if len(e.Exclude) == 0 {
		return func(uint32, int, int) bool { return true }
	}
	z := newSizer(e, g, ix)
	return func(seed uint32, n, p int) bool {
		m := ix.mask(&Point{Seed: seed, Subscribers: n, Periods: p}, SourceLevel)
		if !z.perN {
			n = 0
		}
		rows, _ := z.source(m, p, n)
		return rows > 0
	}
}

// fullSizes is the Sizes of the grid's sources of p periods without
// exclusions: products of axis lengths.
func (e *Experiment) fullSizes(g *Grid, p int) Sizes {
	sources := g.product(p, SourceLevel)
	combos := g.product(p, SourceLevel, PartLevel, IntervalLevel)
	points := g.product(p, StateLevel, DecisionLevel)
	return Sizes{Sources: sources, GridRows: satmath.Mul(combos, points), FailureRows: satmath.Mul(combos, e.FailureCount(p))}
}

// classes counts values, or combinations of values, by their mask: bit i
// is set when exclude entry i takes in every value of the combination.
type classes map[uint64]int64

// axisClasses sorts the values of one axis into classes by their masks.
func axisClasses[T comparable](values []T, m *axisMasks[T]) classes {
	out := classes{}
	for _, v := range values {
		out[m.of(v)]++
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
			out[ma&mb] = satmath.Add(out[ma&mb], satmath.Mul(ca, cb))
		}
	}
	return out
}

package experiment

import (
	"slices"

	"ckptlab/model"
)

// axisMasks maps the values of one axis to the exclude entries that take
// them in, as a bit mask (bit i for entry i): the entries that leave the
// axis free, and for each listed value the entries that list it. Built
// once from the entries' lists, it answers for a value in one map look-up,
// so matching every value of an axis of a million values against 64
// entries of thousands of values each costs the values, not their product.
type axisMasks[T comparable] struct {
	free   uint64
	listed map[T]uint64
}

// newAxisMasks indexes the entries' values of one axis. pick returns an
// entry's values of the axis, nil when the entry leaves the axis free.
func newAxisMasks[T comparable](x []Exclusion, pick func(*Exclusion) []T) axisMasks[T] {
	var m axisMasks[T]
	n := 0
	for i := range x {
		n += len(pick(&x[i]))
	}
	m.listed = make(map[T]uint64, n)
	for i := range x {
		vs := pick(&x[i])
		if vs == nil {
			m.free |= 1 << i
			continue
		}
		for _, v := range vs {
			m.listed[v] |= 1 << i
		}
	}
	return m
}

// of is the mask of value v: the entries that take it in.
func (m *axisMasks[T]) of(v T) uint64 { return m.free | m.listed[v] }

// Excluder answers which exclude entries take in a value of each axis, for
// the experiment's entries as they were when it was made: see
// Experiment.Excluder.
type Excluder struct {
	none bool
	// axes index every grid axis, in table order; the others name the
	// axes whose values depend on another's.
	axes        []axisIndex
	point       []axisIndex // the axes of a point but its interval
	subscribers *listIndex[int]
	periods     *listIndex[int]
	stateRows   *stateRowsIndex
	intervals   *listIndex[model.Interval]
}

// Excluder indexes the experiment's exclude entries, for the questions
// asked of every point or every value of an axis (IntervalsLeft, the
// sizes of a grid): in time that grows with the entries' values once, and
// then with one look-up per value.
func (e *Experiment) Excluder() *Excluder {
	x := e.Exclude
	if len(x) == 0 {
		return &Excluder{none: true}
	}
	z := &Excluder{axes: make([]axisIndex, len(gridAxes))}
	for i, a := range gridAxes {
		z.axes[i] = a.ops.index(x)
		if a.Level != IntervalLevel {
			z.point = append(z.point, z.axes[i])
		}
	}
	z.subscribers = z.axis("subscribers").(*listIndex[int])
	z.periods = z.axis("periods").(*listIndex[int])
	z.stateRows = z.axis("state_rows").(*stateRowsIndex)
	z.intervals = z.axis("intervals").(*listIndex[model.Interval])
	return z
}

// axis returns the index of the axis of a key.
func (z *Excluder) axis(key string) axisIndex {
	return z.axes[slices.IndexFunc(gridAxes, func(a Axis) bool { return a.Key == key })]
}

// mask is the mask of the entries that take in the point's value on every
// axis at the given levels.
func (z *Excluder) mask(p *Point, levels ...Level) uint64 {
	m := ^uint64(0)
	for i, a := range gridAxes {
		if slices.Contains(levels, a.Level) {
			m &= z.axes[i].of(p)
		}
	}
	return m
}

// freeClasses are the classes of the combinations of the values of the
// grid's free axes at a level.
func (z *Excluder) freeClasses(g *Grid, level Level) classes {
	out := classes{^uint64(0): 1}
	for i, a := range gridAxes {
		if a.Free && a.Level == level {
			out = combine(out, z.axes[i].classes(g))
		}
	}
	return out
}

// stateRowsIndex is the index of state_rows: perN holds the entries whose
// state rows hold the word subscribers.
type stateRowsIndex struct {
	listIndex[int]
	perN uint64
}

func (s *stateRowsAxis) index(x []Exclusion) axisIndex {
	z := &stateRowsIndex{listIndex: listIndex[int]{&s.listAxis, newAxisMasks(x, func(x *Exclusion) []int { return x.StateRows })}}
	for i := range x {
		if x[i].StateRows != nil && z.masks.listed[subscriberState]&(1<<i) != 0 {
			z.perN |= 1 << i
		}
	}
	return z
}

func (z *stateRowsIndex) of(p *Point) uint64 { return z.stateRowsMask(p.StateRows, p.Subscribers) }

// stateRowsMask is the mask of the state rows v of a source of n
// subscribers: the entries that list v, or the word subscribers when v is n.
func (z *stateRowsIndex) stateRowsMask(v, n int) uint64 {
	m := z.masks.of(v)
	if v == n {
		m |= z.perN
	}
	return m
}

// IntervalsLeft sets dst[i] to whether the point p at the interval
// intervals[i] is left in the grid, no exclude entry dropping it, and
// returns dst, grown to the number of intervals as needed; p.Interval is
// not read. It answers for every interval of a point at once, as
// evaluation asks of every point it writes: a bit per entry that takes in
// every value but the interval, then the interval's.
func (z *Excluder) IntervalsLeft(dst []bool, p *Point, intervals []model.Interval) []bool {
	dst = dst[:0]
	var m uint64
	if !z.none {
		m = ^uint64(0)
		for _, a := range z.point {
			m &= a.of(p)
		}
	}
	for _, k := range intervals {
		dst = append(dst, m == 0 || m&z.intervals.masks.of(k) == 0)
	}
	return dst
}

// dropping returns the mask of the entries that drop a point of the grid:
// for each, a value it takes in on every axis, intervals taken with the
// periods that have them and state rows with the subscribers that give
// the word subscribers its number. It looks at each value once.
func (z *Excluder) dropping(g *Grid) uint64 {
	m := ^uint64(0)
	for i, a := range gridAxes {
		if a.Free {
			m &= z.axes[i].union(g)
		}
	}
	if g.IntervalsAll { // the intervals of p periods are none, 1..p
		upTo := make([]uint64, slices.Max(g.Periods)+1)
		upTo[0] = z.intervals.masks.of(model.None)
		for k := 1; k < len(upTo); k++ {
			upTo[k] = upTo[k-1] | z.intervals.masks.of(model.Interval(k))
		}
		var pm uint64
		for _, p := range g.Periods {
			pm |= z.periods.masks.of(p) & upTo[p]
		}
		m &= pm
	} else {
		m &= z.periods.union(g) & z.intervals.union(g)
	}
	var numbers uint64
	listed := make(map[int]bool, len(g.StateRows))
	word := false
	for _, v := range g.StateRows {
		if v == subscriberState {
			word = true
			continue
		}
		numbers |= z.stateRows.masks.of(v)
		listed[v] = true
	}
	var sm uint64
	for _, n := range g.Subscribers {
		s := numbers
		if word || listed[n] {
			s |= z.stateRows.stateRowsMask(n, n)
		}
		sm |= z.subscribers.masks.of(n) & s
	}
	return m & sm
}

// orOf returns the union of the masks of the values: the entries that
// take in one of them.
func orOf[T comparable](values []T, m *axisMasks[T]) uint64 {
	var out uint64
	for _, v := range values {
		out |= m.of(v)
	}
	return out
}

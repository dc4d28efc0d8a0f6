package experiment

import (
	"slices"
	"strconv"

	"ckptlab/internal/satmath"
	"ckptlab/internal/words"
	"ckptlab/model"
)

// Level is where an axis nests in the result tables. Rows nest the levels
// in this order, each level's axes in the order of the axis table.
type Level int

const (
	SourceLevel   Level = iota // the source drawn: seeds, subscribers, periods
	PartLevel                  // how the stream is split: partition_key, workers
	StateLevel                 // the state a checkpoint holds: an envelope of breakeven.csv
	DecisionLevel              // the failure probability: a row of decisions.csv
	IntervalLevel              // the interval chosen: a row of grid.csv
	ProcessLevel               // the time model's failure process (SPEC 15)
)

// An Axis is one axis of an experiment, declared once in the axis table.
type Axis struct {
	Key    string // the key of the experiment file
	Column string // the column of the result tables
	Level  Level
	// Free says that no other axis's values depend on this one's, nor its
	// on another's: the sizes count it as a plain factor.
	Free bool
	ops  axisOps // nil for the time model's axes, which cases and exclude do not take
	// process is the time model's side of an axis of ProcessLevel.
	process *processAxis
}

// processAxis reads an axis of the time model's failure process: its
// values in a Time, and its place in a Group.
type processAxis struct {
	values func(t *Time) []float64
	field  func(g *Group) *float64
}

// axisTable lists every axis, in the order of the columns of the result
// tables. Cases, exclude entries, Describe, the excluder, the sizes and the
// tables' key columns take their axes from it.
var axisTable = []Axis{
	{Key: "seeds", Column: "seed", Level: SourceLevel, Free: true, ops: &listAxis[uint32]{
		field: func(a *Axes) *[]uint32 { return &a.Seeds }, value: func(p *Point) uint32 { return p.Seed },
		format: func(v uint32) string { return strconv.FormatUint(uint64(v), 10) }, parse: ints[uint32]}},
	{Key: "subscribers", Column: "subscribers", Level: SourceLevel, ops: &listAxis[int]{
		field: func(a *Axes) *[]int { return &a.Subscribers }, value: func(p *Point) int { return p.Subscribers },
		format: strconv.Itoa, parse: ints[int]}},
	{Key: "periods", Column: "periods", Level: SourceLevel, ops: &listAxis[int]{
		field: func(a *Axes) *[]int { return &a.Periods }, value: func(p *Point) int { return p.Periods },
		format: strconv.Itoa, parse: ints[int]}},
	{Key: "partition_key", Column: "partition_key", Level: PartLevel, Free: true, ops: &listAxis[model.PartitionKey]{
		field: func(a *Axes) *[]model.PartitionKey { return &a.PartitionKeys }, value: func(p *Point) model.PartitionKey { return p.PartitionKey },
		format: model.PartitionKey.String, parse: func(v *parsed) []model.PartitionKey { return partitionKeys(v.Words) }}},
	{Key: "workers", Column: "workers", Level: PartLevel, Free: true, ops: &listAxis[int]{
		field: func(a *Axes) *[]int { return &a.Workers }, value: func(p *Point) int { return p.Workers },
		format: strconv.Itoa, parse: ints[int]}},
	{Key: "state_rows", Column: "state_rows", Level: StateLevel, ops: &stateRowsAxis{listAxis[int]{
		field: func(a *Axes) *[]int { return &a.StateRows }, value: func(p *Point) int { return p.StateRows },
		format: stateRowsText, parse: ints[int]}}},
	{Key: "probabilities", Column: "probability", Level: DecisionLevel, Free: true, ops: &listAxis[float64]{
		field: func(a *Axes) *[]float64 { return &a.Probabilities }, value: func(p *Point) float64 { return p.Probability },
		format: words.Float, parse: func(v *parsed) []float64 { return v.Floats }, float: true}},
	{Key: "intervals", Column: "interval", Level: IntervalLevel, ops: &intervalsAxis{listAxis[model.Interval]{
		field: func(a *Axes) *[]model.Interval { return &a.Intervals }, value: func(p *Point) model.Interval { return p.Interval },
		format: model.Interval.String, parse: ints[model.Interval]}}},
	{Key: "mtbf", Column: "mtbf_seconds", Level: ProcessLevel, process: &processAxis{
		values: func(t *Time) []float64 { return t.MTBFs }, field: func(g *Group) *float64 { return &g.MTBF }}},
	{Key: "checkpoint_time", Column: "checkpoint_seconds", Level: ProcessLevel, process: &processAxis{
		values: func(t *Time) []float64 { return t.Checkpoints }, field: func(g *Group) *float64 { return &g.Checkpoint }}},
	{Key: "restart_time", Column: "restart_seconds", Level: ProcessLevel, process: &processAxis{
		values: func(t *Time) []float64 { return t.Restarts }, field: func(g *Group) *float64 { return &g.Restart }}},
	{Key: "weibull_shape", Column: "shape", Level: ProcessLevel, process: &processAxis{
		values: func(t *Time) []float64 { return t.shapes() }, field: func(g *Group) *float64 { return &g.Shape }}},
}

// AxisTable returns the axis table: every axis, in the order of the
// columns of the result tables.
func AxisTable() []Axis { return slices.Clone(axisTable) }

// Columns returns the columns of the axes at the given levels, in table
// order: the key columns of a result table.
func Columns(levels ...Level) []string {
	var out []string
	for _, a := range axisTable {
		if slices.Contains(levels, a.Level) {
			out = append(out, a.Column)
		}
	}
	return out
}

// gridAxes are the axes of the grid, those cases and exclude take.
var gridAxes = slices.DeleteFunc(slices.Clone(axisTable), func(a Axis) bool { return a.ops == nil })

// axisNamed returns the grid axis of a key, or nil.
func axisNamed(key string) *Axis {
	for i := range gridAxes {
		if gridAxes[i].Key == key {
			return &gridAxes[i]
		}
	}
	return nil
}

// axisOps are what the experiment asks of one grid axis, whatever the type
// of its values.
type axisOps interface {
	// set puts values read from a case or an exclude entry into a, and
	// reports whether they are the word all.
	set(a *Axes, v *parsed) (all bool)
	// given reports whether a lists values of the axis (nil leaves it free).
	given(a *Axes) bool
	// text writes the grid's values, each with its format (probabilities
	// with float), joined by join.
	text(g *Grid, join func([]string) string, float func(float64) string) string
	// matches reports whether the entry takes in the point's value.
	matches(x *Exclusion, p *Point) bool
	// shares reports whether the grid has a value the entry lists.
	shares(g *Grid, x *Exclusion) bool
	// index builds the masks of the entries' values of the axis.
	index(x []Exclusion) axisIndex
	// count is the number of the grid's values for a source of p periods.
	count(g *Grid, p int) int64
}

// axisIndex answers which exclude entries take in values of one axis.
type axisIndex interface {
	// of is the mask of the point's value.
	of(p *Point) uint64
	// classes sorts the grid's values into classes by their masks.
	classes(g *Grid) classes
	// union is the mask of the entries that take in one of the grid's values.
	union(g *Grid) uint64
}

// listAxis is an axis of values of type T, a field of Axes.
type listAxis[T comparable] struct {
	field  func(a *Axes) *[]T
	value  func(p *Point) T
	format func(T) string
	parse  func(v *parsed) []T
	float  bool // Describe writes the values with its float
}

func (l *listAxis[T]) set(a *Axes, v *parsed) bool {
	*l.field(a) = l.parse(v)
	return false
}

func (l *listAxis[T]) given(a *Axes) bool { return *l.field(a) != nil }

func (l *listAxis[T]) text(g *Grid, join func([]string) string, float func(float64) string) string {
	format := l.format
	if l.float {
		format = func(v T) string { return float(any(v).(float64)) }
	}
	return joinWith(*l.field(&g.Axes), format, join)
}

func (l *listAxis[T]) matches(x *Exclusion, p *Point) bool {
	return lists(*l.field(&x.Axes), l.value(p))
}

func (l *listAxis[T]) shares(g *Grid, x *Exclusion) bool {
	return anyShared(*l.field(&g.Axes), *l.field(&x.Axes))
}

func (l *listAxis[T]) index(x []Exclusion) axisIndex {
	return &listIndex[T]{l, newAxisMasks(x, func(x *Exclusion) []T { return *l.field(&x.Axes) })}
}

func (l *listAxis[T]) count(g *Grid, _ int) int64 { return int64(len(*l.field(&g.Axes))) }

// listIndex is the axisIndex of a listAxis.
type listIndex[T comparable] struct {
	axis  *listAxis[T]
	masks axisMasks[T]
}

func (ix *listIndex[T]) of(p *Point) uint64 { return ix.masks.of(ix.axis.value(p)) }

func (ix *listIndex[T]) classes(g *Grid) classes {
	return axisClasses(*ix.axis.field(&g.Axes), &ix.masks)
}

func (ix *listIndex[T]) union(g *Grid) uint64 { return orOf(*ix.axis.field(&g.Axes), &ix.masks) }

// ints returns the whole numbers of a parsed value as T.
func ints[T ~int | ~uint32](v *parsed) []T { return toInts[T](v.Ints) }

// stateRowsAxis is state_rows: the word subscribers stands for N of each
// source, and an entry that lists it takes in the state rows N.
type stateRowsAxis struct{ listAxis[int] }

func (s *stateRowsAxis) matches(x *Exclusion, p *Point) bool {
	return x.listsStateRows(p.StateRows, p.Subscribers)
}

// intervalsAxis is intervals: the word all gives each periods value P the
// intervals none, 1..P.
type intervalsAxis struct{ listAxis[model.Interval] }

func (i *intervalsAxis) set(a *Axes, v *parsed) bool {
	a.Intervals = toInts[model.Interval](v.Ints)
	if v.All {
		a.Intervals = nil
	}
	return v.All
}

func (i *intervalsAxis) text(g *Grid, join func([]string) string, float func(float64) string) string {
	if g.IntervalsAll {
		return "all"
	}
	return i.listAxis.text(g, join, float)
}

func (i *intervalsAxis) shares(g *Grid, x *Exclusion) bool {
	return slices.ContainsFunc(g.Periods, func(p int) bool { return anyShared(g.IntervalsFor(p), x.Intervals) })
}

func (i *intervalsAxis) count(g *Grid, p int) int64 { return g.IntervalCount(p) }

// product is the product of the counts of the grid's axes at the given
// levels, for a source of p periods (periods itself counts 1), saturating.
func (g *Grid) product(p int, levels ...Level) int64 {
	n := int64(1)
	for _, a := range gridAxes {
		if slices.Contains(levels, a.Level) && a.Key != "periods" {
			n = satmath.Mul(n, a.ops.count(g, p))
		}
	}
	return n
}

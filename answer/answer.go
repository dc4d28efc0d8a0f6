// Package answer computes a run's answer once (SPEC 14).
// For each source and state size, the answer is the lower envelope of the
// expected totals, clipped to the declared probabilities. It names the
// recommended intervals. Every writer reads the Answer. No writer chooses
// an interval of its own.
package answer

import (
	"cmp"
	"math/big"
	"slices"

	"ckptlab/criteria"
	"ckptlab/model"
)

// A Group is a source at one state size, as the answer reads it.
type Group struct {
	// Index numbers the group's source in the run.
	// Groups of one source share it.
	Index     int
	Source    model.Source
	StateRows int
	// Costs are the source's declared intervals, in declared order.
	// Left says which of them have a point left (nil: every one).
	Costs []model.Cost
	Left  []bool
	// Probabilities are the declared failure probabilities.
	Probabilities []float64
	// LeftAt returns the costs left at the j-th probability, in
	// partitioning part, or in any partitioning for part -1 (nil: Left at
	// every one). What it returns is read before the next call.
	LeftAt func(part, j int) []bool
	// Parts is the number of partitionings LeftAt tells apart: 0 when
	// every partitioning leaves the same costs.
	Parts int
	// Repeat marks a group that repeats an earlier one.
	// Both have the same source and intervals left, and differ only in
	// partitioning. The tables and the headline leave it out.
	Repeat bool
}

// left reports whether the i-th cost is left.
func (g *Group) left(i int) bool { return g.Left == nil || g.Left[i] }

// Total returns the expected total of the i-th cost at p.
func (g *Group) Total(i int, p float64) float64 {
	c := g.Costs[i]
	return criteria.Expected(p, c.Sum, c.Weight, c.CertainCost(g.StateRows))
}

// Best returns the index of the cost left with the least expected total at p.
// Ties go to the first declared. It returns -1 when none is left.
func (g *Group) Best(p float64) int {
	return g.bestOf(g.Left, p)
}

// bestOf is Best among the costs left in left (nil: every one).
func (g *Group) bestOf(left []bool, p float64) int {
	return criteria.Best(len(g.Costs), left, func(i int) float64 { return g.Total(i, p) })
}

// bestAt is Best among the costs left at the j-th probability in
// partitioning part (-1: any).
func (g *Group) bestAt(part, j int) int {
	left := g.Left
	if g.LeftAt != nil {
		left = g.LeftAt(part, j)
	}
	return g.bestOf(left, g.Probabilities[j])
}

// A Piece is a part of the declared probability range on which one
// interval is best.
type Piece struct {
	// Index is the interval's index in the group's Costs.
	Index    int
	Interval model.Interval
	// From and To are exact; From equals To with one probability.
	From, To *big.Rat
	// FromTotal and ToTotal are the expected totals at From and To.
	FromTotal, ToTotal float64
	// Picks is how many declared probabilities the interval is best at.
	Picks int
}

// An Envelope is the answer of one group.
type Envelope struct {
	Group
	// Full is the lower envelope over p in [0, 1], as breakeven.csv has it.
	// Each Line indexes Costs.
	Full []criteria.Piece
	// Pieces is the envelope clipped to the declared probability range.
	Pieces []Piece
	// Bests are the best costs at each declared probability.
	Bests Bests
}

// Bests are a group's best costs at each declared probability.
type Bests struct {
	// Best is, at each declared probability, the index of the cost left
	// there with the least expected total, -1 for none: the decisions'
	// best interval.
	Best []int
	// PartBest is Best in each partitioning, where the exclusions tell the
	// partitionings apart (Parts > 0); nil otherwise.
	PartBest [][]int
}

// BestAt returns the best cost at the j-th declared probability in
// partitioning part, or in any for part -1: the grid's best column.
func (b *Bests) BestAt(part, j int) int {
	if part >= 0 && b.PartBest != nil {
		return b.PartBest[part][j]
	}
	return b.Best[j]
}

// NewBests computes a group's bests alone, in O(probabilities ×
// intervals) for each partitioning: what a reader of an envelope the
// answer does not keep needs of it.
func NewBests(g Group) Bests {
	var b Bests
	b.Best = make([]int, len(g.Probabilities))
	for j := range g.Probabilities {
		b.Best[j] = g.bestAt(-1, j)
	}
	if g.Parts > 0 {
		b.PartBest = make([][]int, g.Parts)
		for part := range b.PartBest {
			b.PartBest[part] = make([]int, len(g.Probabilities))
			for j := range g.Probabilities {
				b.PartBest[part][j] = g.bestAt(part, j)
			}
		}
	}
	return b
}

// Recommended returns the intervals of the envelope's pieces, in
// increasing probability.
func (e *Envelope) Recommended() []model.Interval {
	out := make([]model.Interval, len(e.Pieces))
	for i, pc := range e.Pieces {
		out[i] = pc.Interval
	}
	return out
}

// IsRecommended reports whether interval k is one of the envelope's.
func (e *Envelope) IsRecommended(k model.Interval) bool {
	return slices.Contains(e.Recommended(), k)
}

// Lowest returns the cost on the full envelope at p and its expected total.
// That is the least total of every interval left.
// It returns (-1, 0) for an empty envelope.
func (e *Envelope) Lowest(p float64) (int, float64) {
	if len(e.Full) == 0 {
		return -1, 0
	}
	var x big.Rat
	x.SetFloat64(p)
	for _, pc := range e.Full {
		if x.Cmp(pc.To) <= 0 {
			return pc.Line, e.Total(pc.Line, p)
		}
	}
	last := e.Full[len(e.Full)-1].Line
	return last, e.Total(last, p)
}

// Range returns the least and the greatest declared probability.
func (e *Envelope) Range() (lo, hi float64) {
	if len(e.Probabilities) == 0 {
		return 0, 1
	}
	return slices.Min(e.Probabilities), slices.Max(e.Probabilities)
}

// NewEnvelope computes a group's envelope.
// It takes the lower envelope of the expected totals of the costs left over
// [0, 1] (criteria.Envelope). Then it cuts the pieces on the declared range.
// With one probability, or a range that is a point, it is the one best
// interval there.
func NewEnvelope(g Group) *Envelope {
	e := &Envelope{Group: g, Bests: NewBests(g)}
	e.LeftAt = nil // what it returns may be reused by the group's maker
	var lines []criteria.Line
	var index []int // of each line, in Costs
	for i, c := range g.Costs {
		if g.left(i) {
			lines = append(lines, criteria.Line{Certain: c.CertainCost(g.StateRows), Sum: c.Sum})
			index = append(index, i)
		}
	}
	if len(lines) == 0 {
		return e
	}
	e.Full = criteria.Envelope(lines, g.Costs[0].Weight)
	for i := range e.Full {
		e.Full[i].Line = index[e.Full[i].Line]
	}
	lo, hi := e.Range()
	var from, to big.Rat
	from.SetFloat64(lo)
	to.SetFloat64(hi)
	if from.Cmp(&to) == 0 {
		if b := g.Best(lo); b >= 0 {
			e.Pieces = []Piece{e.piece(b, &from, &to)}
		}
	} else {
		for _, pc := range e.Full {
			a, b := maxRat(pc.From, &from), minRat(pc.To, &to)
			if a.Cmp(b) < 0 {
				e.Pieces = append(e.Pieces, e.piece(pc.Line, a, b))
			}
		}
	}
	for _, p := range g.Probabilities {
		b := g.Best(p)
		for i := range e.Pieces {
			if e.Pieces[i].Index == b {
				e.Pieces[i].Picks++
				break
			}
		}
	}
	return e
}

// piece returns the piece of cost i on [from, to].
func (e *Envelope) piece(i int, from, to *big.Rat) Piece {
	f, t := new(big.Rat).Set(from), new(big.Rat).Set(to)
	return Piece{Index: i, Interval: e.Costs[i].Interval, From: f, To: t,
		FromTotal: e.Total(i, criteria.Probability(f)), ToTotal: e.Total(i, criteria.Probability(t))}
}

func maxRat(a, b *big.Rat) *big.Rat {
	if a.Cmp(b) >= 0 {
		return a
	}
	return b
}

func minRat(a, b *big.Rat) *big.Rat {
	if a.Cmp(b) <= 0 {
		return a
	}
	return b
}

// MaxKept is the most envelopes an Answer keeps.
// Past it, a sweep's envelopes still count towards its sources'
// recommended intervals. Whoever reads them makes them again (NewEnvelope).
// So memory does not grow with the sweep.
const MaxKept = 256

// Answer is a run's answer.
// It holds the envelopes of the first MaxKept groups, in the order of
// breakeven.csv. It also holds each source's recommended intervals over
// every group.
type Answer struct {
	Envelopes []*Envelope
	sources   map[int][]model.Interval
	at        map[[2]int]*Envelope // by source and state rows
}

// New computes the answer of the groups, in their order.
func New(groups func(yield func(Group) bool)) *Answer {
	a := &Answer{sources: map[int][]model.Interval{}, at: map[[2]int]*Envelope{}}
	type weight struct {
		picks int
		width big.Rat
		first int
	}
	weights := map[int]map[model.Interval]*weight{}
	for g := range groups {
		e := NewEnvelope(g)
		if len(a.Envelopes) < MaxKept {
			e.Left = slices.Clone(g.Left) // the caller's may be reused
			a.Envelopes = append(a.Envelopes, e)
			a.at[[2]int{g.Index, g.StateRows}] = e
		}
		ws := weights[g.Index]
		if ws == nil {
			ws = map[model.Interval]*weight{}
			weights[g.Index] = ws
		}
		for _, pc := range e.Pieces {
			w := ws[pc.Interval]
			if w == nil {
				w = &weight{first: len(ws)}
				ws[pc.Interval] = w
				a.sources[g.Index] = append(a.sources[g.Index], pc.Interval)
			}
			w.picks += pc.Picks
			var d big.Rat
			w.width.Add(&w.width, d.Sub(pc.To, pc.From))
		}
	}
	for s, ks := range a.sources {
		ws := weights[s]
		slices.SortStableFunc(ks, func(x, y model.Interval) int {
			wx, wy := ws[x], ws[y]
			if c := cmp.Compare(wy.picks, wx.picks); c != 0 {
				return c
			}
			if c := wy.width.Cmp(&wx.width); c != 0 {
				return c
			}
			return cmp.Compare(wx.first, wy.first)
		})
	}
	return a
}

// Recommended returns the recommended intervals of source index, over every
// state size. The most picked come first, counted by declared probabilities.
// Ties go to the wider range they are best on, then to the first to appear.
func (a *Answer) Recommended(index int) []model.Interval {
	return a.sources[index]
}

// Find returns the kept envelope of source index at a state size, or nil.
func (a *Answer) Find(index, stateRows int) *Envelope {
	return a.at[[2]int{index, stateRows}]
}

// Unique yields the envelopes that repeat no earlier one, in order.
// They are the envelopes of breakeven.csv.
func (a *Answer) Unique(yield func(*Envelope) bool) {
	for _, e := range a.Envelopes {
		if !e.Repeat && !yield(e) {
			return
		}
	}
}

package answer

import (
	"math/big"
	"slices"
	"testing"

	"ckptlab/model"
)

// costs are three lines of one failure (W = 1) at 10 state rows.
// None costs 100p, interval 2 costs 30 + 40p, and interval 1 costs 60.
// Worked by hand, none is least up to p = 1/2, interval 2 up to 3/4, and
// interval 1 above.
var costs = []model.Cost{
	{Interval: model.None, Checkpoints: 0, Sum: 100, Weight: 1},
	{Interval: 2, Checkpoints: 3, Sum: 40, Weight: 1},
	{Interval: 1, Checkpoints: 6, Sum: 0, Weight: 1},
}

func TestNewEnvelope(t *testing.T) {
	type piece struct {
		k        model.Interval
		from, to string
		picks    int
	}
	tests := []struct {
		name  string
		probs []float64
		left  []bool
		want  []piece
		top   float64 // the last piece's total at its end
	}{
		{"whole range", []float64{0, 1}, nil, []piece{{model.None, "0", "1/2", 1}, {2, "1/2", "3/4", 0}, {1, "3/4", "1", 1}}, 60},
		{"clipped", []float64{0.25, 1}, nil, []piece{{model.None, "1/4", "1/2", 1}, {2, "1/2", "3/4", 0}, {1, "3/4", "1", 1}}, 60},
		{"inside one piece", []float64{0.625, 0.6875}, nil, []piece{{2, "5/8", "11/16", 2}}, 30 + 40*0.6875},
		{"one probability", []float64{0.875}, nil, []piece{{1, "7/8", "7/8", 1}}, 60},
		// at p = 1/2 none and 2 tie: the first declared is best
		{"a tie", []float64{0.5}, nil, []piece{{model.None, "1/2", "1/2", 1}}, 50},
		// without interval 2, none meets interval 1 at 100p = 60
		{"an interval left out", []float64{0, 1}, []bool{true, false, true}, []piece{{model.None, "0", "3/5", 1}, {1, "3/5", "1", 1}}, 60},
	}
	for _, tt := range tests {
		e := NewEnvelope(Group{StateRows: 10, Costs: costs, Left: tt.left, Probabilities: tt.probs})
		var got []piece
		for _, pc := range e.Pieces {
			got = append(got, piece{pc.Interval, pc.From.RatString(), pc.To.RatString(), pc.Picks})
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: pieces %v, want %v", tt.name, got, tt.want)
			continue
		}
		if last := e.Pieces[len(e.Pieces)-1]; last.ToTotal != tt.top {
			t.Errorf("%s: total at the top %v, want %v", tt.name, last.ToTotal, tt.top)
		}
	}
}

func TestEnvelopeLowest(t *testing.T) {
	e := NewEnvelope(Group{StateRows: 10, Costs: costs, Probabilities: []float64{1}})
	for _, tt := range []struct {
		p     float64
		i     int
		total float64
	}{{0, 0, 0}, {0.25, 0, 25}, {0.5, 0, 50}, {0.625, 1, 55}, {0.75, 1, 60}, {1, 2, 60}} {
		if i, total := e.Lowest(tt.p); i != tt.i || total != tt.total {
			t.Errorf("Lowest(%v) = %d, %v; want %d, %v", tt.p, i, total, tt.i, tt.total)
		}
	}
	if len(e.Full) != 3 || e.Full[1].From.Cmp(big.NewRat(1, 2)) != 0 {
		t.Errorf("full envelope %v, want three pieces, the second from 1/2", e.Full)
	}
}

// TestRecommended checks a source's recommended intervals over its state sizes.
// The most picked come first, then those with the wider range they are best on.
func TestRecommended(t *testing.T) {
	groups := []Group{
		{Index: 0, StateRows: 10, Costs: costs, Probabilities: []float64{0.25, 0.8, 0.9, 1}},
		{Index: 0, StateRows: 10, Costs: costs, Probabilities: []float64{0.1, 0.6}, Repeat: true},
		{Index: 1, StateRows: 10, Costs: costs, Probabilities: []float64{0.55, 0.6}},
	}
	a := New(slices.Values(groups))
	// source 0: interval 1 best at 0.8, 0.9 and 1; none at 0.25 and 0.1;
	// interval 2 at 0.6
	if got, want := a.Recommended(0), []model.Interval{1, model.None, 2}; !slices.Equal(got, want) {
		t.Errorf("source 0 recommends %v, want %v", got, want)
	}
	if got, want := a.Recommended(1), []model.Interval{2}; !slices.Equal(got, want) {
		t.Errorf("source 1 recommends %v, want %v", got, want)
	}
	n := 0
	for range a.Unique {
		n++
	}
	if n != 2 || a.Find(1, 10) != a.Envelopes[2] {
		t.Errorf("%d envelopes not repeated, want 2; Find(1, 10) is not the third", n)
	}
}

// TestNewBests checks the best cost at each probability, in any
// partitioning and in each, with the costs left there.
func TestNewBests(t *testing.T) {
	probs := []float64{0.25, 0.625, 1}
	all := []bool{true, true, true}
	no2 := []bool{true, false, true}
	only2 := []bool{false, true, false}
	nothing := []bool{false, false, false}
	tests := []struct {
		name  string
		at    func(part, j int) []bool
		parts int
		best  []int   // in any partitioning
		part  [][]int // in each
	}{
		{"every cost left", nil, 0, []int{0, 1, 2}, nil},
		{"interval 2 left out at 0.625", func(part, j int) []bool {
			if j == 1 {
				return no2
			}
			return all
		}, 0, []int{0, 2, 2}, nil},
		{"partitionings apart", func(part, j int) []bool {
			switch {
			case part == 1 && j == 2:
				return only2
			case part == 1 && j == 0:
				return nothing
			}
			return all
		}, 2, []int{0, 1, 2}, [][]int{{0, 1, 2}, {-1, 1, 1}}},
	}
	for _, tt := range tests {
		g := Group{StateRows: 10, Costs: costs, Probabilities: probs, LeftAt: tt.at, Parts: tt.parts}
		b := NewBests(g)
		if !slices.Equal(b.Best, tt.best) {
			t.Errorf("%s: Best %v, want %v", tt.name, b.Best, tt.best)
		}
		for part, want := range tt.part {
			for j := range probs {
				if got := b.BestAt(part, j); got != want[j] {
					t.Errorf("%s: BestAt(%d, %d) = %d, want %d", tt.name, part, j, got, want[j])
				}
			}
		}
		for j := range probs {
			if got := b.BestAt(-1, j); got != tt.best[j] {
				t.Errorf("%s: BestAt(-1, %d) = %d, want %d", tt.name, j, got, tt.best[j])
			}
		}
		if e := NewEnvelope(g); !slices.Equal(e.Bests.Best, tt.best) || e.LeftAt != nil {
			t.Errorf("%s: the envelope's Best %v (want %v), its LeftAt kept: %v", tt.name, e.Bests.Best, tt.best, e.LeftAt != nil)
		}
	}
}

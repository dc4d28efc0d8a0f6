package experiment

import (
	"math/rand/v2"
	"testing"

	"ckptlab/model"
)

// pickSome returns a random non-empty subset of values, in their order,
// or nil (the axis left free) when free is set.
func pickSome[T any](r *rand.Rand, values []T, free bool) []T {
	if free {
		return nil
	}
	var out []T
	for _, v := range values {
		if r.IntN(2) == 0 {
			out = append(out, v)
		}
	}
	if out == nil {
		out = append(out, values[r.IntN(len(values))])
	}
	return out
}

// randomExcluded returns a small random experiment with random exclude
// entries over values its axes have and values they lack.
func randomExcluded(r *rand.Rand) Experiment {
	e := Lesson("x")
	e.Seeds = pickSome(r, []uint32{1, 2, 3}, false)
	e.Subscribers = pickSome(r, []int{2, 3, 5}, false)
	e.Periods = pickSome(r, []int{3, 4, 6}, false)
	e.PartitionKeys = pickSome(r, model.PartitionKeys, false)
	e.Workers = pickSome(r, []int{1, 2, 4}, false)
	e.StateRows = pickSome(r, []int{subscriberState, 0, 4, 6}, false)
	e.Probabilities = pickSome(r, []float64{0, 0.5, 1}, false)
	e.FailurePeriod = e.Start + 1
	if r.IntN(2) == 0 {
		e.Intervals, e.IntervalsAll = nil, true
	} else {
		e.Intervals = pickSome(r, []model.Interval{model.None, 1, 2, 3}, false)
	}
	for range 1 + r.IntN(5) {
		x := Exclusion{Axes: Axes{
			Seeds:         pickSome(r, []uint32{1, 2, 3, 9}, r.IntN(3) > 0),
			Subscribers:   pickSome(r, []int{2, 3, 5, 9}, r.IntN(3) > 0),
			Periods:       pickSome(r, []int{3, 4, 6, 9}, r.IntN(3) > 0),
			PartitionKeys: pickSome(r, model.PartitionKeys, r.IntN(3) > 0),
			Workers:       pickSome(r, []int{1, 2, 4, 9}, r.IntN(3) > 0),
			StateRows:     pickSome(r, []int{subscriberState, 0, 2, 3, 4, 6}, r.IntN(2) > 0),
			Probabilities: pickSome(r, []float64{0, 0.5, 1, 0.25}, r.IntN(3) > 0),
			Intervals:     pickSome(r, []model.Interval{model.None, 1, 2, 3, 5, 6}, r.IntN(2) > 0),
		}}
		e.Exclude = append(e.Exclude, x)
	}
	return e
}

// TestExcluderMatchesEntries holds the index of the exclude entries to the
// entries themselves, point by point, on random experiments: the sizes it
// counts, the intervals it leaves, and the entries it finds dropping a
// point.
func TestExcluderMatchesEntries(t *testing.T) {
	r := rand.New(rand.NewPCG(22, 1))
	for i := range 400 {
		e := randomExcluded(r)
		want, _ := countPoints(&e, 1<<20)
		if got := e.Sizes(); got != want {
			t.Fatalf("%d: Sizes() = %+v, visiting every point gives %+v (%+v)", i, got, want, e)
		}
		ix := e.Excluder()
		var dropping, found uint64
		for _, g := range e.Grids() {
			dropping |= ix.dropping(&g)
			for _, seed := range g.Seeds {
				for _, n := range g.Subscribers {
					for _, p := range g.Periods {
						for _, key := range g.PartitionKeys {
							for _, w := range g.Workers {
								for _, sr := range g.StateRowsFor(n) {
									for _, prob := range g.Probabilities {
										pt := Point{seed, n, p, key, w, sr, prob, 0}
										left := ix.IntervalsLeft(nil, &pt, g.IntervalsFor(p))
										for j, k := range g.IntervalsFor(p) {
											pt.Interval = k
											if left[j] == e.Excluded(pt) {
												t.Fatalf("%d: IntervalsLeft of %s is %v, Excluded says %v", i, pt, left[j], e.Excluded(pt))
											}
											for x := range e.Exclude {
												if e.Exclude[x].Matches(pt) {
													found |= 1 << x
												}
											}
										}
									}
								}
							}
						}
					}
				}
			}
		}
		if dropping != found {
			t.Fatalf("%d: entries dropping a point %b, visiting every point finds %b (%+v)", i, dropping, found, e)
		}
	}
}

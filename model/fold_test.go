package model

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// bySubscriber returns a partitioning by subscriber for each worker count.
func bySubscriber(workers ...int) []Partitioning {
	var parts []Partitioning
	for _, w := range workers {
		parts = append(parts, Partitioning{BySubscriber, w})
	}
	return parts
}

// span returns the worker counts lo..hi.
func span(lo, hi int) []int {
	var out []int
	for w := lo; w <= hi; w++ {
		out = append(out, w)
	}
	return out
}

// TestFoldPlan checks how worker counts are grouped.
// They go under one common multiple when it is small.
// They go under the smallest larger count each divides when the common multiple is large.
// They are binned directly when neither pays.
func TestFoldPlan(t *testing.T) {
	for _, tc := range []struct {
		name  string
		parts []Partitioning
		ones  []int
		ls    []int   // each group's l, in the plan's order
		in    [][]int // each group's partitionings
	}{
		{"scale.yaml", bySubscriber(1, 2, 4, 8, 16, 32, 64), []int{0}, []int{64}, [][]int{{6, 5, 4, 3, 2, 1}}},
		{"coprime", bySubscriber(2, 3, 5), nil, []int{30}, [][]int{{0, 1, 2}}},
		{"one count twice", bySubscriber(4, 4), nil, []int{4}, [][]int{{0, 1}}},
		{"other keys apart", []Partitioning{{ByRegion, 4}, {BySubscriber, 6}, {ByType, 2}, {BySubscriber, 3}}, nil, []int{6}, [][]int{{1, 3}}},
		{"multiple past foldBins", bySubscriber(181, 191), nil, []int{181, 191}, [][]int{{0}, {1}}},
		{"divisor chains past foldBins", bySubscriber(2, 181, 191, 362, 382), nil, []int{362, 382}, [][]int{{3, 1, 0}, {4, 2}}},
		{"primes, merged in pairs", bySubscriber(61, 67, 71, 73, 79, 83, 89), nil, []int{61 * 67, 71 * 73, 79 * 83, 89}, [][]int{{0, 1}, {2, 3}, {4, 5}, {6}}},
		{"too many bins", bySubscriber(50000, 100000, 25000), nil, []int{25000, 50000, 100000}, [][]int{{2}, {0}, {1}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			plan := newFoldPlan(tc.parts, cleanChunk)
			var ls []int
			var in [][]int
			for _, g := range plan.groups {
				ls, in = append(ls, g.l), append(in, g.parts)
			}
			if !slices.Equal(plan.ones, tc.ones) || !slices.Equal(ls, tc.ls) || !slices.EqualFunc(in, tc.in, slices.Equal) {
				t.Errorf("ones %v, groups %v of %v; want ones %v, groups %v of %v", plan.ones, ls, in, tc.ones, tc.ls, tc.in)
			}
		})
	}
}

// TestFoldPlanCovers checks the fold plans of many worker sets.
// Every partitioning by subscriber over more than one worker is in exactly one group.
// That group is under a multiple of its worker count.
// A group of several counts has at most foldBins bins.
func TestFoldPlanCovers(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	sets := [][]int{span(1, 1024), span(1, 5000), span(30000, 40000)}
	for range 200 {
		var ws []int
		for range 1 + r.IntN(50) {
			ws = append(ws, 1+r.IntN([]int{10, 100, 2000, 100000}[r.IntN(4)]))
		}
		sets = append(sets, ws)
	}
	for _, ws := range sets {
		parts := bySubscriber(ws...)
		parts = append(parts, Partitioning{ByRegion, 3})
		plan := newFoldPlan(parts, cleanChunk)
		seen := make([]int, len(parts))
		for _, p := range plan.ones {
			seen[p]++
		}
		for _, g := range plan.groups {
			if len(g.parts) > 1 && g.l > foldBins {
				t.Errorf("%v: a group of %d bins", ws, g.l)
			}
			for _, p := range g.parts {
				seen[p]++
				if g.l%parts[p].Workers != 0 {
					t.Errorf("%v: %d workers in a group of %d bins", ws, parts[p].Workers, g.l)
				}
			}
		}
		for p, n := range seen {
			want := 1
			if parts[p].Key != BySubscriber {
				want = 0
			}
			if n != want {
				t.Errorf("%v: %+v in %d groups, want %d", ws, parts[p], n, want)
			}
		}
	}
}

// TestCountFolds holds Count's subscribers per worker to the lesson's Worker
// of every name.
// The worker sets fold in one group, in many, and not at all.
// The names span two chunks.
func TestCountFolds(t *testing.T) {
	if testing.Short() {
		t.Skip("bins 10^5 names into a thousand worker counts")
	}
	src := Source{Seed: 3, Subscribers: cleanChunk + 12345, Periods: 2}
	hashes := make([]uint32, src.Subscribers)
	for i := range hashes {
		hashes[i] = TraceID(SubscriberName(i))
	}
	for _, ws := range [][]int{
		{1, 2, 4, 8, 16, 32, 64},
		{2, 3, 5, 7, 11, 13},
		span(1, 1024),
		{181, 191, 362, 382, 2, 4},
		{40000, 20000, 10000, 7},
	} {
		parts := bySubscriber(ws...)
		parts = append(parts, Partitioning{ByRegion, 4})
		t.Run(fmt.Sprint(len(ws), ws[:min(len(ws), 4)]), func(t *testing.T) {
			if !folds(parts, cleanChunk) {
				t.Fatalf("%v: no group folds", ws)
			}
			got := NewTally(src.Periods, parts)
			src.Count(got, 0, src.Subscribers)
			for p, w := range ws {
				want := make([]int64, w)
				for _, h := range hashes {
					want[h%uint32(w)]++
				}
				if !slices.Equal(got.workerSubs[p], want) {
					t.Errorf("%d workers: subscribers per worker %v, want %v", w, got.workerSubs[p][:min(w, 8)], want[:min(w, 8)])
				}
			}
		})
	}
}

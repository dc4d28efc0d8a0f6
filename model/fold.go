package model

import "slices"

// Folding is how a count bins the name hashes of a chunk of subscribers for
// several partitionings by subscriber at once.
// If l is a multiple of w, then (h mod l) mod w = h mod w.
// So the subscribers per bin of w follow from the subscribers per bin of l.
// Bin r of l goes to bin r mod w.
// A chunk is binned once by l and folded into each worker count that divides l.
// Each fold costs l additions, where binning again would cost the chunk's size.
// For example, scale.yaml's seven worker counts, 1 to 64, are binned once by 64.
//
// A plan groups the worker counts, each group under a common multiple of its own.
// First each worker count joins the smallest larger one of the same key that it divides.
// So a sweep of 1 to 1024 folds 1 to 512 from 513 to 1024.
// Then neighbouring groups merge under the least common multiple of theirs.
// They merge while that stays at most foldBins and costs less.
// A group of one worker count bins directly, once per worker count.
// So does any group whose folds would cost more than that.
// A plan of one group bins each name as it hashes it, without storing the
// chunk's hashes.
// Each goroutine makes the plan once for its partitionings (scratchPool).

// foldBins is the most bins a group is binned into.
// That is 128 KiB of counts per goroutine that counts.
// A bin counts the names of one chunk, at most cleanChunk, so 32 bits hold it.
const foldBins = 1 << 15

// FoldBytes is the memory in bytes a Count holds to fold, beside a chunk's name hashes.
// It is the counts of one group's bins.
const FoldBytes = 4 * foldBins

// foldGroup is one group of partitionings by subscriber.
// Their chunk counts come from one binning by l.
type foldGroup struct {
	l     int
	m     uint64 // Lemire's constant for % l
	parts []int  // partitionings (indices into the tally's), each of workers dividing l
}

// foldPlan is how a Count bins the name hashes of each chunk.
type foldPlan struct {
	ones   []int // partitionings by subscriber over one worker: every subscriber in bin 0
	groups []foldGroup
}

// newFoldPlan groups the partitionings by subscriber for chunks of n subscribers.
func newFoldPlan(parts []Partitioning, n int) *foldPlan {
	plan := new(foldPlan)
	// The distinct worker counts above one, in increasing order, each with
	// its partitionings.
	var ws []int
	byWorkers := make(map[int][]int)
	for p, part := range parts {
		switch {
		case part.Key != BySubscriber:
		case part.Workers == 1:
			plan.ones = append(plan.ones, p)
		default:
			if byWorkers[part.Workers] == nil {
				ws = append(ws, part.Workers)
			}
			byWorkers[part.Workers] = append(byWorkers[part.Workers], p)
		}
	}
	slices.Sort(ws)
	plan.groups = mergeNeighbours(underMultiples(ws, byWorkers), n)
	for i := range plan.groups {
		plan.groups[i].m = ^uint64(0)/uint64(plan.groups[i].l) + 1
	}
	return plan
}

// underMultiples groups the worker counts ws, distinct and increasing, each
// with its partitionings.
// Each count, from the largest, joins the group of the smallest larger count it divides.
// That count must head a group of at most foldBins bins.
// Otherwise the count heads a group of its own.
// The groups are returned from the smallest head.
// underMultiples takes O(min(len(ws), foldBins/w)) steps per count w.
func underMultiples(ws []int, byWorkers map[int][]int) []foldGroup {
	head := make([]int, len(ws)) // the group ws[i] heads, or -1
	var groups []foldGroup
	for i := len(ws) - 1; i >= 0; i-- {
		w, g := ws[i], -1
		if larger := ws[i+1:]; len(larger) <= foldBins/w {
			for k, v := range larger {
				if v > foldBins {
					break
				}
				if v%w == 0 && head[i+1+k] >= 0 {
					g = head[i+1+k]
					break
				}
			}
		} else {
			for v := 2 * w; v <= foldBins; v += w {
				if k, ok := slices.BinarySearch(larger, v); ok && head[i+1+k] >= 0 {
					g = head[i+1+k]
					break
				}
			}
		}
		head[i] = -1
		if g >= 0 {
			groups[g].parts = append(groups[g].parts, byWorkers[w]...)
			continue
		}
		head[i] = len(groups)
		groups = append(groups, foldGroup{l: w, parts: slices.Clone(byWorkers[w])})
	}
	slices.Reverse(groups)
	return groups
}

// mergeNeighbours merges neighbouring groups, from the smallest, under the
// least common multiple of theirs.
// It merges when that multiple has at most foldBins bins.
// It merges only when binning chunks of n subscribers then costs less.
func mergeNeighbours(groups []foldGroup, n int) []foldGroup {
	var out []foldGroup
	for _, g := range groups {
		if k := len(out) - 1; k >= 0 {
			last := out[k]
			if l := lcm(last.l, g.l); l <= foldBins {
				merged := foldGroup{l: l, parts: append(slices.Clip(last.parts), g.parts...)}
				if merged.cost(n) < last.cost(n)+g.cost(n) {
					out[k] = merged
					continue
				}
			}
		}
		out = append(out, g)
	}
	return out
}

// lcm returns the least common multiple of a and b.
// It returns foldBins+1 when that is larger than foldBins.
func lcm(a, b int) int {
	x, y := a, b
	for y != 0 {
		x, y = y, x%y
	}
	if a/x > foldBins/b {
		return foldBins + 1
	}
	return a / x * b
}

// folds reports whether binning n hashes by l and folding costs less than
// binning them once per partitioning of the group.
// Binning by l costs n + l, to bin and clear, plus l per partitioning to fold.
// Binning directly costs n per partitioning.
func (g *foldGroup) folds(n int) bool {
	k := len(g.parts)
	return n+(k+1)*g.l < k*n
}

// cost returns the work of binning n hashes for the group's partitionings.
func (g *foldGroup) cost(n int) int {
	if g.folds(n) {
		return n + (len(g.parts)+1)*g.l
	}
	return len(g.parts) * n
}

// binNames adds the subscribers of a chunk, lo..hi-1, to the subscribers per
// worker of every partitioning by subscriber.
// A plan of one group that folds bins each name as it hashes it.
// Any other plan makes the chunk's hashes first and bins them group by group.
func (c *counter) binNames(lo, hi int) {
	t, plan := c.t, c.fold
	for _, p := range plan.ones {
		t.workerSubs[p][0] += int64(hi - lo)
	}
	switch {
	case len(plan.groups) == 0:
	case len(plan.groups) == 1 && plan.groups[0].folds(hi-lo):
		g := &plan.groups[0]
		bins := c.foldBins(g.l)
		binNameHashes(bins, g, lo, hi)
		g.fold(t, bins)
	default:
		if cap(c.hashes) < hi-lo { // made once at its size, not grown
			c.hashes = make([]uint32, 0, hi-lo)
		}
		c.hashes = appendNameHashes(c.hashes[:0], lo, hi)
		for g := range plan.groups {
			c.binGroup(&plan.groups[g], c.hashes)
		}
	}
}

// foldBins returns l cleared bins.
func (c *counter) foldBins(l int) []uint32 {
	if cap(c.bins) < l {
		c.bins = make([]uint32, l)
	}
	bins := c.bins[:l]
	clear(bins)
	return bins
}

// binGroup adds hashes to the subscribers per worker of the group's partitionings.
// It bins once by g.l and folds, or bins for each when folding costs more.
func (c *counter) binGroup(g *foldGroup, hashes []uint32) {
	if !g.folds(len(hashes)) {
		for _, p := range g.parts {
			subs, m, w := c.t.workerSubs[p], c.fastmod[p], uint64(len(c.t.workerSubs[p]))
			for _, h := range hashes {
				subs[mod(h, m, w)]++
			}
		}
		return
	}
	bins := c.foldBins(g.l)
	if mask := uint32(g.l - 1); g.l&(g.l-1) == 0 { // a power of two, as most worker sweeps
		for _, h := range hashes {
			bins[h&mask]++
		}
	} else {
		for _, h := range hashes {
			bins[mod(h, g.m, uint64(g.l))]++
		}
	}
	g.fold(c.t, bins)
}

// binNameHashes adds to bins the names of subscribers lo..hi-1.
// There are g.l bins, and each name goes to its TraceID mod g.l.
// It hashes the names as appendNameHashes does.
func binNameHashes(bins []uint32, g *foldGroup, lo, hi int) {
	var p namePrefix
	p.set((lo + 1) / 10)
	mask, pow2 := uint32(g.l-1), g.l&(g.l-1) == 0
	for n := lo + 1; n <= hi; p.next() {
		h, d := p.hash(), n%10
		end := min(10, d+hi-n+1) // last digits d..end-1 of this ten
		n += end - d
		if pow2 {
			for ; d < end; d++ {
				bins[((h^uint32('0'+d))*16777619)&mask]++
			}
		} else {
			for ; d < end; d++ {
				bins[mod((h^uint32('0'+d))*16777619, g.m, uint64(g.l))]++
			}
		}
	}
}

// fold adds bins, the chunk's subscribers per bin of g.l, to the subscribers
// per worker of the group's partitionings.
func (g *foldGroup) fold(t *Tally, bins []uint32) {
	for _, p := range g.parts {
		fold(t.workerSubs[p], bins)
	}
}

// fold adds bins to subs, bin r to subs[r % len(subs)].
// The bins come from a binning by a multiple of len(subs).
func fold(subs []int64, bins []uint32) {
	w := len(subs)
	for base := 0; base < len(bins); base += w {
		for j, n := range bins[base : base+w] {
			subs[j] += int64(n)
		}
	}
}

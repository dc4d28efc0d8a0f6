package process

// Schedule returns the checkpoints (points in 1 … periods-1, ascending)
// with the least expected time over every schedule, and that time; ties go
// to fewer checkpoints, then to the earlier previous checkpoint.
//
// It is the dynamic program F(t) = min_s F(s) + c(s, t) over the last
// checkpoint s before t, c(s, t) the expected time of the segment from s to
// t. A segment's time is a convex function of its work, and work is a
// difference of nondecreasing sums, so c satisfies the quadrangle
// inequality c(a, t) + c(b, t') ≤ c(a, t') + c(b, t) for a < b ≤ t < t':
// the best previous checkpoint does not decrease with t. The program keeps
// the candidates in a queue, each best on a range of points, and costs
// O(P log P).
func (p Process) Schedule(w Work) (points []int, expected float64) {
	n := w.Periods()
	if n < 2 {
		return nil, p.Expected(w, nil)
	}
	// Candidate c is the start (0) or a checkpoint at point c (1 … n-1);
	// cum(c) indexes w.cum at the work done before it.
	cum := func(c int) int {
		if c == 0 {
			return 0
		}
		return c + 1
	}
	f := make([]float64, n) // f[t]: least time up to a checkpoint at t
	cnt := make([]int, n)   // its checkpoints
	prev := make([]int, n)  // its previous candidate
	value := func(s, t int) float64 {
		return f[s] + p.SegmentTime(w.seconds(cum(s), t+1), true)
	}
	// better reports whether candidate a > b ends at t for less than b.
	better := func(a, b, t int) bool {
		va, vb := value(a, t), value(b, t)
		return va < vb || va == vb && cnt[a] < cnt[b]
	}
	type entry struct{ c, from int } // c is best from point from on
	queue := []entry{{0, 1}}
	head := 0
	for t := 1; t <= n-1; t++ {
		for head+1 < len(queue) && queue[head+1].from <= t {
			head++
		}
		s := queue[head].c
		f[t], cnt[t], prev[t] = value(s, t), cnt[s]+1, s
		if t == n-1 {
			break
		}
		// Place t: it beats the queue's last candidates from some point on.
		for len(queue) > head {
			last := queue[len(queue)-1]
			from := max(last.from, t+1)
			if !better(t, last.c, from) {
				break
			}
			queue = queue[:len(queue)-1]
		}
		if len(queue) == head {
			queue = append(queue, entry{t, t + 1})
			continue
		}
		last := queue[len(queue)-1]
		lo, hi := max(last.from, t+1), n // t loses at lo; find its first win in (lo, n-1]
		for hi-lo > 1 {
			mid := int(uint(lo+hi) >> 1)
			if better(t, last.c, mid) {
				hi = mid
			} else {
				lo = mid
			}
		}
		if hi <= n-1 {
			queue = append(queue, entry{t, hi})
		}
	}
	// The last segment ends the job, without a checkpoint.
	end, total := 0, p.SegmentTime(w.seconds(0, n), false)
	for s := 1; s <= n-1; s++ {
		e := f[s] + p.SegmentTime(w.seconds(cum(s), n), false)
		if e < total || e == total && cnt[s] < cnt[end] {
			end, total = s, e
		}
	}
	for c := end; c != 0; c = prev[c] {
		points = append(points, c)
	}
	for i, j := 0, len(points)-1; i < j; i, j = i+1, j-1 {
		points[i], points[j] = points[j], points[i]
	}
	return points, total
}

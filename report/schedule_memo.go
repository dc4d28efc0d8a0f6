package report

import (
	"math"
	"sync"

	"ckptlab/criteria"
	"ckptlab/runner"
)

// Bounds of the memo of schedules: a few thousand decisions, a schedule of
// at most 2^16 points in all, well under a MiB.
const (
	memoDecisions = 1 << 12
	memoPoints    = 1 << 16
)

// scheduleMemo keeps the best schedule of the first decisions a run makes:
// decisions.csv, the headline, the workbook and the Markdown each read the
// decisions, and a schedule costs O(P²) to find, the rest of a decision
// O(P). Past its bounds it keeps nothing more, so its memory does not grow
// with the grid; the schedules it does not keep are found again.
type scheduleMemo struct {
	mu     sync.Mutex
	m      map[memoKey]criteria.Schedule
	points int
}

type memoKey struct {
	sr        *runner.SourceResult
	stateRows int
	prob      uint64 // the probability's bits
}

// best returns the best schedule of a decision, from s or the memo.
func (memo *scheduleMemo) best(s *criteria.Schedules, sr *runner.SourceResult, stateRows int, prob float64) criteria.Schedule {
	key := memoKey{sr, stateRows, math.Float64bits(prob)}
	memo.mu.Lock()
	got, ok := memo.m[key]
	memo.mu.Unlock()
	if ok {
		return got
	}
	got = s.Best(prob, int64(stateRows))
	memo.mu.Lock()
	defer memo.mu.Unlock()
	if len(memo.m) < memoDecisions && memo.points+len(got.Points) <= memoPoints {
		if memo.m == nil {
			memo.m = map[memoKey]criteria.Schedule{}
		}
		memo.m[key] = got
		memo.points += len(got.Points)
	}
	return got
}

package model

import (
	"errors"
	"fmt"
	"math"
)

// Subscribers returns the number of subscribers the tally counts.
func (t *Tally) Subscribers() int64 { return t.subs }

// Check reports the first count of t that no counting can give.
// The counting is of the given number of subscribers of a source with the
// given fault draws, Source.Missing and Source.Duplicates.
// A tally read from a file, such as a shard's, is checked before it is merged.
// Its checksum proves it was not damaged, not that its counts mean anything.
//
// Counting gives the following, and Check holds the tally to it.
//   - Every count is >= 0, and the tally counts exactly subscribers.
//   - Each partitioning's workers hold those subscribers, no more, no less.
//   - No row is lost in the first period, which has none.
//   - A period loses at most one row per subscriber.
//   - Each missing record loses at most its own row and the next period's,
//     so at most 2 × missing in all.
//   - Each partitioning's workers lose exactly the rows the stream loses,
//     period by period.
//   - A worker loses no more rows in a period than it holds subscribers.
//   - The screened records are at most the draws of both faults.
//   - The deduplicated records are at most the duplicate draws.
//   - The unpaired records are at most the missing draws.
func (t *Tally) Check(subscribers int64, missing, duplicates int) error {
	if t.subs != subscribers {
		return fmt.Errorf("it counts %d subscribers where its pieces cover %d", t.subs, subscribers)
	}
	if t.subs < 0 {
		return fmt.Errorf("it counts %d subscribers", t.subs)
	}
	if err := t.checkLost(missing); err != nil {
		return err
	}
	for p, part := range t.parts {
		if err := t.checkWorkers(p, part); err != nil {
			return err
		}
	}
	d := t.drops
	switch {
	case d.Screened < 0 || d.Deduped < 0 || d.Unpaired < 0:
		return fmt.Errorf("negative drop counts (%d screened, %d deduplicated, %d unpaired)", d.Screened, d.Deduped, d.Unpaired)
	case d.Screened > int64(missing)+int64(duplicates):
		return fmt.Errorf("%d records screened out, more than the %d fault draws", d.Screened, int64(missing)+int64(duplicates))
	case d.Deduped > int64(duplicates):
		return fmt.Errorf("%d records deduplicated, more than the %d duplicate draws", d.Deduped, duplicates)
	case d.Unpaired > int64(missing):
		return fmt.Errorf("%d records unpaired, more than the %d missing draws", d.Unpaired, missing)
	}
	return nil
}

// checkLost checks the rows lost per period of the whole stream.
func (t *Tally) checkLost(missing int) error {
	if len(t.lost) > 0 && t.lost[0] != 0 {
		return fmt.Errorf("%d rows lost in the first period, which has none", t.lost[0])
	}
	most := 2 * int64(missing)
	var sum int64
	for j, n := range t.lost {
		if n < 0 || n > t.subs {
			return fmt.Errorf("%d rows lost in period %d of %d subscribers (want 0..%d)", n, j+1, t.subs, t.subs)
		}
		if n > most-sum { // sum stays <= most: no overflow
			return fmt.Errorf("more rows lost in all than the %d that %d missing records can remove", most, missing)
		}
		sum += n
	}
	return nil
}

// checkWorkers checks the counts of partitioning p.
// These are its workers' subscribers and lost rows.
func (t *Tally) checkWorkers(p int, part Partitioning) error {
	left := t.subs // subscribers not yet held by a worker: never below 0, so no overflow
	for w, n := range t.workerSubs[p] {
		if n < 0 || n > left {
			return fmt.Errorf("the workers of %s × %d hold more subscribers than the %d the tally counts (worker %d: %d)",
				part.Key, part.Workers, t.subs, w, n)
		}
		left -= n
	}
	if left != 0 {
		return fmt.Errorf("the workers of %s × %d hold %d subscribers, but the tally counts %d", part.Key, part.Workers, t.subs-left, t.subs)
	}
	lost := make([]int64, t.periods)
	for w, c := range t.workerLost[p] {
		for j, n := range c {
			if n < 0 || n > t.workerSubs[p][w] {
				return fmt.Errorf("worker %d of %s × %d loses %d rows in period %d of its %d subscribers", w, part.Key, part.Workers, n, j+1, t.workerSubs[p][w])
			}
			lost[j] += n // each <= its worker's subscribers, whose sum is t.subs: no overflow
		}
	}
	for j := range lost {
		if lost[j] != t.lost[j] {
			return fmt.Errorf("the workers of %s × %d lose %d rows in period %d, but the stream loses %d", part.Key, part.Workers, lost[j], j+1, t.lost[j])
		}
	}
	return nil
}

// errOverflow is Merge's error for counts whose sum does not fit an int64.
var errOverflow = errors.New("tally: the sum of the counts overflows a 64-bit integer")

// addOK reports whether a + b fits an int64.
func addOK(a, b int64) bool {
	return b <= 0 || a <= math.MaxInt64-b
}

// canMerge reports whether every sum Merge forms of t's and o's counts fits an int64.
// Counts are >= 0 (Check), so only overflow upward is possible.
func (t *Tally) canMerge(o *Tally) bool {
	ok := addOK(t.subs, o.subs) && addOK(t.drops.Screened, o.drops.Screened) &&
		addOK(t.drops.Deduped, o.drops.Deduped) && addOK(t.drops.Unpaired, o.drops.Unpaired)
	for j := range o.lost {
		ok = ok && addOK(t.lost[j], o.lost[j])
	}
	for p := range t.parts {
		for w := range o.workerSubs[p] {
			ok = ok && addOK(t.workerSubs[p][w], o.workerSubs[p][w])
		}
		for w, c := range o.workerLost[p] {
			mine := t.workerLost[p][w]
			for j := range c {
				ok = ok && (mine == nil || addOK(mine[j], c[j]))
			}
		}
	}
	return ok
}

package model

import "math/bits"

// The faults' part of counting (count.go).
// A block's missing records are held as one bit each.
// They are drawn again or read from a FaultIndex.
// This file also takes off the rows each faulted subscriber loses.

// block counts subscribers lo..hi-1 with their faults.
// They make a block of at most faultBlock records.
// block marks the block's missing records, one bit each.
// It reads them from f or, if f is nil, draws both fault sequences again.
// Then it keeps the draws that fall into the block.
// A duplicates draw needs no storage.
// It drops a copy at the dedupe stage, or at the screen when its record is missing.
func (c *counter) block(lo, hi int, f *FaultIndex) {
	p := int64(c.s.Periods)
	base, end := int64(lo)*p, int64(hi)*p
	words := int((end - base + 63) / 64)
	if cap(c.bits) < words {
		c.bits = make([]uint64, words)
	}
	c.bits = c.bits[:words]
	clear(c.bits)
	if f != nil {
		c.read(f, base, end)
	} else {
		c.draw(base, end)
	}
	c.clean(lo, hi)

	// Every subscriber with a missing record, in order, with its missing
	// periods in order.
	cur := -1
	for k, word := range c.bits {
		for word != 0 {
			x := int64(k)*64 + int64(bits.TrailingZeros64(word))
			word &= word - 1
			i := lo + int(x/p)
			if i != cur {
				if cur >= 0 {
					c.faulted(cur)
				}
				cur = i
			}
			c.missing = append(c.missing, int(x%p))
		}
	}
	if cur >= 0 {
		c.faulted(cur)
	}
}

// draw marks the missing records among records base..end-1.
// It classifies the duplicates draws that fall on them.
// It draws both fault sequences whole.
func (c *counter) draw(base, end int64) {
	n := float64(int64(c.s.Subscribers) * int64(c.s.Periods))
	// A draw falls into the block when the generator's state does, so most
	// draws are one step of the generator and a comparison (Rand.statesIn).
	sLo, sHi := stateRange(n, base), stateRange(n, end)
	var buf [statesBatch]uint32
	r := NewRand(c.s.missingSeed())
	for left := c.s.Missing; left > 0; {
		m := min(left, statesBatch)
		left -= m
		for _, st := range buf[:r.statesIn(buf[:m], sLo, sHi)] {
			c.markMissing(drawOf(st, n) - base)
		}
	}
	r = NewRand(c.s.duplicatesSeed())
	for left := c.s.Duplicates; left > 0; {
		m := min(left, statesBatch)
		left -= m
		for _, st := range buf[:r.statesIn(buf[:m], sLo, sHi)] {
			c.dropDuplicate(drawOf(st, n) - base)
		}
	}
}

// markMissing marks record x of the block as missing; x counts from the block's first.
// A record's first missing draw drops it at the screen. A second one drops nothing.
func (c *counter) markMissing(x int64) {
	if bit := uint64(1) << (x % 64); c.bits[x/64]&bit == 0 {
		c.bits[x/64] |= bit
		c.t.drops.Screened++
	}
}

// dropDuplicate counts a duplicates draw on record x of the block.
// It runs once every missing draw is marked.
// The copy is dropped at the screen when the record is missing.
// Otherwise it is dropped at the dedupe stage.
func (c *counter) dropDuplicate(x int64) {
	if c.bits[x/64]&(1<<(x%64)) != 0 {
		c.t.drops.Screened++
	} else {
		c.t.drops.Deduped++
	}
}

// drawOf returns the record index a fault draw with generator state st picks
// among n records.
// It is int(r() * n), as Source.Faults draws it.
func drawOf(st uint32, n float64) int64 {
	return int64(float64(st) / 4294967296 * n)
}

// stateRange returns the least generator state whose draw among n records is
// g or more, or 1<<32 if none is.
// drawOf is non-decreasing in the state.
// So a draw lands in records base..end-1 exactly when its state lies in
// stateRange(n, base)..stateRange(n, end)-1.
func stateRange(n float64, g int64) uint64 {
	lo, hi := uint64(0), uint64(1)<<32
	for lo < hi {
		mid := (lo + hi) / 2
		if drawOf(uint32(mid), n) >= g {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}

// faulted removes from the tally the rows subscriber i loses to its missing records.
// c.missing holds its missing periods in increasing order; faulted empties it.
// Each missing period loses its row and the row of the period after it.
// The record after a missing one, if present, is unpaired.
func (c *counter) faulted(i int) {
	c.lostRows = c.lostRows[:0]
	last := len(c.missing) - 1
	for m, j := range c.missing {
		if j >= 1 && (len(c.lostRows) == 0 || c.lostRows[len(c.lostRows)-1] != j) {
			c.lostRows = append(c.lostRows, j)
		}
		// The next period's record is there but unpaired.
		if next := j + 1; next < c.s.Periods && (m == last || c.missing[m+1] != next) {
			c.lostRows = append(c.lostRows, next)
			c.t.drops.Unpaired++
		}
	}
	c.missing = c.missing[:0]
	if len(c.lostRows) == 0 {
		return
	}
	var hash uint32
	if c.byName {
		c.name = appendSubscriberName(c.name[:0], i)
		hash = traceIDBytes(c.name)
	}
	region, typ := 0, 0
	if c.draws > 0 {
		region, typ = c.s.keys(i, c.draws)
	}
	for p, part := range c.t.parts {
		var h uint32
		switch part.Key {
		case BySubscriber:
			h = hash
		case ByRegion:
			h = regionHash[region]
		case ByType:
			h = typeHash[typ]
		}
		c.workers[p] = int32(h % uint32(part.Workers))
	}
	c.addLost()
}

// touchedWorkers bounds the workers counter.touched holds.
// Their slice headers take 384 KiB.
const touchedWorkers = 1 << 14

// FaultScratchBytes is the most a count with faults holds beyond a count without.
// That is one block's bits and the touched workers' rows' headers.
const FaultScratchBytes = faultBlock/8 + 24*touchedWorkers

// addLost is c.t.addLost(c.workers, c.lostRows).
// It adds the rows of the workers touched so far, found through c.touched.
func (c *counter) addLost() {
	t := c.t
	for _, j := range c.lostRows {
		t.lost[j]++
	}
	if c.touched == nil {
		c.touched = make([][][]int64, len(t.parts))
		held := 0
		for p, part := range t.parts {
			if held+part.Workers <= touchedWorkers {
				c.touched[p] = make([][]int64, part.Workers)
				held += part.Workers
			}
		}
	}
	for p, w := range c.workers {
		var rows []int64
		if dense := c.touched[p]; dense != nil {
			if rows = dense[w]; rows == nil {
				rows = t.lostOf(p, w)
				dense[w] = rows
			}
		} else {
			rows = t.lostOf(p, w)
		}
		for _, j := range c.lostRows {
			rows[j]++
		}
	}
}

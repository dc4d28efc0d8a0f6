package model

import "slices"

// Faults are the record indexes that the missing and duplicates faults of
// the model drew (docs/design.md#the-model).
// A record index g counts records in generation order.
// It is g = i*P + j for subscriber i and period j.
type Faults struct {
	// Missing lists, sorted and distinct, the records that lost their index
	// field. A record drawn twice stays without it.
	Missing []int64
	// Duplicated lists, sorted, the records drawn for duplication, a record
	// once per draw: each draw adds one copy right after the record.
	Duplicated []int64
}

// Faults draws the source's faults.
// It draws missing times g = int(r()*N·P) with r = rng(seed + 104729).
// Then it draws duplicates times with r = rng(seed + 7919).
// Its size grows with the number of draws, not with the source.
// The reference Scan and Pipeline use it.
// Count draws again instead (count.go), or reads a FaultIndex (fault_index.go).
func (s Source) Faults() Faults {
	n := float64(int64(s.Subscribers) * int64(s.Periods))
	var f Faults
	if s.Missing > 0 {
		r := NewRand(uint64(s.Seed) + 104729)
		f.Missing = make([]int64, s.Missing)
		for d := range f.Missing {
			f.Missing[d] = int64(r.Next() * n)
		}
		slices.Sort(f.Missing)
		f.Missing = slices.Compact(f.Missing)
	}
	if s.Duplicates > 0 {
		r := NewRand(uint64(s.Seed) + 7919)
		f.Duplicated = make([]int64, s.Duplicates)
		for d := range f.Duplicated {
			f.Duplicated[d] = int64(r.Next() * n)
		}
		slices.Sort(f.Duplicated)
	}
	return f
}

// Window returns the faults of records lo..hi-1, for a scan of part of the
// source. It shares storage with f.
func (f Faults) Window(lo, hi int64) Faults {
	return Faults{Missing: window(f.Missing, lo, hi), Duplicated: window(f.Duplicated, lo, hi)}
}

// split returns the faults of the records before end, and the rest.
// Scan uses it to hand each subscriber its faults in turn.
func (f Faults) split(end int64) (before, rest Faults) {
	m := below(f.Missing, end)
	d := below(f.Duplicated, end)
	return Faults{Missing: f.Missing[:m], Duplicated: f.Duplicated[:d]},
		Faults{Missing: f.Missing[m:], Duplicated: f.Duplicated[d:]}
}

// empty reports whether no fault was drawn.
func (f Faults) empty() bool { return len(f.Missing) == 0 && len(f.Duplicated) == 0 }

// below returns how many leading elements of sorted are less than end.
// It counts from the front.
// split calls it with an end just past the few faults of one subscriber.
func below(sorted []int64, end int64) int {
	n := 0
	for n < len(sorted) && sorted[n] < end {
		n++
	}
	return n
}

func window(sorted []int64, lo, hi int64) []int64 {
	a, _ := slices.BinarySearch(sorted, lo)
	b, _ := slices.BinarySearch(sorted, hi)
	return sorted[a:b]
}

// Apply applies the faults to records in generation order.
// The first record has record index base.
// Apply removes the index field of each missing record.
// Then it follows each record with a copy for each time it was drawn for duplication.
// It appends the result to dst and returns it.
// f must hold only the faults of the records given (see Window).
func (f Faults) Apply(dst, records []Record, base int64) []Record {
	miss, dup := f.Missing, f.Duplicated
	for g, rec := range records {
		idx := base + int64(g)
		for len(miss) > 0 && miss[0] < idx {
			miss = miss[1:]
		}
		if len(miss) > 0 && miss[0] == idx {
			rec.HasIndex = false
			rec.Index = 0
		}
		dst = append(dst, rec)
		for len(dup) > 0 && dup[0] < idx {
			dup = dup[1:]
		}
		for len(dup) > 0 && dup[0] == idx {
			dst = append(dst, rec)
			dup = dup[1:]
		}
	}
	return dst
}

package model

// Row is one row of the stream, a subscriber's consumption in a period.
// It is the output of the lesson's s3_consumption.
type Row struct {
	Subscriber int
	Period     int
	M3         int64
}

// Stages runs the lesson's three pipeline stages.
// It holds scratch space, so a long stream runs through it subscriber by
// subscriber without allocating.
// The zero value is ready to use.
//
// Records must come in generation order, every subscriber's records together.
// Generate, AppendRecords and Faults.Apply give them so.
// The stages then keep their (subscriber, period) sets per subscriber, not in one map.
// The result is the same as the lesson's.
type Stages struct {
	seen    []bool
	present []bool
}

// Screen is the lesson's s1_screen.
// It keeps the records that have every required field.
// Only the index field can be missing.
// It returns them with the number dropped.
// It reuses the storage of records.
func (st *Stages) Screen(records []Record) ([]Record, int) {
	keep := records[:0]
	for _, r := range records {
		if r.HasIndex {
			keep = append(keep, r)
		}
	}
	return keep, len(records) - len(keep)
}

// Dedupe is the lesson's s2_dedupe.
// It keeps the first record of every (subscriber, period) key.
// It reuses the storage of records.
func (st *Stages) Dedupe(records []Record, periods int) ([]Record, int) {
	keep := records[:0]
	st.seen = resetBools(st.seen, periods)
	cur := -1
	for _, r := range records {
		if r.Subscriber != cur {
			cur = r.Subscriber
			clear(st.seen)
		}
		if st.seen[r.Period] {
			continue
		}
		st.seen[r.Period] = true
		keep = append(keep, r)
	}
	return keep, len(records) - len(keep)
}

// Consumption is the lesson's s3_consumption.
// Every record but those of the first period becomes a row.
// The row holds the consumption since the previous period, if that period's record is there.
// Otherwise the record is dropped.
// Rows are appended to dst. Records must be deduplicated.
func (st *Stages) Consumption(dst []Row, records []Record, periods int) ([]Row, int) {
	st.present = resetBools(st.present, periods)
	dropped := 0
	for lo := 0; lo < len(records); {
		hi := lo + 1
		for hi < len(records) && records[hi].Subscriber == records[lo].Subscriber {
			hi++
		}
		group := records[lo:hi]
		clear(st.present)
		for _, r := range group {
			st.present[r.Period] = true
		}
		for g, r := range group {
			if r.Period == 0 {
				continue
			}
			if !st.present[r.Period-1] {
				dropped++
				continue
			}
			// Deduplicated records of a subscriber come in period order, one
			// per period, so the previous period's record is the one before.
			dst = append(dst, Row{Subscriber: r.Subscriber, Period: r.Period, M3: r.Index - group[g-1].Index})
		}
		lo = hi
	}
	return dst, dropped
}

// cleanRows appends the rows the three stages make of one subscriber's
// records when no fault touched them.
// It returns dst.
// Such records come one per period, in period order, each with its index.
// They pass Screen and Dedupe unchanged.
// Consumption pairs every record but the first period's with the one before it.
// TestScanMatchesPipeline holds this shortcut to the stages.
func cleanRows(dst []Row, records []Record) []Row {
	for g := 1; g < len(records); g++ {
		r := records[g]
		dst = append(dst, Row{Subscriber: r.Subscriber, Period: r.Period, M3: r.Index - records[g-1].Index})
	}
	return dst
}

func resetBools(b []bool, n int) []bool {
	if cap(b) < n {
		return make([]bool, n)
	}
	b = b[:n]
	clear(b)
	return b
}

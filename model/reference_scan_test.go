package model

// Pipeline returns the stream rows of a whole source, the lesson's rows().
// It runs generate_source, the faults, s1_screen, s2_dedupe and s3_consumption.
// It holds the whole source in memory. Scan streams it instead.
func (s Source) Pipeline() ([]Row, Drops) {
	var st Stages
	recs := s.Faults().Apply(nil, s.Generate(), 0)
	var d Drops
	var n int
	recs, n = st.Screen(recs)
	d.Screened = int64(n)
	recs, n = st.Dedupe(recs, s.Periods)
	d.Deduped = int64(n)
	rows, n := st.Consumption(nil, recs, s.Periods)
	d.Unpaired = int64(n)
	return rows, d
}

// Scan streams subscribers lo..hi-1 through generation, faults and the three stages.
// It takes one subscriber at a time and calls visit with its stream rows.
// The rows slice is reused after visit returns.
// Memory is O(periods), whatever the number of subscribers.
// faults must be the whole source's faults (Source.Faults).
// It may also be a Window covering the scanned records.
//
// Faults are rare, so most subscribers have none.
// Their records would pass Screen and Dedupe unchanged.
// So Scan pairs them into rows directly (cleanRows), without the stages.
// A subscriber with a fault goes through Apply and the stages, the reference semantics.
func (s Source) Scan(lo, hi int, faults Faults, visit func(i int, sub Subscriber, rows []Row)) Drops {
	var (
		st   Stages
		d    Drops
		gen  = make([]Record, 0, s.Periods)
		recs = make([]Record, 0, s.Periods)
		rows = make([]Row, 0, s.Periods)
		p    = int64(s.Periods)
	)
	// The faults still ahead, consumed from the front subscriber by
	// subscriber: one pass over them rather than a search per subscriber.
	ahead := faults.Window(int64(lo)*p, int64(hi)*p)
	for i := lo; i < hi; i++ {
		sub := s.Subscriber(i)
		base := int64(i) * p
		var f Faults
		f, ahead = ahead.split(base + p)
		gen = s.AppendRecords(gen[:0], i, sub)
		if f.empty() {
			rows = cleanRows(rows[:0], gen)
			visit(i, sub, rows)
			continue
		}
		recs = f.Apply(recs[:0], gen, base)
		var n int
		recs, n = st.Screen(recs)
		d.Screened += int64(n)
		recs, n = st.Dedupe(recs, s.Periods)
		d.Deduped += int64(n)
		rows, n = st.Consumption(rows[:0], recs, s.Periods)
		d.Unpaired += int64(n)
		visit(i, sub, rows)
	}
	return d
}

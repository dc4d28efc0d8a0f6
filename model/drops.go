package model

// Drops counts the records each pipeline stage dropped.
type Drops struct {
	Screened int64 // s1_screen: records without a required field
	Deduped  int64 // s2_dedupe: repeats of a (subscriber, period) key
	Unpaired int64 // s3_consumption: records whose previous period is gone
}

// Add adds o's counts to d.
func (d *Drops) Add(o Drops) {
	d.Screened += o.Screened
	d.Deduped += o.Deduped
	d.Unpaired += o.Unpaired
}

package model

import "fmt"

// The lesson's generator record by record: the reference that counting
// (count.go) is held to. A run never generates a record.

// Subscriber is one subscriber of a source, drawn from rng(seed + 37*i).
type Subscriber struct {
	Region int // index into Regions
	Type   int // index into Types
	Start  int // meter index before the first period
}

// SubscriberName returns the lesson's name of subscriber i, 0-based.
// It is A%03d of i+1, so A001, ..., A999, A1000, ...
func SubscriberName(i int) string { return fmt.Sprintf("A%03d", i+1) }

// Subscriber draws subscriber i (0-based) as the lesson's SUBSCRIBERS does.
func (s Source) Subscriber(i int) Subscriber {
	r := NewRand(uint64(s.Seed) + 37*uint64(i))
	region := r.Intn(len(Regions))
	typ := r.Intn(len(Types))
	start := 10000 + r.Intn(60000)
	return Subscriber{Region: region, Type: typ, Start: start}
}

// Record is one meter reading of the generated source.
// The lesson's record also carries region, type and unit.
// They follow from the subscriber and never change.
// So a Record names the subscriber by index instead.
type Record struct {
	Subscriber int   // 0-based subscriber index
	Period     int   // 0-based period index
	Index      int64 // meter index, valid only when HasIndex
	HasIndex   bool  // false once the missing fault removed the index field
}

// AppendRecords appends the records of subscriber i, period by period.
// It makes them as the lesson's generate_source does.
// The index grows from the subscriber's start by 4 + int(r()*46).
// Here r = rng(seed + 101*i + 7*j).
func (s Source) AppendRecords(dst []Record, i int, sub Subscriber) []Record {
	e := int64(sub.Start)
	base := uint64(s.Seed) + 101*uint64(i)
	for j := 0; j < s.Periods; j++ {
		r := NewRand(base + 7*uint64(j))
		e += 4 + int64(r.Intn(46))
		dst = append(dst, Record{Subscriber: i, Period: j, Index: e, HasIndex: true})
	}
	return dst
}

// Generate returns every record of the source in generation order, without faults.
// The order is subscriber-major, period-minor, as in generate_source.
// It holds N·P records. Scan streams the same records instead.
func (s Source) Generate() []Record {
	out := make([]Record, 0, s.Subscribers*s.Periods)
	for i := 0; i < s.Subscribers; i++ {
		out = s.AppendRecords(out, i, s.Subscriber(i))
	}
	return out
}

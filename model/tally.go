package model

// Partitioning is one way to split the stream over workers: by the value of
// Key, into Workers partitions, as the lesson's distribute does.
type Partitioning struct {
	Key     PartitionKey
	Workers int
}

// Tally counts stream rows per period, for the whole stream and for every
// worker of every partitioning, as Scan passes the source. Its size is
// O(periods × total workers), whatever the number of subscribers; the
// lesson's recovery needs nothing more.
type Tally struct {
	periods int
	parts   []Partitioning
	stream  []int64
	full    int64 // subscribers with a row in every period but the first
	drops   Drops
	// Per partitioning p: complete[p][w] counts the full subscribers of
	// worker w, partial[p][w*periods+j] the rows of the others. Most
	// subscribers are full, so adding one costs O(partitionings), not
	// O(partitionings × periods).
	complete [][]int64
	partial  [][]int64
	name     []byte
}

// NewTally returns an empty tally of a source with the given number of
// periods, for the given partitionings.
func NewTally(periods int, parts []Partitioning) *Tally {
	t := &Tally{periods: periods, parts: parts, stream: make([]int64, periods)}
	for _, p := range parts {
		t.complete = append(t.complete, make([]int64, p.Workers))
		t.partial = append(t.partial, make([]int64, p.Workers*periods))
	}
	return t
}

// Add counts subscriber i's stream rows.
func (t *Tally) Add(i int, sub Subscriber, rows []Row) {
	full := len(rows) == t.periods-1
	if full {
		t.full++
	} else {
		for _, r := range rows {
			t.stream[r.Period]++
		}
	}
	var subHash uint32
	hashed := false
	for p, part := range t.parts {
		var h uint32
		switch part.Key {
		case BySubscriber:
			if !hashed {
				t.name = appendSubscriberName(t.name[:0], i)
				subHash = traceIDBytes(t.name)
				hashed = true
			}
			h = subHash
		case ByRegion:
			h = regionHash[sub.Region]
		case ByType:
			h = typeHash[sub.Type]
		}
		w := int(h % uint32(part.Workers))
		if full {
			t.complete[p][w]++
			continue
		}
		counts := t.partial[p][w*t.periods : (w+1)*t.periods]
		for _, r := range rows {
			counts[r.Period]++
		}
	}
}

// AddDrops adds the drop counts of a scan.
func (t *Tally) AddDrops(d Drops) { t.drops.Add(d) }

// Merge adds o's counts to t. Both must have the same periods and
// partitionings. Counts are integers, so the order of merges never changes
// the result.
func (t *Tally) Merge(o *Tally) {
	t.full += o.full
	t.drops.Add(o.drops)
	addInts(t.stream, o.stream)
	for p := range t.parts {
		addInts(t.complete[p], o.complete[p])
		addInts(t.partial[p], o.partial[p])
	}
}

// Drops returns the rows each stage dropped.
func (t *Tally) Drops() Drops { return t.drops }

// Stream returns the stream's rows per period.
func (t *Tally) Stream() []int64 {
	out := make([]int64, t.periods)
	copy(out, t.stream)
	for j := 1; j < t.periods; j++ {
		out[j] += t.full
	}
	return out
}

// Rows returns the number of stream rows.
func (t *Tally) Rows() int64 {
	var n int64
	for _, c := range t.Stream() {
		n += c
	}
	return n
}

// Workers returns, for partitioning p (an index into the partitionings the
// tally was made with), every worker's rows per period.
func (t *Tally) Workers(p int) [][]int64 {
	part := t.parts[p]
	out := make([][]int64, part.Workers)
	for w := range out {
		c := make([]int64, t.periods)
		copy(c, t.partial[p][w*t.periods:(w+1)*t.periods])
		for j := 1; j < t.periods; j++ {
			c[j] += t.complete[p][w]
		}
		out[w] = c
	}
	return out
}

func addInts(dst, src []int64) {
	for i, v := range src {
		dst[i] += v
	}
}

var regionHash, typeHash = hashAll(Regions), hashAll(Types)

func hashAll(values []string) []uint32 {
	out := make([]uint32, len(values))
	for i, v := range values {
		out[i] = TraceID(v)
	}
	return out
}

// appendSubscriberName appends SubscriberName(i) without formatting through
// fmt: Add runs once per subscriber of sources of a million.
func appendSubscriberName(dst []byte, i int) []byte {
	n := i + 1
	var digits [20]byte
	k := len(digits)
	for n > 0 || len(digits)-k < 3 {
		k--
		digits[k] = byte('0' + n%10)
		n /= 10
	}
	dst = append(dst, 'A')
	return append(dst, digits[k:]...)
}

func traceIDBytes(b []byte) uint32 {
	h := uint32(2166136261)
	for _, c := range b {
		h = (h ^ uint32(c)) * 16777619
	}
	return h
}

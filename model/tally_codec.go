package model

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// tallyMagic starts every encoded tally; the byte after it is the version
// of the encoding.
const (
	tallyMagic   = "ckptlab-tally"
	tallyVersion = 1
)

// MarshalBinary encodes the tally exactly: its periods, partitionings and
// every count, so that a tally counted on one machine can be merged on
// another. Version 1 is the magic "ckptlab-tally", the version byte 1, then
// unsigned varints: periods, the number of partitionings and for each its
// key and workers, the full subscribers, the three drop counts, the stream
// counts, and per partitioning the complete then the partial counts.
func (t *Tally) MarshalBinary() ([]byte, error) {
	b := append([]byte(tallyMagic), tallyVersion)
	u := func(v int64) { b = binary.AppendUvarint(b, uint64(v)) }
	u(int64(t.periods))
	u(int64(len(t.parts)))
	for _, p := range t.parts {
		u(int64(p.Key))
		u(int64(p.Workers))
	}
	u(t.full)
	u(t.drops.Screened)
	u(t.drops.Deduped)
	u(t.drops.Unpaired)
	for _, v := range t.stream {
		u(v)
	}
	for p := range t.parts {
		for _, v := range t.complete[p] {
			u(v)
		}
		for _, v := range t.partial[p] {
			u(v)
		}
	}
	return b, nil
}

// UnmarshalBinary restores a tally that MarshalBinary encoded. Corrupt or
// truncated input is an error, never a panic, and never allocates more than
// the input could describe.
func (t *Tally) UnmarshalBinary(data []byte) error {
	d := decoder{data: data}
	if len(data) < len(tallyMagic)+1 || string(data[:len(tallyMagic)]) != tallyMagic {
		return errors.New("not an encoded tally")
	}
	if v := data[len(tallyMagic)]; v != tallyVersion {
		return fmt.Errorf("tally encoding version %d is not supported (want %d)", v, tallyVersion)
	}
	d.data = data[len(tallyMagic)+1:]
	periods := d.count()
	nparts := d.count()
	var parts []Partitioning
	var cells int
	for range nparts {
		if d.err != nil {
			break
		}
		key := d.count()
		workers := d.count()
		if d.err == nil && (key >= len(PartitionKeys) || workers < 1) {
			d.err = errors.New("bad partitioning")
		}
		parts = append(parts, Partitioning{Key: PartitionKey(key), Workers: workers})
		cells += workers * (periods + 1)
	}
	if d.err == nil && (periods < 2 || cells+periods > len(d.data)) {
		d.err = errors.New("counts do not fit the data")
	}
	if d.err != nil {
		return fmt.Errorf("corrupt tally: %w", d.err)
	}
	n := NewTally(periods, parts)
	n.full = d.int64()
	n.drops = Drops{Screened: d.int64(), Deduped: d.int64(), Unpaired: d.int64()}
	for i := range n.stream {
		n.stream[i] = d.int64()
	}
	for p := range parts {
		for i := range n.complete[p] {
			n.complete[p][i] = d.int64()
		}
		for i := range n.partial[p] {
			n.partial[p][i] = d.int64()
		}
	}
	if d.err == nil && len(d.data) != 0 {
		d.err = errors.New("trailing bytes")
	}
	if d.err != nil {
		return fmt.Errorf("corrupt tally: %w", d.err)
	}
	*t = *n
	return nil
}

// decoder reads unsigned varints, keeping the first error.
type decoder struct {
	data []byte
	err  error
}

func (d *decoder) int64() int64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.data)
	if n <= 0 || v > 1<<62 {
		d.err = errors.New("truncated or overlong count")
		return 0
	}
	d.data = d.data[n:]
	return int64(v)
}

// count reads a size, which must fit in the input.
func (d *decoder) count() int {
	v := d.int64()
	if d.err == nil && v > int64(len(d.data))+1<<20 {
		d.err = errors.New("size out of range")
	}
	return int(v)
}

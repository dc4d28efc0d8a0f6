package model

import (
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"slices"
)

// A tally's binary encoding stores the counts of part of a source.
// Another process may merge them later.
// The encoding is exact, every count as written.
// It is versioned, and checked on the way in.
//
// Version 1 follows the magic "CKTY" and the version byte.
// Below, u is an unsigned varint and s a signed one (encoding/binary).
//
//	u periods, u partitionings, then per partitioning: 1 byte key, u workers
//	s subscribers, s lost rows per period (periods values)
//	s screened, s deduped, s unpaired
//	per partitioning: s subscribers per worker (workers values),
//	  u touched workers, then per touched worker in increasing order:
//	  u worker, s lost rows per period (periods values)
const (
	tallyMagic   = "CKTY"
	tallyVersion = 1
)

// MarshalBinary encodes the tally. The same counts give the same bytes.
func (t *Tally) MarshalBinary() ([]byte, error) {
	b := append([]byte(tallyMagic), tallyVersion)
	b = binary.AppendUvarint(b, uint64(t.periods))
	b = binary.AppendUvarint(b, uint64(len(t.parts)))
	for _, p := range t.parts {
		b = append(b, byte(p.Key))
		b = binary.AppendUvarint(b, uint64(p.Workers))
	}
	b = binary.AppendVarint(b, t.subs)
	b = appendVarints(b, t.lost)
	b = appendVarints(b, []int64{t.drops.Screened, t.drops.Deduped, t.drops.Unpaired})
	for p := range t.parts {
		b = appendVarints(b, t.workerSubs[p])
		lost := t.workerLost[p]
		b = binary.AppendUvarint(b, uint64(len(lost)))
		for _, w := range slices.Sorted(maps.Keys(lost)) {
			b = binary.AppendUvarint(b, uint64(w))
			b = appendVarints(b, lost[w])
		}
	}
	return b, nil
}

func appendVarints(b []byte, values []int64) []byte {
	for _, v := range values {
		b = binary.AppendVarint(b, v)
	}
	return b
}

// UnmarshalBinary restores a tally that MarshalBinary encoded.
// It restores the periods, the partitionings and every count.
// Input that is truncated, corrupt, of another version or followed by extra
// bytes is an error.
// t is then left unchanged.
func (t *Tally) UnmarshalBinary(data []byte) error {
	d := decoder{data: data}
	if len(data) < len(tallyMagic)+1 || string(data[:len(tallyMagic)]) != tallyMagic {
		return errors.New("tally: not an encoded tally")
	}
	if v := data[len(tallyMagic)]; v != tallyVersion {
		return fmt.Errorf("tally: encoding version %d, want %d", v, tallyVersion)
	}
	d.data = data[len(tallyMagic)+1:]
	// Every count takes at least one byte, so no length may exceed the
	// bytes left: a corrupt length cannot make us allocate much.
	periods := d.length("periods")
	nparts := d.length("partitionings")
	var parts []Partitioning
	for range nparts {
		if d.err != nil {
			break
		}
		key := d.byte()
		if d.err == nil && int(key) >= len(PartitionKeys) {
			d.fail("partition key %d", key)
		}
		workers := d.length("workers")
		if d.err == nil && workers == 0 {
			d.fail("partitioning with no worker")
		}
		parts = append(parts, Partitioning{PartitionKey(key), workers})
	}
	need := periods // the counts that follow take a byte each, at least
	for _, p := range parts {
		need += p.Workers
	}
	if d.err == nil && need > len(d.data) {
		d.fail("%d counts in %d bytes", need, len(d.data))
	}
	if d.err != nil {
		return d.err
	}
	n := NewTally(periods, parts)
	n.subs = d.varint()
	d.varints(n.lost)
	n.drops = Drops{Screened: d.varint(), Deduped: d.varint(), Unpaired: d.varint()}
	for p, part := range parts {
		d.varints(n.workerSubs[p])
		touched := d.length("touched workers")
		last := -1
		for range touched {
			w := int(d.uvarint())
			if d.err != nil {
				break
			}
			if w <= last || w >= part.Workers {
				d.fail("touched worker %d of %d out of order", w, part.Workers)
				break
			}
			last = w
			if len(d.data) < periods { // periods counts follow
				d.fail("truncated")
				break
			}
			lost := make([]int64, periods)
			d.varints(lost)
			if n.workerLost[p] == nil {
				n.workerLost[p] = make(map[int32][]int64)
			}
			n.workerLost[p][int32(w)] = lost
		}
	}
	if d.err == nil && len(d.data) > 0 {
		d.fail("%d bytes after the end", len(d.data))
	}
	if d.err != nil {
		return d.err
	}
	*t = *n
	return nil
}

// decoder reads varints, keeping the first error.
type decoder struct {
	data []byte
	err  error
}

func (d *decoder) fail(format string, args ...any) {
	if d.err == nil {
		d.err = fmt.Errorf("tally: corrupt encoding: "+format, args...)
	}
}

func (d *decoder) uvarint() uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.data)
	if n <= 0 {
		d.fail("truncated")
		return 0
	}
	// Only the shortest form, so that one tally has one encoding.
	if n > 1 && d.data[n-1] == 0 {
		d.fail("overlong varint")
		return 0
	}
	d.data = d.data[n:]
	return v
}

// varint reads a signed varint, zigzag-encoded as binary.AppendVarint does.
func (d *decoder) varint() int64 {
	u := d.uvarint()
	v := int64(u >> 1)
	if u&1 != 0 {
		v = ^v
	}
	return v
}

func (d *decoder) varints(dst []int64) {
	for i := range dst {
		dst[i] = d.varint()
	}
}

func (d *decoder) byte() byte {
	if d.err != nil {
		return 0
	}
	if len(d.data) == 0 {
		d.fail("truncated")
		return 0
	}
	b := d.data[0]
	d.data = d.data[1:]
	return b
}

// length reads a length, which must not exceed the bytes left.
func (d *decoder) length(what string) int {
	v := d.uvarint()
	if d.err == nil && v > uint64(len(d.data)) {
		d.fail("%s %d exceed the %d bytes left", what, v, len(d.data))
	}
	if d.err != nil {
		return 0
	}
	return int(v)
}

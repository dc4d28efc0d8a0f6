package model

import (
	"bytes"
	"math"
	"reflect"
	"strings"
	"testing"
)

// codecTallies returns tallies to encode.
// They are empty, clean, with faults on every key, and with extreme counts.
func codecTallies() []*Tally {
	var out []*Tally
	out = append(out, NewTally(0, nil), NewTally(12, nil))
	parts := []Partitioning{{BySubscriber, 4}, {ByRegion, 3}, {ByType, 2}, {BySubscriber, 1000}}
	for _, src := range []Source{
		{Seed: 1, Subscribers: 300, Periods: 12},
		faultSource,
		{Seed: 9, Subscribers: 1500, Periods: 7, Missing: 900, Duplicates: 2000},
	} {
		t := NewTally(src.Periods, parts)
		src.Count(t, 0, src.Subscribers)
		out = append(out, t)
	}
	odd := NewTally(3, []Partitioning{{ByType, 2}})
	odd.subs, odd.lost[2], odd.drops.Unpaired = math.MaxInt64, math.MinInt64, -1
	odd.addLost([]int32{1}, []int{1, 2})
	return append(out, odd)
}

func TestTallyCodecRoundTrip(t *testing.T) {
	for i, want := range codecTallies() {
		b, err := want.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		var got Tally
		if err := got.UnmarshalBinary(b); err != nil {
			t.Fatalf("tally %d: %v", i, err)
		}
		if !reflect.DeepEqual(&got, want) {
			t.Errorf("tally %d: decoded %+v, want %+v", i, got, *want)
		}
		again, _ := got.MarshalBinary()
		if !bytes.Equal(again, b) {
			t.Errorf("tally %d: encoding differs after a round trip", i)
		}
	}
}

// TestTallyCodecRejects checks that bad input is an error, not a panic or a tally.
// Bad input is every truncation, a changed version, a trailing byte and corrupt fields.
func TestTallyCodecRejects(t *testing.T) {
	b, _ := codecTallies()[3].MarshalBinary()
	for n := range len(b) {
		var got Tally
		if err := got.UnmarshalBinary(b[:n]); err == nil {
			t.Errorf("truncated to %d of %d bytes: no error", n, len(b))
		}
	}
	tests := []struct {
		name string
		data []byte
		want string
	}{
		{"version", append([]byte("CKTY\x02"), b[5:]...), "version 2"},
		{"magic", append([]byte("XKTY"), b[4:]...), "not an encoded tally"},
		{"trailing", append(b[:len(b):len(b)], 0), "after the end"},
		{"huge periods", []byte("CKTY\x01\xff\xff\xff\xff\x0f\x00"), "exceed"},
		{"bad key", []byte("CKTY\x01\x01\x01\x07\x01\x00\x00\x00\x00\x00\x00\x00"), "partition key 7"},
		{"no worker", []byte("CKTY\x01\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00"), "no worker"},
	}
	for _, tt := range tests {
		var got Tally
		err := got.UnmarshalBinary(tt.data)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want one saying %q", tt.name, err, tt.want)
		}
	}
}

// FuzzTallyUnmarshal checks that no input panics.
// It checks that whatever decodes encodes back to the same bytes.
// So the encoding is canonical.
func FuzzTallyUnmarshal(f *testing.F) {
	for _, t := range codecTallies() {
		b, _ := t.MarshalBinary()
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var got Tally
		if err := got.UnmarshalBinary(data); err != nil {
			return
		}
		b, err := got.MarshalBinary()
		if err != nil || !bytes.Equal(b, data) {
			t.Errorf("decoded %x, encodes to %x", data, b)
		}
	})
}

func TestTallyCodecRejectsOverlongVarint(t *testing.T) {
	// periods 0 written in two bytes instead of one.
	var got Tally
	if err := got.UnmarshalBinary([]byte("CKTY\x01\x80\x00\x00\x00\x00\x00\x00")); err == nil || !strings.Contains(err.Error(), "overlong") {
		t.Errorf("error %v, want one saying overlong", err)
	}
}

package model

import (
	"slices"
	"testing"
)

// TestTallyCodecRoundTrip checks that a decoded tally has every count of
// the encoded one, and that every truncation of the encoding is refused.
func TestTallyCodecRoundTrip(t *testing.T) {
	parts := []Partitioning{{BySubscriber, 4}, {ByRegion, 3}, {ByType, 2}}
	want := NewTally(faultSource.Periods, parts)
	want.AddDrops(faultSource.Scan(0, faultSource.Subscribers, faultSource.Faults(), want.Add))
	data, err := want.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var got Tally
	if err := got.UnmarshalBinary(data); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.Stream(), want.Stream()) || got.Drops() != want.Drops() {
		t.Errorf("stream %v drops %v, want %v %v", got.Stream(), got.Drops(), want.Stream(), want.Drops())
	}
	for p := range parts {
		if g, w := got.Workers(p), want.Workers(p); !slices.EqualFunc(g, w, slices.Equal) {
			t.Errorf("partitioning %d: workers %v, want %v", p, g, w)
		}
	}
	for n := range len(data) {
		var bad Tally
		if err := bad.UnmarshalBinary(data[:n]); err == nil {
			t.Errorf("truncated to %d of %d bytes: no error", n, len(data))
		}
	}
}

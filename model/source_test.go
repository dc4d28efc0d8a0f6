package model

import (
	"slices"
	"testing"
)

// The expected values of these tests were computed with the lesson's own
// Python, generalized as the model says (docs/design.md#the-model), in testdata/reference.py
// (python3 testdata/reference.py prints them). They are typed in once, as the
// independent truth the Go port must match.

func TestGeneratedRecords(t *testing.T) {
	src := Source{Seed: 20260218, Subscribers: 1001, Periods: 12, Start: NewMonth(2026, 1)}
	records := src.Generate()
	tests := []struct {
		i, j         int
		name, period string
		region, typ  string
		index        int64
	}{
		{0, 0, "A001", "2026-01", "merkez", "commercial", 55049},
		{0, 11, "A001", "2026-12", "merkez", "commercial", 55415},
		{1, 5, "A002", "2026-06", "kuzey", "residential", 13842},
		{199, 11, "A200", "2026-12", "bati", "commercial", 11084},
		{999, 3, "A1000", "2026-04", "kuzey", "commercial", 50161},
		{1000, 0, "A1001", "2026-01", "bati", "residential", 68269},
	}
	for _, tt := range tests {
		r := records[tt.i*12+tt.j]
		sub := src.Subscriber(tt.i)
		got := []any{SubscriberName(r.Subscriber), src.Label(r.Period), Regions[sub.Region], Types[sub.Type], r.Index}
		want := []any{tt.name, tt.period, tt.region, tt.typ, tt.index}
		if !slices.Equal(got, want) {
			t.Errorf("record (%d, %d) = %v, want %v", tt.i, tt.j, got, want)
		}
	}
}

func TestSubscriberName(t *testing.T) {
	for i, want := range map[int]string{0: "A001", 8: "A009", 98: "A099", 998: "A999", 999: "A1000", 123455: "A123456"} {
		if got := SubscriberName(i); got != want {
			t.Errorf("SubscriberName(%d) = %q, want %q", i, got, want)
		}
		if got := string(appendSubscriberName(nil, i)); got != want {
			t.Errorf("appendSubscriberName(%d) = %q, want %q", i, got, want)
		}
	}
}

func TestLabelsCrossAYear(t *testing.T) {
	src := Source{Periods: 14, Start: NewMonth(2025, 11)}
	var got []string
	for j := 0; j < src.Periods; j++ {
		got = append(got, src.Label(j))
	}
	want := []string{"2025-11", "2025-12", "2026-01", "2026-02", "2026-03", "2026-04", "2026-05",
		"2026-06", "2026-07", "2026-08", "2026-09", "2026-10", "2026-11", "2026-12"}
	if !slices.Equal(got, want) {
		t.Errorf("labels = %v, want %v", got, want)
	}
}

func TestParseMonth(t *testing.T) {
	tests := []struct {
		in   string
		want Month
		ok   bool
	}{
		{"2026-01", NewMonth(2026, 1), true},
		{"2025-12", NewMonth(2025, 12), true},
		{"0001-01", NewMonth(1, 1), true},
		{"2026-13", 0, false},
		{"2026-00", 0, false},
		{"2026-1", 0, false},
		{"26-01", 0, false},
		{"2026/01", 0, false},
		{"+026-01", 0, false},
		{"2026-+1", 0, false},
		{"", 0, false},
	}
	for _, tt := range tests {
		got, err := ParseMonth(tt.in)
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("ParseMonth(%q) = %v, %v; want %v, ok=%v", tt.in, got, err, tt.want, tt.ok)
		}
		if tt.ok && got.String() != tt.in {
			t.Errorf("ParseMonth(%q).String() = %q", tt.in, got.String())
		}
	}
}

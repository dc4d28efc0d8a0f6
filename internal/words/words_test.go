package words

import (
	"strconv"
	"testing"
)

func TestLists(t *testing.T) {
	for _, tt := range []struct {
		words   []string
		or, and string
	}{
		{nil, "", ""},
		{[]string{"a"}, "a", "a"},
		{[]string{"a", "b"}, "a or b", "a and b"},
		{[]string{"a", "b", "c"}, "a, b or c", "a, b and c"},
	} {
		if got := Or(tt.words); got != tt.or {
			t.Errorf("Or(%q) = %q, want %q", tt.words, got, tt.or)
		}
		if got := And(tt.words); got != tt.and {
			t.Errorf("And(%q) = %q, want %q", tt.words, got, tt.and)
		}
	}
}

func TestPluralAndFormat(t *testing.T) {
	if got := Plural(1, "case", "cases") + " " + Plural(0, "case", "cases") + " " + Plural(2, "case", "cases"); got != "case cases cases" {
		t.Errorf("Plural of 1, 0, 2 = %q", got)
	}
	if got := Or(Format([]int{1, 2, 3}, strconv.Itoa)); got != "1, 2 or 3" {
		t.Errorf("Or(Format(1, 2, 3)) = %q", got)
	}
}

func TestFloat(t *testing.T) {
	for _, tt := range []struct {
		f    float64
		want string
	}{
		{0, "0"},
		{0.5, "0.5"},
		{0.1, "0.1"},
		{1e-7, "0.0000001"},
		{1e21, "1000000000000000000000"},
		{-2.25, "-2.25"},
	} {
		if got := Float(tt.f); got != tt.want {
			t.Errorf("Float(%v) = %q, want %q", tt.f, got, tt.want)
		}
	}
}

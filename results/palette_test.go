package results

import "testing"

// TestIntervalStyle checks that an interval has one colour wherever it is
// drawn, that none is distinct, and that intervals a chart may show
// together (up to seven apart) differ in colour or dash.
func TestIntervalStyle(t *testing.T) {
	seen := map[[2]any]string{}
	for k := 1; k <= 120; k++ {
		name := itoa(k)
		c, d, ok := IntervalStyle(name)
		if !ok {
			t.Fatalf("no style for %s", name)
		}
		if c2, d2, _ := IntervalStyle("interval " + name); c2 != c || d2 != d {
			t.Errorf("interval %s has two styles", name)
		}
		if c == noneColour {
			t.Errorf("interval %s takes none's colour", name)
		}
		if k <= 21 {
			key := [2]any{c, d}
			if other, dup := seen[key]; dup {
				t.Errorf("intervals %s and %s look alike", other, name)
			}
			seen[key] = name
		}
	}
	if c, _, _ := IntervalStyle("none"); c != noneColour {
		t.Errorf("none is %s, want black", c)
	}
	if _, _, ok := IntervalStyle("failure period"); ok {
		t.Error("a column that is no interval has a style")
	}
}

func itoa(k int) string {
	if k < 10 {
		return string(rune('0' + k))
	}
	return itoa(k/10) + string(rune('0'+k%10))
}

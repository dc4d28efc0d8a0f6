package results

import (
	"math"
	"strconv"
	"testing"
)

// TestIntervalStyle checks that an interval has one colour wherever it is
// drawn, that none is distinct, that twelve intervals differ in colour
// alone, and that intervals past them differ in dash, then in marker.
func TestIntervalStyle(t *testing.T) {
	colours := map[string]string{}
	styles := map[[2]any]string{}
	looks := map[[3]any]string{}
	for k := 1; k <= len(palette)*dashes*len(markers); k++ {
		name := itoa(k)
		c, d, ok := IntervalStyle(name)
		if !ok {
			t.Fatalf("no style for %s", name)
		}
		m := IntervalMarker(name)
		if c2, d2, _ := IntervalStyle("interval " + name); c2 != c || d2 != d || IntervalMarker("interval "+name) != m {
			t.Errorf("interval %s has two styles", name)
		}
		if c == noneColour {
			t.Errorf("interval %s takes none's colour", name)
		}
		if k <= 12 {
			if other, dup := colours[c]; dup {
				t.Errorf("intervals %s and %s have one colour", other, name)
			}
			colours[c] = name
		}
		if k <= len(palette)*dashes {
			if other, dup := styles[[2]any{c, d}]; dup {
				t.Errorf("intervals %s and %s look alike", other, name)
			}
			styles[[2]any{c, d}] = name
		}
		if other, dup := looks[[3]any{c, d, m}]; dup {
			t.Errorf("intervals %s and %s look alike, markers too", other, name)
		}
		looks[[3]any{c, d, m}] = name
	}
	if c, _, _ := IntervalStyle("none"); c != noneColour {
		t.Errorf("none is %s, want black", c)
	}
	if _, _, ok := IntervalStyle("failure period"); ok {
		t.Error("a column that is no interval has a style")
	}
}

// TestPaletteNamed checks that the Markdown's legend names every colour
// of the palette, and each apart.
func TestPaletteNamed(t *testing.T) {
	seen := map[string]string{}
	for _, c := range append([]string{noneColour}, palette[:]...) {
		name := colourName("#" + c)
		if name == "grey" {
			t.Errorf("colour %s has no name", c)
		}
		if other, dup := seen[name]; dup {
			t.Errorf("colours %s and %s are both %s", other, c, name)
		}
		seen[name] = c
	}
}

// TestPaletteApart checks that the palette's colours, none's black and
// the marks' grey are each at least as far apart (CIE76 ΔE*ab) as the
// closest two of Okabe-Ito's, sky blue and blue (26.4).
func TestPaletteApart(t *testing.T) {
	all := append([]string{noneColour, MarksColour}, palette[:]...)
	for i, a := range all {
		for _, b := range all[i+1:] {
			if d := deltaE(a, b); d < 26.4 {
				t.Errorf("%s and %s are %.1f apart, want 26.4 or more", a, b, d)
			}
		}
	}
}

// deltaE is the CIE76 distance of two sRGB colours (RGB hex) under D65.
func deltaE(a, b string) float64 {
	la, aa, ba := cieLab(a)
	lb, ab, bb := cieLab(b)
	return math.Sqrt((la-lb)*(la-lb) + (aa-ab)*(aa-ab) + (ba-bb)*(ba-bb))
}

func cieLab(hex string) (l, a, b float64) {
	var c [3]float64
	for i := range c {
		v, _ := strconv.ParseUint(hex[2*i:2*i+2], 16, 8)
		x := float64(v) / 255
		if x > 0.04045 {
			x = math.Pow((x+0.055)/1.055, 2.4)
		} else {
			x /= 12.92
		}
		c[i] = x
	}
	f := func(t float64) float64 {
		if t > 216.0/24389 {
			return math.Cbrt(t)
		}
		return (24389.0/27*t + 16) / 116
	}
	x := f((0.4124*c[0] + 0.3576*c[1] + 0.1805*c[2]) / 0.95047)
	y := f(0.2126*c[0] + 0.7152*c[1] + 0.0722*c[2])
	z := f((0.0193*c[0] + 0.1192*c[1] + 0.9505*c[2]) / 1.08883)
	return 116*y - 16, 500 * (x - y), 200 * (y - z)
}

func itoa(k int) string {
	if k < 10 {
		return string(rune('0' + k))
	}
	return itoa(k/10) + string(rune('0'+k%10))
}

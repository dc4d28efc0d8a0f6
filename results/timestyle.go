package results

import (
	"math"
	"strconv"
	"strings"
)

// Duration writes seconds as a person reads a duration: "9.2 s",
// "1 min 30 s", "1 h 57 min", "24 h", "5 d 4 h".
func Duration(seconds float64) string {
	switch s := seconds; {
	case math.IsNaN(s) || math.IsInf(s, 0):
		return strconv.FormatFloat(s, 'g', -1, 64) + " s"
	case s < 59.95:
		return strings.TrimSuffix(strconv.FormatFloat(s, 'f', 1, 64), ".0") + " s"
	case s < 3600-0.5:
		return units(math.Round(s), 60, "min", "s")
	case s < 100*3600-30:
		return units(math.Round(s/60), 60, "h", "min")
	}
	return units(math.Round(seconds/3600), 24, "d", "h")
}

// units writes n of the smaller unit as whole larger units and the rest:
// "1 h 57 min", "2 h".
func units(n, per float64, large, small string) string {
	whole, rest := math.Floor(n/per), math.Mod(n, per)
	out := strconv.FormatFloat(whole, 'f', 0, 64) + " " + large
	if rest > 0 {
		out += " " + strconv.FormatFloat(rest, 'f', 0, 64) + " " + small
	}
	return out
}

// Percent writes a fraction as a percentage with two significant digits,
// and at least the whole part: "9.6 %", "12 %", "0.096 %", "5064 %".
func Percent(fraction float64) string {
	v := 100 * fraction
	if v == 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return strconv.FormatFloat(v, 'g', -1, 64) + " %"
	}
	d := max(1-int(math.Floor(math.Log10(math.Abs(v)))), 0)
	return strconv.FormatFloat(v, 'f', d, 64) + " %"
}

// Figure writes a continuous figure with four significant digits, as the
// time model's textbook optima read: "120", "116.7", "9.167".
func Figure(v float64) string {
	if math.Abs(v) >= 1e4 {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}

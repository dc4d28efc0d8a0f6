package experiment

import (
	"math"
	"regexp"
	"strconv"

	"gopkg.in/yaml.v3"
)

// durationText is a duration written with a unit: a decimal number and one
// of s, m, h, d, such as 90s, 5m, 1.5h, 2d; a step may be negative.
var durationText = regexp.MustCompile(`^([-+]?)([0-9]+(\.[0-9]*)?|\.[0-9]+)(s|m|h|d)$`)

// durationPattern and durationStepPattern are the JSON Schema patterns of a
// duration with a unit, and of a range's step.
const (
	durationPattern     = `^\+?([0-9]+(\.[0-9]*)?|\.[0-9]+)(s|m|h|d)$`
	durationStepPattern = `^[-+]?([0-9]+(\.[0-9]*)?|\.[0-9]+)(s|m|h|d)$`
)

// unitSeconds are the seconds of a duration's unit.
var unitSeconds = map[string]float64{"s": 1, "m": 60, "h": 3600, "d": 86400}

// duration reads n as a duration in seconds: a number, or text with a unit.
func (c *checker) duration(n *yaml.Node, suffix, noun, want string) (float64, bool) {
	if !c.scalar(n, suffix, noun, want) {
		return 0, false
	}
	if n.ShortTag() != "!!str" {
		return c.number(n, suffix, noun, want)
	}
	m := durationText.FindStringSubmatch(n.Value)
	if m == nil {
		c.fail(n, suffix, "%s is not %s (want %s)", shown(n), noun, want)
		return 0, false
	}
	x, err := strconv.ParseFloat(m[2], 64)
	x *= unitSeconds[m[4]]
	if err != nil || math.IsInf(x, 0) {
		c.fail(n, suffix, "%s is too long a duration (want %s)", shown(n), want)
		return 0, false
	}
	if m[1] == "-" {
		x = -x
	}
	if x == 0 {
		x = 0 // no -0 in tables
	}
	return x, true
}

// durationWithin reports a duration outside the bounds of key d, as it
// was written.
func (c *checker) durationWithin(d *keyDef, n *yaml.Node, suffix string, x float64) bool {
	switch {
	case x < 0:
		c.fail(n, suffix, "%s is a negative duration, not %s (want %s)", shown(n), article(d.Noun), d.want())
	case d.Above && x == d.FMin:
		c.fail(n, suffix, "%s is not %s (want %s)", shown(n), article(d.Noun), d.want())
	default:
		return true
	}
	return false
}

// durationRange reads a range of durations: from + i·step up to to,
// inclusive of to when it is hit, step 1 second by default.
func (c *checker) durationRange(d *keyDef, n *yaml.Node, r rangeEnds) parsed {
	end := func(e *yaml.Node, suffix string) (float64, bool) {
		x, ok := c.duration(e, suffix, article(d.Noun), d.typeWant())
		return x, ok && c.durationWithin(d, e, suffix, x)
	}
	a, okA := end(r.from, ".from")
	b, okB := end(r.to, ".to")
	step, okS := 1.0, true
	if r.step != nil {
		const want = "a duration other than 0, such as 5m"
		step, okS = c.duration(r.step, ".step", "a step", want)
		if okS && step == 0 {
			c.fail(r.step, ".step", "%s is not a step (want %s)", shown(r.step), want)
			okS = false
		}
	}
	if !okA || !okB || !okS {
		return parsed{}
	}
	return c.floatSteps(n, r, a, b, step, func(i int) float64 { return a + float64(i)*step })
}

// durationSchema is the JSON Schema of one duration of key d: seconds, or
// text with a unit.
func durationSchema(d *keyDef) jsonObject {
	return jsonObject{{"oneOf", []any{numberAbove(d), jsonObject{{"type", "string"}, {"pattern", durationPattern}}}}}
}

// numberAbove is the JSON Schema of a number of key d, at least FMin or,
// for Above, more than FMin, without an upper bound.
func numberAbove(d *keyDef) jsonObject {
	if d.Above {
		return jsonObject{{"type", "number"}, {"exclusiveMinimum", d.FMin}}
	}
	return jsonObject{{"type", "number"}, {"minimum", d.FMin}}
}

package experiment

import (
	"ckptlab/internal/words"
	"cmp"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// hitTolerance is how close, in steps, a float range must come to its
// end for the end to count as hit: 0 to 1 by 0.05 reaches 1 within
// rounding, and has 21 values.
const hitTolerance = 1e-9

// rangeEnds are the nodes of a range mapping {from, to, step}.
type rangeEnds struct {
	from, to, step *yaml.Node
}

// rangeOf reads a range {from: A, to: B, step: S} of key d: the values
// A + i*S for i = 0, 1, ... up to B, inclusive of B when it is hit. S
// defaults to 1 and may be negative to count down.
func (c *checker) rangeOf(d *keyDef, n *yaml.Node, fr frame) parsed {
	r, ok := c.rangeKeys(n)
	if !ok {
		return parsed{}
	}
	if d.Type == typeFloat {
		return c.floatRange(d, n, r)
	}
	if d.Type == typeDuration {
		return c.durationRange(d, n, r)
	}
	return c.intRange(d, n, r, fr)
}

// rangeKeys reads the keys of a range mapping, reporting unknown,
// duplicate and missing ones.
func (c *checker) rangeKeys(n *yaml.Node) (rangeEnds, bool) {
	const want = "{from: A, to: B, step: S}"
	var r rangeEnds
	ok := true
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			c.fail(k, "", "%s is not a key of a range (want from, to or step)", kindName(k))
			ok = false
			continue
		}
		slot := map[string]**yaml.Node{"from": &r.from, "to": &r.to, "step": &r.step}[k.Value]
		switch {
		case slot == nil:
			c.fail(k, "."+k.Value, "unknown key in a range (%s)", suggestAmong(k.Value, []string{"from", "to", "step"}))
			ok = false
		case *slot != nil:
			c.fail(k, "."+k.Value, "duplicate key (want it once%s)", firstAt(c.p, *slot))
			ok = false
		default:
			*slot = v
		}
	}
	if r.from == nil {
		c.fail(n, "", "range has no from (want %s)", want)
		ok = false
	}
	if r.to == nil {
		c.fail(n, "", "range has no to (want %s)", want)
		ok = false
	}
	return r, ok
}

// firstAt says where the first of two duplicate keys is, when the place
// has lines. v is the first key's value.
func firstAt(p place, v *yaml.Node) string {
	if !p.Lines {
		return ""
	}
	return fmt.Sprintf("; first at line %d", v.Line)
}

// intRange reads a range of whole numbers or intervals.
func (c *checker) intRange(d *keyDef, n *yaml.Node, r rangeEnds, fr frame) parsed {
	end := func(e *yaml.Node, suffix string) (int64, bool) {
		if d.Type == typeInterval {
			want := fmt.Sprintf("1..%d", fr.maxInterval())
			x, ok := c.wholeNumber(e, suffix, article(d.Noun), want)
			return x, ok && c.intervalWithin(e, suffix, x, fr)
		}
		x, ok := c.wholeNumber(e, suffix, article(d.Noun), d.typeWant())
		return x, ok && c.within(d, e, suffix, x)
	}
	a, okA := end(r.from, ".from")
	b, okB := end(r.to, ".to")
	step, okS := int64(1), true
	if r.step != nil {
		const want = "a whole number other than 0"
		step, okS = c.wholeNumber(r.step, ".step", "a step", want)
		if okS && step == 0 {
			c.fail(r.step, ".step", "0 is not a step (want %s)", want)
			okS = false
		}
	}
	if !okA || !okB || !okS {
		return parsed{}
	}
	// a and b lie within the key's bounds, far from overflow.
	if (b-a < 0) != (step < 0) && b != a {
		c.wrongWay(n, r, formatInt(a), formatInt(b), formatInt(step))
		return parsed{}
	}
	count := (b-a)/step + 1
	if count > maxAxisValues {
		c.fail(n, "", "range has %d values (want at most %d, a safety cap)", count, maxAxisValues)
		return parsed{}
	}
	v := parsed{Ints: make([]int64, count), From: valueAt{r.from, ".from"}, To: valueAt{r.to, ".to"}}
	for i := range count {
		v.Ints[i] = a + i*step
	}
	return v
}

// floatRange reads a range of numbers. Values are from + i*step, computed
// afresh for each i so that no error accumulates; the last value is to
// itself when the range hits it.
func (c *checker) floatRange(d *keyDef, n *yaml.Node, r rangeEnds) parsed {
	end := func(e *yaml.Node, suffix string) (float64, bool) {
		x, ok := c.number(e, suffix, article(d.Noun), d.typeWant())
		return x, ok && c.withinFloat(d, e, suffix, x)
	}
	a, okA := end(r.from, ".from")
	b, okB := end(r.to, ".to")
	step, okS := 1.0, true
	if r.step != nil {
		const want = "a number other than 0"
		step, okS = c.number(r.step, ".step", "a step", want)
		if okS && step == 0 {
			c.fail(r.step, ".step", "0 is not a step (want %s)", want)
			okS = false
		}
	}
	if !okA || !okB || !okS {
		return parsed{}
	}
	lo, hi := min(a, b), max(a, b)
	exact := exactRange(r)
	return c.floatSteps(n, r, a, b, step, func(i int) float64 { return min(max(exact(i, a, step), lo), hi) })
}

// floatSteps expands a range of numbers from a to b by step, value i
// computed by at, and b itself last where the range hits it. It refuses a
// range that runs the wrong way, one past the cap and a step too small to
// tell values apart.
func (c *checker) floatSteps(n *yaml.Node, r rangeEnds, a, b, step float64, at func(i int) float64) parsed {
	q := (b - a) / step // the number of steps from a to b
	if q < 0 {
		c.wrongWay(n, r, words.Float(a), words.Float(b), words.Float(step))
		return parsed{}
	}
	if q >= maxAxisValues {
		c.fail(n, "", "range has more than %d values (want at most %d, a safety cap)", maxAxisValues, maxAxisValues)
		return parsed{}
	}
	k := math.Round(q)
	hit := math.Abs(q-k) <= hitTolerance
	if !hit {
		k = math.Floor(q)
	}
	count := int(k) + 1
	v := parsed{Floats: make([]float64, count), From: valueAt{r.from, ".from"}, To: valueAt{r.to, ".to"}}
	for i := range count {
		v.Floats[i] = at(i)
	}
	if hit {
		v.Floats[count-1] = b
	}
	for i := 1; i < count; i++ {
		if v.Floats[i] == v.Floats[i-1] {
			c.fail(cmp.Or(r.step, n), ".step", "%s is too small a step to tell values apart (want a larger step)", words.Float(step))
			return parsed{}
		}
	}
	return v
}

// exactRange returns the function that computes value i of a float range,
// from + i*step. Where from and step are written as decimals it computes in
// exact rational arithmetic and rounds once, so that 0 to 1 by 0.05 gives
// 0.15 and not 3*0.05 = 0.15000000000000002: the values a reader wrote are
// the values the tables show. Otherwise it computes in float64.
func exactRange(r rangeEnds) func(i int, from, step float64) float64 {
	stepText := "1"
	if r.step != nil {
		stepText = r.step.Value
	}
	if at, ok := decimalRange(r.from.Value, stepText); ok {
		return at
	}
	var from, step big.Rat
	if _, ok := from.SetString(r.from.Value); !ok {
		return floatAt
	}
	step.SetInt64(1)
	if r.step != nil {
		if _, ok := step.SetString(r.step.Value); !ok {
			return floatAt
		}
	}
	return func(i int, _, _ float64) float64 {
		var v big.Rat
		v.SetInt64(int64(i))
		v.Mul(&v, &step)
		v.Add(&v, &from)
		f, _ := v.Float64()
		return f
	}
}

// decimalRange is exactRange's fast path, for a range whose from and step
// are decimals of at most 15 digits after the point: the i-th value is the integer
// F + i·S over 10^k, both exact in a float64 while the numerator stays
// below 2^53, so one division rounds it as big.Rat would. It computes
// the values of a range of a million in microseconds, not a second.
func decimalRange(fromText, stepText string) (func(i int, from, step float64) float64, bool) {
	fm, fk, ok1 := decimalOf(fromText)
	sm, sk, ok2 := decimalOf(stepText)
	if !ok1 || !ok2 {
		return nil, false
	}
	const exact = 1 << 53
	k := max(fk, sk)
	if max(fm, -fm) >= exact/pow10[k-fk] || max(sm, -sm) >= exact/pow10[k-sk] {
		return nil, false
	}
	f, s := fm*pow10[k-fk], sm*pow10[k-sk]
	den := float64(pow10[k])
	return func(i int, _, _ float64) float64 {
		if s == 0 || int64(i) < exact/max(s, -s) {
			if v := f + int64(i)*s; -exact < v && v < exact {
				return float64(v) / den
			}
		}
		var v, r big.Rat
		v.SetInt64(int64(i))
		v.Mul(&v, r.SetFrac64(s, pow10[k]))
		v.Add(&v, r.SetFrac64(f, pow10[k]))
		out, _ := v.Float64()
		return out
	}, true
}

// pow10 are the powers of ten a decimal of at most 15 digits needs.
var pow10 = [...]int64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15}

// decimalOf reads a decimal of at most 16 digits, 15 after the point
// ("-0.05", "3", "1.25", "1e-06"), as m / 10^k; anything else is not ok.
func decimalOf(text string) (m int64, k int, ok bool) {
	neg := false
	if text != "" && (text[0] == '-' || text[0] == '+') {
		neg, text = text[0] == '-', text[1:]
	}
	if e := strings.IndexAny(text, "eE"); e >= 0 { // 1e-06: shift the point
		exp, err := strconv.Atoi(text[e+1:])
		if err != nil || exp < -len(pow10) || exp > len(pow10) {
			return 0, 0, false
		}
		m, k, ok = decimalOf(text[:e])
		if !ok {
			return 0, 0, false
		}
		for k -= exp; k < 0; k++ {
			if m >= 1<<53 || -m >= 1<<53 {
				return 0, 0, false
			}
			m *= 10
		}
		if k >= len(pow10) {
			return 0, 0, false
		}
		if neg {
			m = -m
		}
		return m, k, true
	}
	digits, point := 0, false
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case c == '.' && !point:
			point = true
		case '0' <= c && c <= '9':
			m = m*10 + int64(c-'0')
			digits++
			if point {
				k++
			}
		default:
			return 0, 0, false
		}
	}
	if digits == 0 || digits > 16 || k >= len(pow10) {
		return 0, 0, false
	}
	if neg {
		m = -m
	}
	return m, k, true
}

func floatAt(i int, from, step float64) float64 { return from + float64(i)*step }

// wrongWay reports a range whose step leads away from its end.
func (c *checker) wrongWay(n *yaml.Node, r rangeEnds, a, b, step string) {
	if r.step == nil {
		c.fail(n, "", "range from %s down to %s needs a negative step (want step: -1 or from <= to)", a, b)
		return
	}
	c.fail(r.step, ".step", "step %s leads from %s away from %s (want a step of the other sign)", step, a, b)
}

// formatInt writes a whole number in decimal.
func formatInt(i int64) string { return fmt.Sprint(i) }

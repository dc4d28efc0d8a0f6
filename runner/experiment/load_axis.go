package experiment

import (
	"slices"
	"strconv"

	"gopkg.in/yaml.v3"

	"ckptlab/internal/words"
	"ckptlab/model"
)

// parsed is the value of one key, read and checked but not yet put into an
// Experiment. Only the fields of the key's type are set.
type parsed struct {
	Ints   []int64       // typeInt; typeInterval, with 0 for none
	Floats []float64     // typeFloat; typeDuration, in seconds
	Text   string        // typeText, typeName
	Words  []string      // typeEnum
	Months []model.Month // typeMonth
	All    bool          // the word all
	// Where holds where each value was written; it is nil for a range,
	// whose values lie between From and To.
	Where    []valueAt
	From, To valueAt
}

// at returns where the i-th value was written; for a range, its end
// nearest to it.
func (v *parsed) at(i int) valueAt {
	switch {
	case v.Where != nil:
		return v.Where[i]
	case i == 0:
		return v.From
	}
	return v.To
}

// frame is what some values are checked against: the smallest periods
// value and the first period, when they are known.
type frame struct {
	minP    int // 0 when unknown
	start   model.Month
	startOK bool
}

// maxInterval is the largest interval the frame allows.
func (f frame) maxInterval() int {
	if f.minP > 0 {
		return f.minP
	}
	return maxPeriods
}

// failures returns the first and last period a failure may name: the 2nd
// and the last period of every periods value.
func (f frame) failures() (first, last model.Month, ok bool) {
	if f.minP == 0 || !f.startOK {
		return 0, 0, false
	}
	return f.start + 1, f.start + model.Month(f.minP-1), true
}

// values reads the value of key d at n: one value, a list, a range
// {from, to, step}, or the word all, as d allows. It reports whether the
// value is free of errors.
func (c *checker) values(d *keyDef, n *yaml.Node, fr frame) (parsed, bool) {
	before := len(c.errs)
	var v parsed
	switch {
	case d.Type == typeWeights:
		v = c.weights(d, n, fr)
	case n.Kind == yaml.MappingNode && d.Range:
		v = c.rangeOf(d, n, fr)
	case n.Kind == yaml.SequenceNode && d.Many:
		if len(n.Content) == 0 {
			c.fail(n, "", "empty list (want at least one %s)", d.Noun)
		}
		v.Where = []valueAt{}
		for i, item := range n.Content {
			c.one(d, item, "["+strconv.Itoa(i)+"]", fr, &v)
		}
		c.unique(d, &v)
	case d.All && isWord(n, "all"):
		v.All = true
	case dotRangeWant(d, n) != "":
		c.fail(n, "", "%s is not how YAML writes a range (want %s)", shown(n), dotRangeWant(d, n))
	default:
		c.one(d, n, "", fr, &v)
	}
	return v, len(c.errs) == before
}

// isWord reports whether n is the plain or quoted text w.
func isWord(n *yaml.Node, w string) bool {
	return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!str" && n.Value == w
}

// one reads a single value of key d and appends it to v.
func (c *checker) one(d *keyDef, n *yaml.Node, suffix string, fr frame, v *parsed) {
	noun := article(d.Noun)
	if d.All && suffix != "" && isWord(n, "all") {
		c.fail(n, suffix, "all is not allowed in a list (want %s: all alone)", d.Name)
		return
	}
	if want := dotRangeWant(d, n); want != "" {
		c.fail(n, suffix, "%s is not how YAML writes a range (want %s: %s, a range in place of the list)", shown(n), d.Name, want)
		return
	}
	where := valueAt{n, suffix}
	switch d.Type {
	case typeInt:
		if d.Word != "" && isWord(n, d.Word) {
			v.Ints, v.Where = append(v.Ints, wordValue), append(v.Where, where)
			return
		}
		if c.nearWord(d, n, suffix) {
			return
		}
		x, ok := c.wholeNumber(n, suffix, noun, d.typeWant())
		if ok && c.within(d, n, suffix, x) {
			v.Ints, v.Where = append(v.Ints, x), append(v.Where, where)
		}
	case typeInterval:
		want := intervalWant(fr.maxInterval())
		if isWord(n, "none") {
			v.Ints, v.Where = append(v.Ints, int64(model.None)), append(v.Where, where)
			return
		}
		x, ok := c.wholeNumber(n, suffix, noun, want)
		if ok && c.intervalWithin(n, suffix, x, fr) {
			v.Ints, v.Where = append(v.Ints, x), append(v.Where, where)
		}
	case typeFloat:
		x, ok := c.number(n, suffix, noun, d.typeWant())
		if ok && c.withinFloat(d, n, suffix, x) {
			v.Floats, v.Where = append(v.Floats, x), append(v.Where, where)
		}
	case typeDuration:
		x, ok := c.duration(n, suffix, noun, d.typeWant())
		if ok && c.durationWithin(d, n, suffix, x) {
			v.Floats, v.Where = append(v.Floats, x), append(v.Where, where)
		}
	case typeEnum:
		s, ok := c.text(n, suffix, noun, d.want())
		if ok && !slices.Contains(d.Enum, s) {
			hint := ""
			if near := nearest(s, d.Enum); near != nil {
				hint = "; did you mean " + words.Or(near) + "?"
			}
			c.fail(n, suffix, "%s is not %s (want %s%s)", shown(n), noun, d.want(), hint)
			ok = false
		}
		if ok {
			v.Words, v.Where = append(v.Words, s), append(v.Where, where)
		}
	case typeText, typeName:
		s, ok := c.text(n, suffix, noun, d.want())
		if ok && d.Type == typeName && !namePattern.MatchString(s) {
			c.fail(n, suffix, "%s is not a valid name (want %s)", shown(n), d.want())
			ok = false
		}
		if ok {
			v.Text, v.Where = s, append(v.Where, where)
		}
	case typeMonth:
		m, ok := c.month(n, suffix, noun)
		if ok && d.Label {
			ok = c.labelWithin(n, suffix, m, fr)
		}
		if ok {
			v.Months, v.Where = append(v.Months, m), append(v.Where, where)
		}
	}
}

// intervalWithin reports an interval outside 1..P for the smallest
// periods value P.
func (c *checker) intervalWithin(n *yaml.Node, suffix string, x int64, fr frame) bool {
	if x < 1 || x > int64(fr.maxInterval()) {
		c.fail(n, suffix, "%d is not an interval (want %s)", x, intervalWant(fr.maxInterval()))
		return false
	}
	return true
}

// labelWithin reports a failure label outside the 2nd..last period of
// every periods value.
func (c *checker) labelWithin(n *yaml.Node, suffix string, m model.Month, fr frame) bool {
	first, last, ok := fr.failures()
	if ok && (m < first || m > last) {
		c.fail(n, suffix, "%s is not a period after the first of every periods value (want %s..%s)",
			m, first, last)
		return false
	}
	return true
}

// unique reports every value of a list that an earlier one repeats.
func (c *checker) unique(d *keyDef, v *parsed) {
	seen := make(map[string]bool, len(v.Where))
	for i, w := range v.Where {
		var k string
		switch d.Type {
		case typeInt, typeInterval:
			k = model.Interval(v.Ints[i]).String()
			if d.Type == typeInt {
				k = strconv.FormatInt(v.Ints[i], 10)
			}
			if d.Word != "" && v.Ints[i] == wordValue {
				k = d.Word
			}
		case typeFloat, typeDuration:
			k = words.Float(v.Floats[i])
		case typeEnum:
			k = v.Words[i]
		case typeMonth:
			k = v.Months[i].String()
		default:
			continue
		}
		if seen[k] {
			c.fail(w.Node, w.Suffix, "%s is listed twice (want each %s once)", k, d.Noun)
		}
		seen[k] = true
	}
}

// article puts "a" or "an" before a noun.
func article(noun string) string {
	if noun != "" && slices.Contains([]byte("aeiou"), noun[0]) {
		return "an " + noun
	}
	return "a " + noun
}

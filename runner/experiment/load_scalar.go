package experiment

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"ckptlab/internal/words"
	"ckptlab/model"
)

// checker collects the errors found in the values written at one place.
type checker struct {
	p    place
	errs ErrorList
}

// fail records an error about node n at suffix below the key.
func (c *checker) fail(n *yaml.Node, suffix, format string, args ...any) {
	c.errs = append(c.errs, c.p.errorAt(n, suffix, format, args...))
}

// numericText is anything that reads as a number once unquoted.
var numericText = regexp.MustCompile(`^[-+]?(\.[0-9]+|[0-9][0-9_]*(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`)

// isDecimal reports whether s is the one spelling of a whole number this
// loader accepts: an optional sign and decimal digits, without leading
// zeros. YAML's 0x10, 0o17, 1_000 and the octal 017 are refused rather
// than guessed at.
func isDecimal(s string) bool {
	digits := strings.TrimLeft(s, "+-")
	if len(s)-len(digits) > 1 || digits == "" || (digits[0] == '0' && len(digits) > 1) {
		return false
	}
	return strings.Trim(digits, "0123456789") == ""
}

// hasLeadingZero reports whether s is a whole number with a leading zero,
// which YAML 1.1 reads as octal.
func hasLeadingZero(s string) bool {
	digits := strings.TrimLeft(s, "+-")
	return len(s)-len(digits) <= 1 && len(digits) > 1 && digits[0] == '0' &&
		strings.Trim(digits, "0123456789") == ""
}

// scalar checks that n is a scalar that is not null, and reports otherwise.
func (c *checker) scalar(n *yaml.Node, suffix, noun, want string) bool {
	switch {
	case n.Kind != yaml.ScalarNode:
		c.fail(n, suffix, "%s is not %s (want %s)", kindName(n), noun, want)
		return false
	case n.ShortTag() == "!!null":
		c.fail(n, suffix, "missing value (want %s)", want)
		return false
	}
	return true
}

// notA reports a scalar of the wrong type, with a hint when it is a
// number in quotes.
func (c *checker) notA(n *yaml.Node, suffix, noun, want string) {
	hint := ""
	if n.ShortTag() == "!!str" && numericText.MatchString(n.Value) && n.Style != 0 {
		hint = ", without quotes"
	}
	c.fail(n, suffix, "%s is not %s (want %s%s)", shown(n), noun, want, hint)
}

// wholeNumber reads n as a whole number written in decimal.
func (c *checker) wholeNumber(n *yaml.Node, suffix, noun, want string) (int64, bool) {
	if !c.scalar(n, suffix, noun, want) {
		return 0, false
	}
	switch n.ShortTag() {
	case "!!int":
		if hasLeadingZero(n.Value) {
			c.fail(n, suffix, "%s has a leading zero, which YAML reads as octal (want %s, in decimal)", shown(n), want)
			return 0, false
		}
		if !isDecimal(n.Value) {
			c.fail(n, suffix, "%s is not a decimal number (want %s)", shown(n), want)
			return 0, false
		}
		v, err := strconv.ParseInt(n.Value, 10, 64)
		if err != nil {
			c.fail(n, suffix, "%s does not fit in 64 bits (want %s)", shown(n), want)
			return 0, false
		}
		return v, true
	case "!!float":
		if isDecimal(n.Value) {
			c.fail(n, suffix, "%s does not fit in 64 bits (want %s)", shown(n), want)
			return 0, false
		}
	}
	c.notA(n, suffix, noun, want)
	return 0, false
}

// number reads n as a finite number, whole or not.
func (c *checker) number(n *yaml.Node, suffix, noun, want string) (float64, bool) {
	if !c.scalar(n, suffix, noun, want) {
		return 0, false
	}
	switch n.ShortTag() {
	case "!!int":
		v, ok := c.wholeNumber(n, suffix, noun, want)
		return float64(v), ok
	case "!!float":
		v, err := strconv.ParseFloat(n.Value, 64)
		switch {
		case err != nil && !numericText.MatchString(n.Value):
			// .nan, .inf and their spellings
			c.fail(n, suffix, "%s is not a finite number (want %s)", shown(n), want)
			return 0, false
		case err != nil || math.IsInf(v, 0) || math.IsNaN(v):
			c.fail(n, suffix, "%s is not a plain decimal number (want %s)", shown(n), want)
			return 0, false
		}
		if v == 0 {
			v = 0 // no -0 in tables
		}
		return v, true
	}
	c.notA(n, suffix, noun, want)
	return 0, false
}

// text reads n as text.
func (c *checker) text(n *yaml.Node, suffix, noun, want string) (string, bool) {
	if !c.scalar(n, suffix, noun, want) {
		return "", false
	}
	if n.ShortTag() != "!!str" {
		c.fail(n, suffix, "%s is not text (want %s; quote it: %q)", shown(n), want, shortened(n.Value, 40))
		return "", false
	}
	return n.Value, true
}

// month reads n as a period label YYYY-MM.
func (c *checker) month(n *yaml.Node, suffix, noun string) (model.Month, bool) {
	const want = "YYYY-MM"
	if !c.scalar(n, suffix, noun, want) {
		return 0, false
	}
	m, err := model.ParseMonth(n.Value)
	if n.ShortTag() != "!!str" || err != nil {
		c.fail(n, suffix, "%s is not %s (want %s)", shown(n), noun, want)
		return 0, false
	}
	return m, true
}

// within reports v when it lies outside the bounds of key d.
func (c *checker) within(d *keyDef, n *yaml.Node, suffix string, v int64) bool {
	switch {
	case v < d.Min:
		c.fail(n, suffix, "%d is not %s (want %s)", v, article(d.Noun), d.want())
	case v > d.Max && d.Cap:
		c.fail(n, suffix, "%d is not %s (want <= %d, a safety cap)", v, article(d.Noun), d.Max)
	case v > d.Max:
		c.fail(n, suffix, "%d is not %s (want %s)", v, article(d.Noun), d.want())
	default:
		return true
	}
	return false
}

// withinFloat reports v when it lies outside the bounds of key d.
func (c *checker) withinFloat(d *keyDef, n *yaml.Node, suffix string, v float64) bool {
	if v < d.FMin || v > d.FMax || (d.Below && v == d.FMax) || (d.Above && v == d.FMin) {
		c.fail(n, suffix, "%s is not %s (want %s)", words.Float(v), article(d.Noun), d.want())
		return false
	}
	return true
}

// typeWant is what a value of key d must be, for messages about its type.
func (d *keyDef) typeWant() string {
	if d.Type == typeInt && d.Word != "" {
		return "a whole number " + d.want() + " or " + d.Word
	}
	if d.Type == typeInt && d.Min != d.Max {
		return "a whole number " + d.want()
	}
	return d.want()
}

// intervalWant is what an interval must be when the smallest periods
// value is p.
func intervalWant(p int) string {
	return fmt.Sprintf("none, all, or 1..%d", p)
}

// wordValue is the value a key's Word stands for in parsed.Ints: for
// state_rows, the subscribers of each source, resolved per source.
const wordValue = subscriberState

// nearWord reports a text that looks like a misspelling of key d's word,
// such as subscriber for subscribers, with a suggestion.
func (c *checker) nearWord(d *keyDef, n *yaml.Node, suffix string) bool {
	if d.Word == "" || n.Kind != yaml.ScalarNode || n.ShortTag() != "!!str" || numericText.MatchString(n.Value) {
		return false
	}
	if editDistance(strings.ToLower(n.Value), d.Word) > 2 {
		return false
	}
	c.fail(n, suffix, "%s is not %s (want %s; did you mean %s?)", shown(n), article(d.Noun), d.typeWant(), d.Word)
	return true
}

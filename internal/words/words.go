// Package words writes the bits of English that ckptlab's messages, plan,
// headline and reports share: a noun for a count, and lists of values. One
// package, so that every output counts and lists things in the same words.
package words

import (
	"strconv"
	"strings"
)

// Plural returns one when n is 1, many otherwise.
func Plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Format writes each value with format: the one way a list of values
// becomes text, before it is joined.
func Format[T any](values []T, format func(T) string) []string {
	out := make([]string, len(values))
	for i, v := range values {
		out[i] = format(v)
	}
	return out
}

// Or joins words as "a, b or c": what a message wants when it is one of a
// few words.
func Or(words []string) string { return joinLast(words, " or ") }

// And joins words as "a, b and c".
func And(words []string) string { return joinLast(words, " and ") }

func joinLast(words []string, last string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + last + words[len(words)-1]
}

// Float writes a float in the shortest decimal form that reads back to
// the same value, without an exponent: a probability or a risk level as a
// file would write it, in messages, in the plan of a run and in its
// headline.
func Float(f float64) string {
	return strconv.FormatFloat(f, 'f', -1, 64)
}

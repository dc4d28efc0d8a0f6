// Package words writes the bits of English that ckptlab's outputs share.
// Messages, the plan, the headline and reports use it.
// It gives a noun for a count, and lists of values.
// With one package, every output counts and lists things in the same words.
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

// Format writes each value with format.
// It is the one way a list of values becomes text, before it is joined.
func Format[T any](values []T, format func(T) string) []string {
	out := make([]string, len(values))
	for i, v := range values {
		out[i] = format(v)
	}
	return out
}

// Or joins words as "a, b or c".
// A message wants it when a value must be one of a few words.
func Or(words []string) string { return joinLast(words, " or ") }

// And joins words as "a, b and c".
func And(words []string) string { return joinLast(words, " and ") }

func joinLast(words []string, last string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + last + words[len(words)-1]
}

// Float writes a float in the shortest decimal that reads back to the same value.
// It uses no exponent.
// It writes a probability or a risk level as a file would.
// Messages, the plan of a run and its headline use it.
func Float(f float64) string {
	return strconv.FormatFloat(f, 'f', -1, 64)
}

package safefile

import (
	"strconv"
	"unicode"
	"unicode/utf8"
)

// Excerpt returns at most n characters of s for a message.
// It cuts at a character and marks the cut with "…".
// It quotes s with escapes when s holds anything but printable text:
// control characters, terminal escapes, bidirectional marks, or bytes that
// are not UTF-8.
func Excerpt(s string, n int) string {
	cut := false
	if utf8.RuneCountInString(s) > n {
		i, k := 0, 0
		for i = range s {
			if k == n {
				break
			}
			k++
		}
		s, cut = s[:i], true
	}
	plain := utf8.ValidString(s)
	for _, r := range s {
		if !unicode.IsPrint(r) {
			plain = false
			break
		}
	}
	if !plain {
		s = strconv.Quote(s)
	}
	if cut {
		s += "…"
	}
	return s
}

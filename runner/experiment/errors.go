package experiment

import (
	"ckptlab/internal/words"
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Origins of values that do not come from a file: their errors name the
// override instead of a position.
const (
	OriginSet = "--set" // a --set key=value argument
	OriginEnv = "env"   // a CKPTLAB_<KEY> environment variable
)

// Error is one thing wrong with an experiment. File is the path of the
// experiment file, or OriginSet or OriginEnv for an override, which has no
// position (Line and Col are 0). Key is the path of the offending value,
// such as "intervals[2]" or "workers.step"; for an environment variable it
// is the variable's name, such as "CKPTLAB_WORKERS".
type Error struct {
	File      string
	Line, Col int
	Key, Msg  string
	// Via is, for an error in a base, the chain of extends that brought
	// the base in, innermost first: "in experiments/large-job.yaml:1:10:
	// extends". It is empty for the file the command line names.
	Via string
}

// Error formats the error as FILE:LINE:COL: KEY: MSG; as ORIGIN KEY: MSG
// for an override; and as FILE: KEY: MSG for an error of a whole file. An
// empty key is left out.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	switch {
	case e.Line > 0:
		fmt.Fprintf(&b, ":%d:%d:", e.Line, e.Col)
	case e.File == OriginSet || e.File == OriginEnv:
		// the key follows the origin: --set workers
	default:
		b.WriteString(":")
	}
	if e.Key != "" {
		// A key is what the file wrote: shortened, and escaped unless it
		// is printable text.
		key := shortened(e.Key, 80)
		if !printable(key) {
			key = strconv.Quote(key)
		}
		b.WriteString(" " + key + ":")
	}
	b.WriteString(" " + e.Msg)
	if e.Via != "" {
		b.WriteString("; " + e.Via)
	}
	return b.String()
}

// at writes the error without its chain: where it is, and what.
func (e *Error) at() string {
	c := *e
	c.Via = ""
	return c.Error()
}

// ErrorList is every error found in one or more experiment files. Its
// Error method writes one line per error.
type ErrorList []*Error

// maxErrorsShown is how many errors ErrorList.Error writes; it counts the
// rest. A file of a million bad list items is fixed a pattern at a time,
// not by reading a million lines.
const maxErrorsShown = 100

// Error writes one error per line, without a final newline: the first
// maxErrorsShown, then how many more there are.
func (l ErrorList) Error() string {
	shown := l[:min(len(l), maxErrorsShown)]
	lines := make([]string, len(shown), len(shown)+1)
	for i, e := range shown {
		lines[i] = e.Error()
	}
	if rest := len(l) - len(shown); rest > 0 {
		lines = append(lines, fmt.Sprintf("… and %d more %s (fix these first, then validate again)", rest, words.Plural(rest, "error", "errors")))
	}
	return strings.Join(lines, "\n")
}

// sortErrors orders the errors of one experiment by file, in the order
// the files were read (order, the file itself first), and by position in
// each; errors of overrides, which have none, follow in the order they
// were found.
func sortErrors(l ErrorList, order map[string]int) {
	slices.SortStableFunc(l, func(a, b *Error) int {
		if c := cmp.Compare(errorRank(a), errorRank(b)); c != 0 {
			return c
		}
		if a.Line == 0 {
			return 0
		}
		return cmp.Or(cmp.Compare(order[a.File], order[b.File]),
			cmp.Compare(a.Line, b.Line), cmp.Compare(a.Col, b.Col), cmp.Compare(a.Via, b.Via))
	})
}

// rank sorts positioned errors before override errors, env before --set,
// as the overrides take effect.
func errorRank(e *Error) int {
	switch {
	case e.Line > 0:
		return 0
	case e.File == OriginEnv:
		return 2
	case e.File == OriginSet:
		return 3
	}
	return 1
}

// pluralNoun returns the Plural of a noun of the messages: "case" and
// "cases", "exclude entry" and "exclude entries".
func pluralNoun(noun string) string {
	if strings.HasSuffix(noun, "y") {
		return noun[:len(noun)-1] + "ies"
	}
	return noun + "s"
}

package runner

import (
	"cmp"
	"fmt"
	"slices"
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
		b.WriteString(" " + e.Key + ":")
	}
	b.WriteString(" " + e.Msg)
	return b.String()
}

// ErrorList is every error found in one or more experiment files. Its
// Error method writes one line per error.
type ErrorList []*Error

// Error writes one error per line, without a final newline.
func (l ErrorList) Error() string {
	lines := make([]string, len(l))
	for i, e := range l {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

// sortErrors orders the errors of one file by position; errors of
// overrides, which have none, follow in the order they were found.
func sortErrors(l ErrorList) {
	slices.SortStableFunc(l, func(a, b *Error) int {
		if c := cmp.Compare(errorRank(a), errorRank(b)); c != 0 {
			return c
		}
		if a.Line == 0 {
			return 0
		}
		return cmp.Or(cmp.Compare(a.Line, b.Line), cmp.Compare(a.Col, b.Col))
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

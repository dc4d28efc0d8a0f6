package experiment

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// This file turns the YAML mistakes people make most into errors that say
// what happened and how to write it: a tab, a colon without a space in a
// flow mapping, a range written 0..1.

// tabSays is what an error about a tab tells.
const tabSays = "a tab: YAML indents with spaces, never tabs (want spaces in place of the tab)"

// tabProblem reports whether a problem of the YAML scanner may be a tab's:
// yaml.v3 names a tab in some messages, and in others says only that a
// character cannot start a token.
func tabProblem(msg string) bool {
	return strings.Contains(msg, "tab character") || msg == "found character that cannot start any token"
}

// tabError returns the error of a tab at or just after line (from 1) of
// data, the line the scanner named, or nil when no tab is there.
func tabError(data []byte, line int, p place) *Error {
	lines := bytes.Split(data, []byte("\n"))
	if !p.Lines {
		if bytes.IndexByte(data, '\t') < 0 {
			return nil
		}
		return p.errorAt(nil, "", "%s", tabSays)
	}
	for i := max(line-1, 0); i < min(line+1, len(lines)); i++ {
		col := bytes.IndexByte(lines[i], '\t')
		if col < 0 {
			continue
		}
		e := p.errorAt(nil, "", "%s", tabSays)
		e.Line, e.Col, e.Key = i+1, col+1, lineKey(lines, i)
		return e
	}
	return nil
}

var (
	// keyLine matches a line that starts with a key, indented or not, or
	// as a list item.
	keyLine = regexp.MustCompile(`^[ \t]*(?:- )?([A-Za-z_][A-Za-z0-9_]*)[ \t]*:`)
	// openerLine matches a top-level key whose value follows on the next
	// lines.
	openerLine = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_]*)[ \t]*:[ \t]*(#.*)?$`)
)

// lineKey names the key that line i of a file sets, as far as its text
// tells: its own key, below the top-level key it is indented under.
func lineKey(lines [][]byte, i int) string {
	own := ""
	if m := keyLine.FindSubmatch(lines[i]); m != nil {
		own = string(m[1])
	}
	if len(lines[i]) == 0 || lines[i][0] != ' ' && lines[i][0] != '\t' {
		return own
	}
	for j := i - 1; j >= 0; j-- {
		l := lines[j]
		if len(bytes.TrimSpace(l)) == 0 || l[0] == ' ' || l[0] == '\t' || l[0] == '#' {
			continue
		}
		m := openerLine.FindSubmatch(l)
		switch {
		case m == nil:
			return own
		case own == "":
			return string(m[1])
		}
		return string(m[1]) + "." + own
	}
	return own
}

// gluedKey matches a plain key of a flow mapping that holds a colon with
// no space after it, as YAML reads from:1 in {from:1}: one word, with no
// value.
var gluedKey = regexp.MustCompile(`^[^:\s]+:[^\s:]`)

// gluedColon returns the first flow mapping in the tree at n, the value
// at suffix, with a key such as from:1, and its path; nil when there is
// none.
func gluedColon(n *yaml.Node, suffix string) (*yaml.Node, string) {
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if n.Style&yaml.FlowStyle != 0 && k.Kind == yaml.ScalarNode && k.Style == 0 &&
				gluedKey.MatchString(k.Value) && v.ShortTag() == "!!null" && v.Value == "" {
				return n, suffix
			}
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			if m, s := gluedColon(n.Content[i+1], joinKey(suffix, n.Content[i])); m != nil {
				return m, s
			}
		}
	case yaml.SequenceNode:
		for i, c := range n.Content {
			if m, s := gluedColon(c, suffix+"["+strconv.Itoa(i)+"]"); m != nil {
				return m, s
			}
		}
	}
	return nil, ""
}

// colonSays is what an error about a colon without a space tells, before
// the value written right.
const colonSays = "a colon takes a space after it: YAML reads %s as one word, not a key and its value"

// gluedError returns the error of a flow mapping in the value n of a file
// that glues a colon to a value, with the mapping written right; nil when
// there is none.
func gluedError(n *yaml.Node, p place) *Error {
	m, suffix := gluedColon(n, "")
	if m == nil {
		return nil
	}
	return p.errorAt(m, suffix, colonSays+" (want %s)", gluedWord(m), flowText(m))
}

// gluedSet returns the error of an override whose value glues a colon to
// a value in a flow mapping, with the --set argument written right.
func gluedSet(value string, root *yaml.Node, p place) *Error {
	m, suffix := gluedColon(root, "")
	if m == nil {
		return nil
	}
	fixed := regexp.MustCompile(`([^\s{,:]):([^\s:])`).ReplaceAllString(value, "$1: $2")
	fixed = regexp.MustCompile(`,([^\s])`).ReplaceAllString(fixed, ", $1")
	want := fmt.Sprintf("--set '%s=%s'", p.Name, fixed)
	if p.File == OriginEnv {
		want = p.Name + "='" + fixed + "'"
	}
	return p.errorAt(m, suffix, colonSays+" (want %s)", gluedWord(m), want)
}

// gluedWord returns the first key of m that glues a colon to its value.
func gluedWord(m *yaml.Node) string {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if k := m.Content[i]; gluedKey.MatchString(k.Value) {
			return shown(k)
		}
	}
	return ""
}

// flowText writes n in YAML flow syntax with a space after each colon and
// comma, splitting a glued key such as from:1 into its key and value.
func flowText(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		var parts []string
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if key, value, ok := strings.Cut(k.Value, ":"); ok && k.Style == 0 && v.ShortTag() == "!!null" && v.Value == "" {
				parts = append(parts, key+": "+value)
				continue
			}
			parts = append(parts, flowText(k)+": "+flowText(v))
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case yaml.SequenceNode:
		parts := make([]string, len(n.Content))
		for i, c := range n.Content {
			parts[i] = flowText(c)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	return shown(n)
}

// dotRange matches a range written as in some languages, 0..1 or 1...4.
var dotRange = regexp.MustCompile(`^\s*(-?[0-9][0-9_]*(?:\.[0-9]+)?)\s*\.\.\.?\s*(-?[0-9][0-9_]*(?:\.[0-9]+)?)\s*$`)

// dotRangeWant returns, for a value of key d written as a..b, the range
// it may mean in YAML, {from: a, to: b} with a step for a key of
// fractions; "" when n is no such value.
func dotRangeWant(d *keyDef, n *yaml.Node) string {
	if !d.Range || n.Kind != yaml.ScalarNode || n.ShortTag() != "!!str" {
		return ""
	}
	m := dotRange.FindStringSubmatch(n.Value)
	if m == nil {
		return ""
	}
	if d.Type == typeFloat {
		return fmt.Sprintf("{from: %s, to: %s, step: …}", m[1], m[2])
	}
	return fmt.Sprintf("{from: %s, to: %s}", m[1], m[2])
}

package experiment

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"ckptlab/internal/safefile"
)

// place is where a value was written: a file, or an override. Errors about
// the value name the place.
type place struct {
	File  string // the file's path, OriginSet or OriginEnv
	Name  string // the key as errors name it: "workers", or "CKPTLAB_WORKERS"
	Lines bool   // whether node positions are positions in File
	Via   string // for a base, the chain that brought it in (see Error.Via)
}

// errorAt returns an error about node n, whose path below the key is
// suffix ("", "[2]", ".step").
func (p place) errorAt(n *yaml.Node, suffix, format string, args ...any) *Error {
	e := &Error{File: p.File, Key: p.Name + suffix, Msg: fmt.Sprintf(format, args...), Via: p.Via}
	if p.Lines {
		e.Line, e.Col = 1, 1
		if n != nil && n.Line > 0 {
			e.Line, e.Col = n.Line, max(n.Column, 1)
		}
	}
	return e
}

// overrideName names the override a place is: "--set workers" or
// "CKPTLAB_WORKERS".
func (p place) overrideName() string {
	if p.File == OriginSet {
		return OriginSet + " " + p.Name
	}
	return p.Name
}

// valueAt names one value: its node and its path below the key.
type valueAt struct {
	Node   *yaml.Node
	Suffix string
}

// yamlLine matches the line number yaml.v3 puts in its syntax errors.
var yamlLine = regexp.MustCompile(`^yaml: line (\d+): `)

// parseDocument parses data as a single YAML document and returns its
// content node, or nil for a document without content. More values than
// maxValues, syntax errors, a panic of the parser and a second document are
// reported at p.
func parseDocument(data []byte, p place) (root *yaml.Node, errs ErrorList) {
	if e := checkValueCount(data, p); e != nil {
		return nil, ErrorList{e}
	}
	docs, err := decodeDocuments(data)
	if err != nil {
		return nil, ErrorList{syntaxError(err, data, p)}
	}
	if len(docs) > 1 {
		return nil, ErrorList{p.errorAt(docs[1], "",
			"a second YAML document starts here (want one document per file)")}
	}
	if len(docs) == 0 || len(docs[0].Content) == 0 {
		return nil, nil
	}
	return docs[0].Content[0], nil
}

// decodeDocuments decodes up to two documents: enough to know whether
// there is more than one.
func decodeDocuments(data []byte) ([]*yaml.Node, error) {
	return withoutPanic(func() ([]*yaml.Node, error) {
		var docs []*yaml.Node
		dec := yaml.NewDecoder(bytes.NewReader(data))
		for len(docs) < 2 {
			var doc yaml.Node
			if err := dec.Decode(&doc); errors.Is(err, io.EOF) {
				break
			} else if err != nil {
				return nil, err
			}
			docs = append(docs, &doc)
		}
		return docs, nil
	})
}

// withoutPanic calls parse and returns a panic as an error:
// gopkg.in/yaml.v3 panics on some malformed inputs instead of failing.
func withoutPanic(parse func() ([]*yaml.Node, error)) (docs []*yaml.Node, err error) {
	defer func() {
		if r := recover(); r != nil {
			docs, err = nil, fmt.Errorf("yaml: the parser failed: %v", r)
		}
	}()
	return parse()
}

// parserProblems are the problems the parser of gopkg.in/yaml.v3 reports,
// as opposed to its scanner. For them it gives the 0-based line of the
// construct it was parsing, such as the [ of an unclosed list; the line
// of an Error is that line counted from 1.
var parserProblems = map[string]bool{
	"did not find expected ',' or ']'":       true,
	"did not find expected ',' or '}'":       true,
	"did not find expected '-' indicator":    true,
	"did not find expected <document start>": true,
	"did not find expected <stream-start>":   true,
	"did not find expected key":              true,
	"did not find expected node content":     true,
	"found duplicate %TAG directive":         true,
	"found duplicate %YAML directive":        true,
	"found incompatible YAML document":       true,
	"found undefined tag handle":             true,
}

// syntaxError turns an error of the YAML parser over data into an Error
// at the line the parser names, or at the start of the file when it names
// none. A tab is named as such, at its place.
func syntaxError(err error, data []byte, p place) *Error {
	msg := err.Error()
	e := p.errorAt(nil, "", "")
	line := 0
	if m := yamlLine.FindStringSubmatch(msg); m != nil {
		msg = msg[len(m[0]):]
		if n, err := strconv.Atoi(m[1]); err == nil && n > 0 && p.Lines {
			e.Line, line = n, n
			if parserProblems[msg] {
				e.Line++
			}
		}
	}
	msg = strings.TrimPrefix(msg, "yaml: ")
	if tabProblem(msg) {
		if t := tabError(data, line, p); t != nil {
			return t
		}
	}
	if p.Lines {
		e.Key = ""
		e.Msg = "syntax error: " + msg
	} else {
		e.Msg = "syntax error: " + msg + " (want a YAML flow value, such as [none, 4, 6])"
	}
	return e
}

// yamlTags are the tags a value may carry. Any other tag, such as a local
// !tag, is refused.
var yamlTags = map[string]bool{
	"!!str": true, "!!int": true, "!!float": true, "!!bool": true, "!!null": true,
	"!!timestamp": true, "!!map": true, "!!seq": true, "!!binary": true, "!!merge": true,
}

// checkPlain reports every anchor, alias, merge key and unknown tag in the
// tree at n, the value at suffix. An experiment file needs none of them,
// and refusing aliases at their position is what keeps alias bombs
// (billion laughs) harmless: no alias is ever followed.
func checkPlain(n *yaml.Node, suffix string, p place) ErrorList {
	var errs ErrorList
	var walk func(n *yaml.Node, suffix string)
	walk = func(n *yaml.Node, suffix string) {
		errs = append(errs, checkNode(n, suffix, p)...)
		switch n.Kind {
		case yaml.SequenceNode:
			for i, c := range n.Content {
				walk(c, suffix+"["+strconv.Itoa(i)+"]")
			}
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				k, v := n.Content[i], n.Content[i+1]
				walk(k, suffix)
				walk(v, joinKey(suffix, k))
			}
		}
	}
	walk(n, suffix)
	return errs
}

// checkNode reports an anchor, alias, merge key or unknown tag on n itself.
func checkNode(n *yaml.Node, suffix string, p place) ErrorList {
	var errs ErrorList
	if n.Anchor != "" {
		errs = append(errs, p.errorAt(n, suffix,
			"anchor &%s is not allowed (want the value written out)", safefile.Excerpt(n.Anchor, 24)))
	}
	switch tag := n.ShortTag(); {
	case n.Kind == yaml.AliasNode:
		errs = append(errs, p.errorAt(n, suffix,
			"alias *%s is not allowed (want the value written out)", safefile.Excerpt(n.Value, 24)))
	case tag == "!!merge":
		errs = append(errs, p.errorAt(n, suffix,
			"merge key << is not allowed (want the keys written out)"))
	case !yamlTags[tag]:
		errs = append(errs, p.errorAt(n, suffix, "tag %s is not allowed (want a plain value)", safefile.Excerpt(tag, 24)))
	}
	return errs
}

// joinKey returns the path of the value of key k in the mapping at suffix.
func joinKey(suffix string, k *yaml.Node) string {
	name := k.Value
	if k.Kind != yaml.ScalarNode {
		name = "?"
	}
	if suffix == "" {
		return name
	}
	return suffix + "." + name
}

// kindName names the kind of a node for messages: "a list", "a mapping".
func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.SequenceNode:
		return "a list"
	case yaml.MappingNode:
		return "a mapping"
	case yaml.AliasNode:
		return "an alias"
	case yaml.DocumentNode:
		return "a document"
	}
	return "a single value"
}

// shown writes a scalar as the user wrote it, quoted when it was quoted,
// and shortened when long.
// Anything but printable text (a terminal escape, a bidirectional mark,
// bytes that are not UTF-8) is quoted with escapes.
func shown(n *yaml.Node) string {
	v := shortened(n.Value, 40)
	if n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0 || v == "" || !printable(v) {
		return strconv.Quote(v)
	}
	return v
}

// shortened cuts a value of more than n bytes to n-3 and "...", at a
// character.
func shortened(v string, n int) string {
	if len(v) <= n {
		return v
	}
	cut := n - 3
	for cut > 0 && !utf8.RuneStart(v[cut]) {
		cut--
	}
	return v[:cut] + "..."
}

// printable reports whether s is UTF-8 text of printable characters.
func printable(s string) bool {
	return utf8.ValidString(s) && !strings.ContainsFunc(s, func(r rune) bool { return !unicode.IsPrint(r) })
}

package results

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"iter"
	"math"
	"strconv"
	"strings"

	"ckptlab/internal/satmath"
)

// FormatJSON is the format of <name>.json: the resolved experiment, the
// decisions, the break-even envelopes and the headline, for scripts (the
// README's "JSON documents" says the shape, schema/run.schema.json holds
// it). The grid is not in it: that is grid.csv.
const FormatJSON = "json"

// DiffJSONVersion is the version of the shape of diff --format json's
// document. A change that a reader of a version would misread gets a new
// version; new members and new columns do not. Version 2 types every value
// as the run document does, where version 1 wrote them as text.
const DiffJSONVersion = 2

// RunJSONVersion is the version of the shape of run's documents, the run
// of one experiment and the runs of several. Version 2 types every value
// (numbers as JSON numbers, a label as a string) where version 1 wrote
// the experiment's values as YAML text and intervals as strings.
const RunJSONVersion = 2

// The kinds of JSON documents, the "kind" member of each.
const (
	JSONKindRun  = "ckptlab.run"
	JSONKindRuns = "ckptlab.runs"
	JSONKindDiff = "ckptlab.diff"
)

// WriteJSON writes the set's run document (kind JSONKindRun), indented,
// ending in a line feed. It holds one row at a time: each array element
// is encoded on its own and written on a line of its own.
func WriteJSON(w io.Writer, s Set) error {
	return writeRunJSON(context.Background(), w, s, "", "\n")
}

// WriteJSONContext writes the set's run document as WriteJSON does.
// It stops with ctx's error once ctx is done.
func WriteJSONContext(ctx context.Context, w io.Writer, s Set) error {
	return writeRunJSON(ctx, ContextWriter(ctx, w), s, "", "\n")
}

// jsonBytes bounds what writing the run document holds besides a table's
// rows: its buffer and the file's, and a row's element and its encoding.
const jsonBytes = 2*fileBytes + 32<<10

// JSONBound bounds the memory writing the run document holds.
// It reads the decisions, then the break-evens, a row at a time.
// A text is encoded whole, in a buffer that grows as it is appended to:
// the old buffer and the new, three times the text at most.
func JSONBound(s Sizes) int64 {
	n := satmath.Add(jsonBytes, satmath.Mul(3, s.Text))
	return satmath.Add(n, max(s.Decisions.Held, s.Breakeven.Held))
}

// writeRunJSON writes the set's run document, each line after the first
// begun by indent, then tail.
func writeRunJSON(ctx context.Context, w io.Writer, s Set, indent, tail string) error {
	j := newJSONWriter(w, indent)
	j.w.WriteString("{")
	j.member("kind")
	j.str(JSONKindRun)
	j.member("version")
	j.w.WriteString(strconv.Itoa(RunJSONVersion))
	j.member("ckptlab_version")
	j.str(s.Version)
	j.member("name")
	j.str(s.Name)
	j.member("description")
	j.str(s.Description)
	j.member("experiment")
	j.array(len(s.Config), func(i int) { j.setting(s.Config[i]) })
	j.member("headline")
	j.array(len(s.Headline), func(i int) { j.str(s.Headline[i]) })
	j.member("decisions")
	j.rows(s.Decisions.StopOn(ctx))
	j.member("breakeven")
	j.rows(s.Breakeven.StopOn(ctx))
	j.member("recommended")
	j.recommendations(s.Answer)
	if s.hasProcess() {
		j.member("process")
		j.rows(s.Process.StopOn(ctx))
		j.member("process_decisions")
		j.rows(s.ProcessDecisions.StopOn(ctx))
	}
	j.w.WriteString("\n" + indent + "}" + tail)
	return j.w.Flush()
}

// RunsJSON writes the runs document (kind JSONKindRuns): the run document
// of each set added, in order, in its member runs. Close ends it.
type RunsJSON struct {
	w    io.Writer
	runs int
}

// NewRunsJSON returns a writer of a runs document to w.
func NewRunsJSON(w io.Writer) *RunsJSON { return &RunsJSON{w: w} }

// runsHead begins a runs document, up to its list of runs.
var runsHead = "{\n  \"kind\": " + strconv.Quote(JSONKindRuns) + ",\n  \"version\": " + strconv.Itoa(RunJSONVersion) + ",\n  \"runs\": ["

// Add writes the set's run document into the runs document.
func (r *RunsJSON) Add(s Set) error {
	head := ",\n    "
	if r.runs == 0 {
		head = runsHead + "\n    "
	}
	r.runs++
	if _, err := io.WriteString(r.w, head); err != nil {
		return err
	}
	return writeRunJSON(context.Background(), r.w, s, "    ", "")
}

// Close ends the runs document with a line feed; a document without runs
// has an empty list.
func (r *RunsJSON) Close() error {
	tail := "\n  ]\n}\n"
	if r.runs == 0 {
		tail = runsHead + "]\n}\n"
	}
	_, err := io.WriteString(r.w, tail)
	return err
}

// EncodeJSON writes v as diff's document is written: indented by two
// spaces, HTML left unescaped, a line feed at the end.
func EncodeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// jsonWriter writes a document of objects and arrays a line at a time:
// the members of the top object indented, each array element compact on
// a line of its own, so that no more than one element is held.
type jsonWriter struct {
	w      *bufio.Writer
	indent string
	elem   string // what begins an element's line
	first  bool   // no member written yet in the top object
	buf    []byte // the element being written
	text   []byte // a string being written
}

func newJSONWriter(w io.Writer, indent string) *jsonWriter {
	return &jsonWriter{w: bufio.NewWriterSize(w, 1<<16), indent: indent, elem: "\n" + indent + "    ", first: true}
}

// str writes s as a JSON string.
func (j *jsonWriter) str(s string) {
	j.text = appendJSONString(j.text[:0], s)
	j.w.Write(j.text)
}

// member starts a member of the top object: a line of its own, its name.
func (j *jsonWriter) member(name string) {
	if !j.first {
		j.w.WriteByte(',')
	}
	j.first = false
	j.w.WriteString("\n" + j.indent + "  " + strconv.Quote(name) + ": ")
}

// array writes n elements, each on a line of its own, written by elem.
func (j *jsonWriter) array(n int, elem func(i int)) {
	if n == 0 {
		j.w.WriteString("[]")
		return
	}
	j.w.WriteByte('[')
	for i := range n {
		if i > 0 {
			j.w.WriteByte(',')
		}
		j.w.WriteString(j.elem)
		elem(i)
	}
	j.w.WriteString("\n" + j.indent + "  ]")
}

// rows writes the rows of t as an array of objects, one a line.
func (j *jsonWriter) rows(t Table) {
	j.stream(func(yield func([]byte) bool) {
		if t.Rows == nil {
			return
		}
		for row := range t.Rows {
			j.buf = appendJSONRow(j.buf[:0], t.Columns, row)
			if !yield(j.buf) {
				return
			}
		}
	})
}

// stream writes the encoded elements as an array, one a line, holding
// one at a time.
func (j *jsonWriter) stream(elems iter.Seq[[]byte]) {
	n := 0
	for b := range elems {
		if n == 0 {
			j.w.WriteByte('[')
		} else {
			j.w.WriteByte(',')
		}
		n++
		j.w.WriteString(j.elem)
		j.w.Write(b)
	}
	if n == 0 {
		j.w.WriteString("[]")
		return
	}
	j.w.WriteString("\n" + j.indent + "  ]")
}

// setting writes one key of the resolved experiment: its value typed
// (writeFlowJSON), and where it came from when not from the experiment file.
func (j *jsonWriter) setting(s Setting) {
	j.w.WriteString(`{"key": `)
	j.str(s.Key)
	j.w.WriteString(`, "value": `)
	writeFlowJSON(j.w, s.Value)
	if s.Origin != "" {
		j.w.WriteString(`, "origin": `)
		j.str(s.Origin)
	}
	j.w.WriteByte('}')
}

// appendJSONRow appends a row as one object of its columns in order,
// each cell as JSONValue writes it.
func appendJSONRow(dst []byte, cols []Column, row []Value) []byte {
	dst = append(dst, '{')
	for i, c := range cols {
		if i > 0 {
			dst = append(dst, ", "...)
		}
		dst = appendJSONString(dst, c.Name)
		dst = append(dst, ": "...)
		dst = appendJSONValue(dst, c, row[i])
	}
	return append(dst, '}')
}

// appendJSONValue appends a cell of column c: a number for Int and Float,
// with the CSV's digits, and null for a float that is not finite, which
// JSON cannot write (NaN, ±Inf; the CSV writes NaN, +Inf, -Inf); true or
// false for Bool; for Text, a number where the column holds numbers
// (Column.Numeric) and the cell is one, null where it is a float that is
// not finite, and otherwise the text as a string (none, a period label, a
// fraction).
func appendJSONValue(dst []byte, c Column, v Value) []byte {
	switch v.Kind {
	case Float:
		if math.IsNaN(v.Float) || math.IsInf(v.Float, 0) {
			return append(dst, "null"...)
		}
	case Bool:
		return strconv.AppendBool(dst, v.Bool)
	case Text:
		switch {
		case v.Text == "" && c.Kind != Text:
			return append(dst, "null"...) // a number the row does not have
		case c.Numeric && jsonNumber(v.Text):
			return append(dst, v.Text...)
		case c.Numeric && (v.Text == "NaN" || v.Text == "+Inf" || v.Text == "-Inf"):
			return append(dst, "null"...)
		}
		return appendJSONString(dst, v.Text)
	}
	return v.AppendText(dst)
}

// AppendJSONText appends a cell of column c given as the CSV's text,
// typed as a row of the run document types it; a number of an Int or
// Float column that JSON cannot write as given is written in its shortest
// form, and null where it is not finite.
func AppendJSONText(dst []byte, c Column, text string) []byte {
	switch c.Kind {
	case Int, Float:
		if jsonNumber(text) {
			return append(dst, text...)
		}
		if v, err := strconv.ParseFloat(text, 64); err == nil {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return append(dst, "null"...)
			}
			return strconv.AppendFloat(dst, v, 'g', -1, 64)
		}
	case Bool:
		if text == "true" || text == "false" {
			return append(dst, text...)
		}
	}
	return appendJSONValue(dst, c, Value{Kind: Text, Text: text})
}

// jsonNumber reports whether s is a number in JSON's syntax.
func jsonNumber(s string) bool {
	if s == "" || s[0] != '-' && (s[0] < '0' || s[0] > '9') || strings.TrimSpace(s) != s {
		return false
	}
	return json.Valid([]byte(s))
}

// appendJSONString appends s as a JSON string, HTML left unescaped.
func appendJSONString(dst []byte, s string) []byte {
	out, _ := json.Marshal(s) // a string always marshals
	if !bytes.ContainsAny(out, `\`) {
		return append(dst, out...)
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	return append(dst, bytes.TrimSuffix(b.Bytes(), []byte("\n"))...)
}

// errFlow is the error of a value not in the flow syntax of Setting.
var errFlow = errors.New("not a flow value of a resolved experiment")

// writeFlowJSON writes a value of the resolved experiment, in the YAML flow
// syntax experiment.yaml holds it in, as typed JSON: a list as an array,
// a map ({2026-05: 2}, a case) as an object in its order, a quoted text
// as a string, and a plain scalar as appendScalarJSON writes it. A value
// that is neither a list, a map nor a quoted text is one scalar, whatever
// it holds. The value is read twice, to check it and to write it, so that
// nothing of it is held; a value it cannot read is written as a string.
func writeFlowJSON(w *bufio.Writer, text string) {
	if text == "" || !strings.ContainsAny(text[:1], `[{"`) {
		w.Write(appendScalarJSON(nil, text))
		return
	}
	check := flowParser{text: text}
	if err := check.value(0); err != nil || check.i != len(text) {
		w.Write(appendJSONString(nil, text))
		return
	}
	write := flowParser{text: text, w: w}
	write.value(0)
}

// AppendFlowJSON appends a value of the resolved experiment, in YAML flow
// syntax, typed as the run document's experiment holds it.
func AppendFlowJSON(dst []byte, text string) []byte {
	var b bytes.Buffer
	w := bufio.NewWriter(&b)
	writeFlowJSON(w, text)
	w.Flush()
	return append(dst, b.Bytes()...)
}

// maxFlowDepth bounds the nesting of a flow value: a case holds lists.
const maxFlowDepth = 8

// flowParser reads a flow value from text, at i, and writes it as JSON to
// w, or only checks it when w is nil.
type flowParser struct {
	text    string
	i       int
	w       *bufio.Writer
	scratch []byte
}

// emit writes s, unless the parser only checks.
func (p *flowParser) emit(s string) {
	if p.w != nil {
		p.w.WriteString(s)
	}
}

// emitScalar writes a scalar: a string for a quoted text, else as
// appendScalarJSON does.
func (p *flowParser) emitScalar(s string, quoted bool) {
	if p.w == nil {
		return
	}
	if quoted {
		p.scratch = appendJSONString(p.scratch[:0], s)
	} else {
		p.scratch = appendScalarJSON(p.scratch[:0], s)
	}
	p.w.Write(p.scratch)
}

func (p *flowParser) value(depth int) error {
	if depth > maxFlowDepth || p.i >= len(p.text) {
		return errFlow
	}
	switch p.text[p.i] {
	case '[':
		return p.collection(depth, "[", "]")
	case '{':
		return p.collection(depth, "{", "}")
	case '"':
		q, err := strconv.QuotedPrefix(p.text[p.i:])
		if err != nil {
			return errFlow
		}
		s, err := strconv.Unquote(q)
		if err != nil {
			return errFlow
		}
		p.i += len(q)
		p.emitScalar(s, true)
		return nil
	}
	s := p.plain(",]}")
	if s == "" {
		return errFlow
	}
	p.emitScalar(s, false)
	return nil
}

// collection reads a list or a map up to its closing bracket.
func (p *flowParser) collection(depth int, open, closing string) error {
	isMap := open == "{"
	p.emit(open)
	p.i++
	for n := 0; ; n++ {
		p.space()
		if n == 0 && strings.HasPrefix(p.text[p.i:], closing) {
			p.i++
			p.emit(closing)
			return nil
		}
		if n > 0 {
			p.emit(", ")
		}
		if isMap {
			key := p.plain(":,]}")
			if key == "" || !strings.HasPrefix(p.text[p.i:], ":") {
				return errFlow
			}
			p.i++
			p.emitScalar(key, true)
			p.emit(": ")
			p.space()
		}
		if err := p.value(depth + 1); err != nil {
			return err
		}
		p.space()
		switch {
		case strings.HasPrefix(p.text[p.i:], ","):
			p.i++
		case strings.HasPrefix(p.text[p.i:], closing):
			p.i++
			p.emit(closing)
			return nil
		default:
			return errFlow
		}
	}
}

// plain reads a plain scalar up to one of the stop bytes, trimmed.
func (p *flowParser) plain(stop string) string {
	start := p.i
	for p.i < len(p.text) && !strings.ContainsRune(stop, rune(p.text[p.i])) {
		p.i++
	}
	return strings.TrimSpace(p.text[start:p.i])
}

func (p *flowParser) space() {
	for p.i < len(p.text) && p.text[p.i] == ' ' {
		p.i++
	}
}

// appendScalarJSON appends a plain scalar: a number where it is one in
// JSON's syntax, a boolean for true and false, otherwise a string (a
// label: none, all, subscribers, 2026-09).
func appendScalarJSON(dst []byte, s string) []byte {
	switch {
	case jsonNumber(s):
		return append(dst, s...)
	case s == "true" || s == "false":
		return append(dst, s...)
	}
	return appendJSONString(dst, s)
}

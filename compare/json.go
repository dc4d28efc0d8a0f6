package compare

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"

	"ckptlab/results"
	"ckptlab/runner"
)

// writeJSON writes the report as one JSON document, indented as
// results.EncodeJSON indents, but for each experiment that did not change,
// which is one line.
func writeJSON(w io.Writer, r *Report) error {
	var b bytes.Buffer
	encode := func(v any, indent string) error {
		var one bytes.Buffer
		enc := json.NewEncoder(&one)
		enc.SetEscapeHTML(false)
		if indent != "" {
			enc.SetIndent(indent, "  ")
		}
		if err := enc.Encode(v); err != nil {
			return err
		}
		b.Write(bytes.TrimSuffix(one.Bytes(), []byte("\n")))
		return nil
	}
	b.WriteString("{\n  \"kind\": ")
	if err := encode(r.Kind, ""); err != nil {
		return err
	}
	fmt.Fprintf(&b, ",\n  \"version\": %d,\n  \"experiments\": [", r.Version)
	for i := range r.Experiments {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("\n    ")
		indent := "    "
		if r.Experiments[i].Status == StatusSame {
			indent = ""
		}
		if err := encode(&r.Experiments[i], indent); err != nil {
			return err
		}
	}
	if len(r.Experiments) > 0 {
		b.WriteString("\n  ")
	}
	b.WriteString("]\n}\n")
	_, err := w.Write(b.Bytes())
	return err
}

// columnKinds are the declared kinds of the columns of the tables a
// report names, by column name: what a value is written as in JSON.
var columnKinds = func() map[string]results.Kind {
	m := map[string]results.Kind{}
	for _, cols := range [][]results.Column{runner.GridColumns(), runner.DecisionColumns(), runner.BreakevenColumns()} {
		for _, c := range cols {
			m[c.Name] = c.Kind
		}
	}
	return m
}()

// MarshalJSON writes the cells as one object in order, each value as its
// column's kind: a number for Int and Float (as the CSV writes it), true
// or false for Bool, a string for Text and for any text that is not of
// its kind (none).
func (cs Cells) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, c := range cs {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Quote(c.Column))
		b.WriteByte(':')
		b.Write(jsonCell(c))
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

func jsonCell(c Cell) []byte {
	kind, ok := columnKinds[c.Column]
	switch {
	case ok && (kind == results.Int || kind == results.Float):
		if v, err := strconv.ParseFloat(c.Value, 64); err == nil {
			return jsonNumber(c.Value, v)
		}
	case ok && kind == results.Bool:
		if c.Value == "true" || c.Value == "false" {
			return []byte(c.Value)
		}
	}
	out, _ := json.Marshal(c.Value)
	return out
}

// jsonNumber writes the number v, whose text is text: the text itself
// when JSON takes it as a number, else v's shortest form, and null for
// NaN and the infinities, which JSON has no number for.
func jsonNumber(text string, v float64) []byte {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return []byte("null")
	}
	if isJSONNumber(text) {
		return []byte(text)
	}
	out, _ := json.Marshal(v)
	return out
}

// isJSONNumber reports whether s is a number as JSON writes one:
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?.
func isJSONNumber(s string) bool {
	i := 0
	digits := func() int {
		n := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			n++
		}
		return n
	}
	if i < len(s) && s[i] == '-' {
		i++
	}
	start := i
	if n := digits(); n == 0 || (n > 1 && s[start] == '0') {
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}

// MarshalJSON writes the change with delta and relative as JSON numbers,
// or null where they are NaN or infinite: a cell that holds NaN, or two
// finite values whose difference overflows.
func (c Change) MarshalJSON() ([]byte, error) {
	type change Change // without this method
	return json.Marshal(struct {
		change
		Delta    *float64 `json:"delta"`
		Relative *float64 `json:"relative"`
	}{change(c), finite(c.Delta), finite(c.Relative)})
}

// finite returns &v, or nil for NaN and the infinities.
func finite(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}

// UnmarshalJSON reads the object MarshalJSON writes, in order; a value
// keeps the text it has in JSON (a string without its quotes).
func (cs *Cells) UnmarshalJSON(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return fmt.Errorf("want an object of cells, got %s", data)
	}
	*cs = Cells{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return err
		}
		col, _ := t.(string)
		v, err := dec.Token()
		if err != nil {
			return err
		}
		var text string
		switch v := v.(type) {
		case string:
			text = v
		case json.Number:
			text = v.String()
		case bool:
			text = strconv.FormatBool(v)
		case nil:
			text = "" // NaN or an infinity, which JSON has no number for
		default:
			return fmt.Errorf("cell %s: want a number, string or boolean", col)
		}
		*cs = append(*cs, Cell{Column: col, Value: text})
	}
	_, err := dec.Token()
	return err
}

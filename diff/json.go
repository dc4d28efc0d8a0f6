package diff

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"

	"ckptlab/report"
	"ckptlab/results"
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

// tableColumns are the columns of the tables a report names, by name: what a
// value is written as in JSON.
var tableColumns = func() map[string]results.Column {
	m := map[string]results.Column{}
	for _, cols := range [][]results.Column{report.GridColumns(), report.DecisionColumns(), report.BreakevenColumns()} {
		for _, c := range cols {
			m[c.Name] = c
		}
	}
	return m
}()

// MarshalJSON writes the cells as one object in order, each value typed
// as jsonCell writes it.
func (cs Cells) MarshalJSON() ([]byte, error) {
	var b []byte
	b = append(b, '{')
	for i, c := range cs {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendQuote(b, c.Column)
		b = append(b, ':')
		b = jsonCell(b, c.Column, c.Value)
	}
	return append(b, '}'), nil
}

// jsonCell appends the text of a cell of the column named col, typed as
// the run document types the column's cells. A column of no table that
// the run document writes (process_decisions.csv's) is taken to hold
// numbers or labels.
func jsonCell(dst []byte, col, text string) []byte {
	c, ok := tableColumns[col]
	if !ok {
		c = results.Column{Name: col, Kind: results.Text, Numeric: true}
	}
	return results.AppendJSONText(dst, c, text)
}

// jsonText returns the text a value of the report's JSON holds: a string
// without its quotes, "" for null, and otherwise the JSON itself.
func jsonText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	if string(raw) == "null" {
		return ""
	}
	return string(raw)
}

// MarshalJSON writes the change with old and new typed as the column's
// cells, and delta and relative as JSON numbers, or null where they are
// NaN or infinite: a cell that holds NaN, or two finite values whose
// difference overflows.
func (c Change) MarshalJSON() ([]byte, error) {
	type change Change // without this method
	return json.Marshal(struct {
		change
		Old      json.RawMessage `json:"old"`
		New      json.RawMessage `json:"new"`
		Delta    *float64        `json:"delta"`
		Relative *float64        `json:"relative"`
	}{change(c), jsonCell(nil, c.column, c.Old), jsonCell(nil, c.column, c.New), finite(c.Delta), finite(c.Relative)})
}

// UnmarshalJSON reads what MarshalJSON writes; old and new keep their
// text, null as 0 for delta and relative.
func (c *Change) UnmarshalJSON(data []byte) error {
	var v struct {
		At       Key             `json:"at"`
		Old      json.RawMessage `json:"old"`
		New      json.RawMessage `json:"new"`
		Delta    *float64        `json:"delta"`
		Relative *float64        `json:"relative"`
	}
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	*c = Change{At: v.At, Old: jsonText(v.Old), New: jsonText(v.New)}
	if v.Delta != nil {
		c.Delta = *v.Delta
	}
	if v.Relative != nil {
		c.Relative = *v.Relative
	}
	return nil
}

// MarshalJSON writes the change with each value typed as the run
// document's experiment holds it, and null for a key that is absent.
func (c SettingChange) MarshalJSON() ([]byte, error) {
	type setting SettingChange // without this method
	flow := func(v string) json.RawMessage {
		if v == "" {
			return json.RawMessage("null")
		}
		return results.AppendFlowJSON(nil, v)
	}
	flows := func(vs []string) []json.RawMessage {
		var out []json.RawMessage
		for _, v := range vs {
			out = append(out, flow(v))
		}
		return out
	}
	return json.Marshal(struct {
		setting
		Old     json.RawMessage   `json:"old"`
		New     json.RawMessage   `json:"new"`
		Added   []json.RawMessage `json:"added,omitempty"`
		Removed []json.RawMessage `json:"removed,omitempty"`
	}{setting(c), flow(c.Old), flow(c.New), flows(c.Added), flows(c.Removed)})
}

// UnmarshalJSON reads what MarshalJSON writes, each value as the text of
// its JSON ("" for null).
func (c *SettingChange) UnmarshalJSON(data []byte) error {
	var v struct {
		Key       string            `json:"key"`
		Old       json.RawMessage   `json:"old"`
		New       json.RawMessage   `json:"new"`
		OldOrigin string            `json:"old_origin"`
		NewOrigin string            `json:"new_origin"`
		Added     []json.RawMessage `json:"added"`
		Removed   []json.RawMessage `json:"removed"`
	}
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	*c = SettingChange{Key: v.Key, Old: jsonText(v.Old), New: jsonText(v.New), OldOrigin: v.OldOrigin, NewOrigin: v.NewOrigin}
	for _, a := range v.Added {
		c.Added = append(c.Added, jsonText(a))
	}
	for _, r := range v.Removed {
		c.Removed = append(c.Removed, jsonText(r))
	}
	return nil
}

// MarshalJSON writes the piece's interval and ends as numbers where they
// are numbers, else as strings (none, a fraction 11/18).
func (p Piece) MarshalJSON() ([]byte, error) {
	scalar := func(s string) json.RawMessage { return results.AppendFlowJSON(nil, s) }
	return json.Marshal(struct {
		Interval json.RawMessage `json:"interval"`
		From     json.RawMessage `json:"from"`
		To       json.RawMessage `json:"to"`
	}{scalar(p.Interval), scalar(p.From), scalar(p.To)})
}

// UnmarshalJSON reads what MarshalJSON writes, each value as its text.
func (p *Piece) UnmarshalJSON(data []byte) error {
	var v struct {
		Interval, From, To json.RawMessage
	}
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	*p = Piece{Interval: jsonText(v.Interval), From: jsonText(v.From), To: jsonText(v.To)}
	return nil
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

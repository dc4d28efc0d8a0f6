package results

import (
	"bytes"
	"encoding/json"
	"io"
	"strconv"
)

// FormatJSON is the format of <name>.json: the resolved experiment, the
// decisions, the break-even envelopes and the headline, for scripts (the
// README's "JSON documents" says the shape). The grid is not in it: that
// is grid.csv.
const FormatJSON = "json"

// JSONVersion is the version of the shape of every JSON document ckptlab
// writes, run's <name>.json and diff --format json alike. A change that a
// reader of version 1 would misread gets a new version; new members and
// new columns do not.
const JSONVersion = 1

// The kinds of JSON documents, the "kind" member of each.
const (
	JSONKindRun  = "ckptlab.run"
	JSONKindDiff = "ckptlab.diff"
)

// JSONSetting is one key of a resolved experiment in a JSON document: its
// value in YAML flow syntax, as experiment.yaml writes it, and where it
// came from when that is not the experiment file.
type JSONSetting struct {
	Key    string `json:"key"`
	Value  string `json:"value"`
	Origin string `json:"origin,omitempty"`
}

// JSONSettings converts a resolved configuration.
func JSONSettings(config []Setting) []JSONSetting {
	out := make([]JSONSetting, len(config))
	for i, s := range config {
		out[i] = JSONSetting(s)
	}
	return out
}

// RunJSON is the document of ckptlab run --format json.
type RunJSON struct {
	Kind           string        `json:"kind"`    // JSONKindRun
	Version        int           `json:"version"` // JSONVersion
	CkptlabVersion string        `json:"ckptlab_version"`
	Name           string        `json:"name"`
	Description    string        `json:"description"`
	Experiment     []JSONSetting `json:"experiment"`
	Headline       []string      `json:"headline"`
	// Decisions and Breakeven are the rows of decisions.csv and
	// breakeven.csv, each an object of its columns in the table's order.
	Decisions []JSONRow `json:"decisions"`
	Breakeven []JSONRow `json:"breakeven"`
	// Process and ProcessDecisions are the rows of process.csv and
	// process_decisions.csv, the time model's tables; left out without
	// the model. A figure a row lacks is null.
	Process          []JSONRow `json:"process,omitempty"`
	ProcessDecisions []JSONRow `json:"process_decisions,omitempty"`
}

// JSONRow is a row of a table as a JSON object: its columns in order, each
// a JSON number (Int and Float columns), string or boolean as the cell's
// kind is. Its columns are the table's, so a new column flows in.
type JSONRow struct {
	Columns []Column
	Values  []Value
}

// MarshalJSON writes the row as an object in column order.
func (r JSONRow) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, c := range r.Columns {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Quote(c.Name))
		b.WriteByte(':')
		if v := r.Values[i]; v.Kind == Text && v.Text == "" && c.Kind != Text {
			b.WriteString("null") // a number the row does not have
			continue
		}
		b.Write(JSONValue(r.Values[i]))
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// JSONValue writes one cell as JSON: a number for Int and Float, as the
// CSV writes it, a string for Text, true or false for Bool.
func JSONValue(v Value) json.RawMessage {
	switch v.Kind {
	case Text:
		out, _ := json.Marshal(v.Text)
		return out
	case Bool:
		return strconv.AppendBool(nil, v.Bool)
	}
	return v.AppendText(nil)
}

// JSONRows reads every row of t.
func JSONRows(t Table) []JSONRow {
	out := []JSONRow{}
	if t.Rows == nil {
		return out
	}
	for row := range t.Rows {
		out = append(out, JSONRow{Columns: t.Columns, Values: append([]Value(nil), row...)})
	}
	return out
}

// JSON returns the set's RunJSON.
func (s Set) JSON() RunJSON {
	headline := s.Headline
	if headline == nil {
		headline = []string{}
	}
	doc := RunJSON{
		Kind: JSONKindRun, Version: JSONVersion, CkptlabVersion: s.Version,
		Name: s.Name, Description: s.Description,
		Experiment: JSONSettings(s.Config),
		Headline:   headline,
		Decisions:  JSONRows(s.Decisions),
		Breakeven:  JSONRows(s.Breakeven),
	}
	if s.hasProcess() {
		doc.Process, doc.ProcessDecisions = JSONRows(s.Process), JSONRows(s.ProcessDecisions)
	}
	return doc
}

// WriteJSON writes the set's RunJSON, indented, ending in a line feed.
func WriteJSON(w io.Writer, s Set) error {
	return EncodeJSON(w, s.JSON())
}

// EncodeJSON writes v as the JSON documents of ckptlab are written:
// indented by two spaces, HTML left unescaped, a line feed at the end.
func EncodeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

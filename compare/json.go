package compare

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"

	"ckptlab/results"
	"ckptlab/runner"
)

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
		if _, err := strconv.ParseFloat(c.Value, 64); err == nil {
			return []byte(c.Value)
		}
	case ok && kind == results.Bool:
		if c.Value == "true" || c.Value == "false" {
			return []byte(c.Value)
		}
	}
	out, _ := json.Marshal(c.Value)
	return out
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
		default:
			return fmt.Errorf("cell %s: want a number, string or boolean", col)
		}
		*cs = append(*cs, Cell{Column: col, Value: text})
	}
	_, err := dec.Token()
	return err
}

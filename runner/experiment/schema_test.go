package experiment

import (
	"bytes"
	"ckptlab/internal/testkit"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// schemaFile is the schema committed at the root of the module.
var schemaFile = filepath.Join("..", "..", "experiment.schema.json")

func TestSchemaFileIsCurrent(t *testing.T) {
	testkit.Golden(t, schemaFile, jsonSchema())
}

func TestSchemaIsDeterministic(t *testing.T) {
	if a, b := jsonSchema(), jsonSchema(); !bytes.Equal(a, b) {
		t.Error("two calls of jsonSchema() differ")
	}
}

func TestSchemaCoversTheKeyTable(t *testing.T) {
	var s struct {
		Schema               string                     `json:"$schema"`
		Type                 string                     `json:"type"`
		Properties           map[string]json.RawMessage `json:"properties"`
		Required             []string                   `json:"required"`
		AdditionalProperties bool                       `json:"additionalProperties"`
	}
	if err := json.Unmarshal(jsonSchema(), &s); err != nil {
		t.Fatalf("jsonSchema() is not JSON: %v", err)
	}
	if s.Schema != "https://json-schema.org/draft/2020-12/schema" {
		t.Errorf("$schema = %q, want draft 2020-12", s.Schema)
	}
	if s.Type != "object" || s.AdditionalProperties {
		t.Errorf("type = %q, additionalProperties = %v; want object, false", s.Type, s.AdditionalProperties)
	}
	if len(s.Required) != 0 {
		t.Errorf("required = %v, want none: a base has no name", s.Required)
	}
	for _, d := range keyTable {
		if _, ok := s.Properties[d.Name]; !ok {
			t.Errorf("the schema has no property %s", d.Name)
		}
	}
	if len(s.Properties) != len(keyTable) {
		t.Errorf("the schema has %d properties, the key table %d keys", len(s.Properties), len(keyTable))
	}
}

func TestSchemaOfKeys(t *testing.T) {
	tests := []struct {
		key  string
		want string // the property's schema, compact
	}{
		{"workers", `{"description":"Workers the stream is partitioned over: an axis of whole numbers >= 1.","default":4,` +
			`"oneOf":[{"type":"integer","minimum":1,"maximum":1000000},` +
			`{"type":"array","items":{"type":"integer","minimum":1,"maximum":1000000},"minItems":1,"uniqueItems":true},` +
			`{"type":"object","description":"A range: from, from+step, ... up to to, inclusive of to when hit; step defaults to 1.",` +
			`"properties":{"from":{"type":"integer","minimum":1,"maximum":1000000},"to":{"type":"integer","minimum":1,"maximum":1000000},` +
			`"step":{"default":1,"type":"integer","not":{"const":0}}},"required":["from","to"],"additionalProperties":false}]}`},
		{"start", `{"description":"Label of the first period, YYYY-MM.","default":"2026-01","type":"string","pattern":"^[0-9]{4}-(0[1-9]|1[0-2])$"}`},
		{"name", `{"description":"Name of the experiment; names the output folder OUT/<name>. A file without name is a base, which other files extend.","type":"string","pattern":"^[a-z0-9][a-z0-9_-]{0,63}$"}`},
	}
	for _, tt := range tests {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(keySchema(keyNamed(tt.key))); err != nil {
			t.Fatal(err)
		}
		if got := strings.TrimSuffix(b.String(), "\n"); got != tt.want {
			t.Errorf("schema of %s:\n got %s\nwant %s", tt.key, got, tt.want)
		}
	}
}

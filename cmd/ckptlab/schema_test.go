package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"ckptlab/report"
	"ckptlab/results"
)

// schemaKeywords are the subset of JSON Schema that schemaValidator checks.
// The JSON Schemas in schema/ of the documents ckptlab writes use them.
// A schema using any other keyword is refused, so that no check is skipped.
var schemaKeywords = []string{"$schema", "$id", "$ref", "title", "description",
	"type", "enum", "pattern", "properties", "required", "additionalProperties", "items"}

// schemaValidator validates JSON documents, decoded with UseNumber, against
// the schemas of a folder, each named by its file name for $ref.
type schemaValidator struct {
	schemas map[string]map[string]any
}

func loadSchemas(t *testing.T, dir string) *schemaValidator {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.schema.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no schemas in %s: %v", dir, err)
	}
	v := &schemaValidator{schemas: map[string]map[string]any{}}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var s map[string]any
		if err := decodeJSON(data, &s); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		v.schemas[filepath.Base(f)] = s
	}
	return v
}

// decodeJSON decodes one document with numbers kept as json.Number, and
// refuses anything after it.
func decodeJSON(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return fmt.Errorf("more than one JSON document")
	}
	return nil
}

// validate returns the places where doc breaks the named schema.
func (v *schemaValidator) validate(name string, doc any) []string {
	var errs []string
	v.check(v.schemas[name], doc, "$", &errs)
	return errs
}

func (v *schemaValidator) check(schema map[string]any, doc any, at string, errs *[]string) {
	fail := func(format string, args ...any) { *errs = append(*errs, at+": "+fmt.Sprintf(format, args...)) }
	if schema == nil {
		fail("no schema")
		return
	}
	for k := range schema {
		if !slices.Contains(schemaKeywords, k) {
			fail("the schema uses %s, which the validator does not check", k)
		}
	}
	if ref, ok := schema["$ref"].(string); ok {
		v.check(v.schemas[ref], doc, at, errs)
	}
	if types, ok := schema["type"]; ok {
		var list []string
		switch t := types.(type) {
		case string:
			list = []string{t}
		case []any:
			for _, x := range t {
				list = append(list, x.(string))
			}
		}
		if !slices.ContainsFunc(list, func(t string) bool { return jsonType(doc, t) }) {
			fail("%s is not of type %v", short(doc), list)
			return
		}
	}
	if enum, ok := schema["enum"].([]any); ok && !slices.ContainsFunc(enum, func(e any) bool { return fmt.Sprint(e) == fmt.Sprint(doc) && jsonKind(e) == jsonKind(doc) }) {
		fail("%s is none of %v", short(doc), enum)
	}
	if p, ok := schema["pattern"].(string); ok {
		if s, isString := doc.(string); isString && !regexp.MustCompile(p).MatchString(s) {
			fail("%q does not match %s", s, p)
		}
	}
	switch d := doc.(type) {
	case map[string]any:
		props, _ := schema["properties"].(map[string]any)
		if req, ok := schema["required"].([]any); ok {
			for _, r := range req {
				if _, ok := d[r.(string)]; !ok {
					fail("lacks %s", r)
				}
			}
		}
		for _, k := range sortedKeys(d) {
			if p, ok := props[k]; ok {
				v.check(p.(map[string]any), d[k], at+"."+k, errs)
				continue
			}
			switch extra := schema["additionalProperties"].(type) {
			case bool:
				if !extra {
					fail("has %s, which the schema does not list", k)
				}
			case map[string]any:
				v.check(extra, d[k], at+"."+k, errs)
			}
		}
	case []any:
		if items, ok := schema["items"].(map[string]any); ok {
			for i, x := range d {
				v.check(items, x, fmt.Sprintf("%s[%d]", at, i), errs)
			}
		}
	}
}

// jsonType reports whether doc is of the JSON Schema type t.
func jsonType(doc any, t string) bool {
	switch t {
	case "integer":
		n, ok := doc.(json.Number)
		_, err := n.Int64()
		return ok && err == nil
	case "number":
		_, ok := doc.(json.Number)
		return ok
	}
	return jsonKind(doc) == t
}

// jsonKind is the JSON type of a decoded value.
func jsonKind(doc any) string {
	switch doc.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case json.Number:
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	}
	return "object"
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func short(doc any) string {
	s := fmt.Sprintf("%#v", doc)
	if len(s) > 60 {
		s = s[:60] + "…"
	}
	return s
}

// textMembers are the members documented as text, which may hold anything.
// They are free text, the headline, and the exact fractions of breakeven.csv.
var textMembers = []string{"name", "description", "ckptlab_version", "headline", "from_fraction", "to_fraction"}

// numbersInStrings returns the places where a document holds a number,
// a list or a map as text, outside the members documented as text.
// SPEC 14 gives examples: "young_interval": "4", "value": "[20260218]".
func numbersInStrings(doc any, at string) []string {
	var out []string
	switch d := doc.(type) {
	case map[string]any:
		if k, ok := d["key"].(string); ok && slices.Contains(textMembers, k) {
			return nil // a setting of free text
		}
		for _, k := range sortedKeys(d) {
			if !slices.Contains(textMembers, k) {
				out = append(out, numbersInStrings(d[k], at+"."+k)...)
			}
		}
	case []any:
		for i, x := range d {
			out = append(out, numbersInStrings(x, fmt.Sprintf("%s[%d]", at, i))...)
		}
	case string:
		var n json.Number
		if strings.HasPrefix(d, "[") || strings.HasPrefix(d, "{") || json.Unmarshal([]byte(d), &n) == nil {
			out = append(out, fmt.Sprintf("%s: %q is a value written as text", at, d))
		}
	}
	return out
}

// shippedExperiments returns the experiment files of experiments/, bases
// left out.
func shippedExperiments(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("../../experiments/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no shipped experiments: %v", err)
	}
	return files
}

// TestDocumentsMatchTheirSchemas runs every shipped experiment with
// --format json, alone and as the folder, and diffs the lesson against each.
// Every document must match its schema in schema/.
// No document may hold a number as text.
func TestDocumentsMatchTheirSchemas(t *testing.T) {
	v := loadSchemas(t, "../../schema")
	type doc = map[string]any
	read := func(t *testing.T, name, stdout string) doc {
		t.Helper()
		var d doc
		if err := decodeJSON([]byte(stdout), &d); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return d
	}
	check := func(t *testing.T, schema, name string, d doc) {
		t.Helper()
		for _, e := range v.validate(schema, d) {
			t.Errorf("%s against %s: %s", name, schema, e)
		}
		for _, e := range numbersInStrings(d, "$") {
			t.Errorf("%s: %s", name, e)
		}
	}
	files := shippedExperiments(t)
	out := t.TempDir()
	for _, f := range files {
		code, stdout, stderr := ckptlab("run", "-q", "--format", "json", "-o", "-", f)
		if code != 0 {
			t.Fatalf("run %s = %d\n%s", f, code, stderr)
		}
		d := read(t, f, stdout)
		check(t, "run.schema.json", f, d)
		if len(d["decisions"].([]any)) == 0 || len(d["breakeven"].([]any)) == 0 {
			t.Errorf("%s: no decisions or no break-evens: the schema checked little", f)
		}
		name := d["name"].(string)
		if code, _, stderr := ckptlab("run", "-q", "--format", "json", "-o", out, f); code != 0 {
			t.Fatalf("run -o %s %s = %d\n%s", out, f, code, stderr)
		}
		written, err := os.ReadFile(filepath.Join(out, name, name+".json"))
		if err != nil || string(written) != stdout {
			t.Errorf("%s: %s.json differs from -o - (%v)", f, name, err)
		}
	}
	code, stdout, stderr := ckptlab("run", "-q", "--format", "json", "-o", "-", "../../experiments")
	if code != 0 {
		t.Fatalf("run experiments = %d\n%s", code, stderr)
	}
	runs := read(t, "experiments", stdout)
	check(t, "runs.schema.json", "experiments", runs)
	if n := len(runs["runs"].([]any)); n != len(files) {
		t.Errorf("the runs document of experiments/ holds %d runs, want %d", n, len(files))
	}
	for _, f := range files {
		code, stdout, stderr := ckptlab("diff", "--format", "json", "../../experiments/lesson.yaml", f)
		if code > 1 {
			t.Fatalf("diff lesson.yaml %s = %d\n%s", f, code, stderr)
		}
		check(t, "diff.schema.json", "diff "+f, read(t, f, stdout))
	}
}

// TestSchemasRefuse checks that the schemas and the check for numbers as
// text catch the mistakes of version 1 and of a reader's expectations.
func TestSchemasRefuse(t *testing.T) {
	v := loadSchemas(t, "../../schema")
	code, stdout, stderr := ckptlab("run", "-q", "--format", "json", "-o", "-", "../../experiments/lesson.yaml")
	if code != 0 {
		t.Fatalf("run = %d\n%s", code, stderr)
	}
	for _, c := range []struct {
		name   string
		schema string
		change func(d map[string]any) any
	}{
		{"version 1", "run.schema.json", func(d map[string]any) any { d["version"] = json.Number("1"); return d }},
		{"an interval as text", "run.schema.json", func(d map[string]any) any {
			d["decisions"].([]any)[0].(map[string]any)["young_interval"] = "4.898979485566356"
			return d
		}},
		{"a count as text", "run.schema.json", func(d map[string]any) any {
			d["breakeven"].([]any)[0].(map[string]any)["seed"] = "20260218"
			return d
		}},
		{"a total that is not a number", "run.schema.json", func(d map[string]any) any {
			d["decisions"].([]any)[0].(map[string]any)["best_expected_total"] = "927.3"
			return d
		}},
		{"no headline", "run.schema.json", func(d map[string]any) any { delete(d, "headline"); return d }},
		{"a member not listed", "run.schema.json", func(d map[string]any) any { d["grid"] = []any{}; return d }},
		{"a column not listed", "run.schema.json", func(d map[string]any) any {
			d["decisions"].([]any)[0].(map[string]any)["extra"] = json.Number("1")
			return d
		}},
		{"a value as YAML text", "", func(d map[string]any) any {
			d["experiment"].([]any)[3].(map[string]any)["value"] = "[20260218]"
			return d
		}},
		{"a run of another kind in runs", "runs.schema.json", func(d map[string]any) any {
			d["kind"] = "ckptlab.diff"
			return map[string]any{"kind": "ckptlab.runs", "version": json.Number("2"), "runs": []any{d}}
		}},
	} {
		var d map[string]any
		if err := decodeJSON([]byte(stdout), &d); err != nil {
			t.Fatal(err)
		}
		if errs := v.validate("run.schema.json", d); len(errs) > 0 {
			t.Fatalf("the lesson's document: %v", errs)
		}
		changed := c.change(d)
		var errs []string
		if c.schema != "" {
			errs = v.validate(c.schema, changed)
		} else {
			errs = numbersInStrings(changed, "$")
		}
		if len(errs) == 0 {
			t.Errorf("%s: passes", c.name)
		}
	}
}

// TestDiffSchemaRefuses checks that diff.schema.json and the check for
// numbers as text catch the values version 1 wrote as text.
func TestDiffSchemaRefuses(t *testing.T) {
	v := loadSchemas(t, "../../schema")
	code, stdout, stderr := ckptlab("diff", "--format", "json", "../../experiments/lesson.yaml", "../../experiments/faults.yaml")
	if code != 1 {
		t.Fatalf("diff = %d, want 1\n%s", code, stderr)
	}
	experiment := func(d map[string]any) map[string]any { return d["experiments"].([]any)[0].(map[string]any) }
	for _, c := range []struct {
		name   string
		schema string
		change func(d map[string]any)
	}{
		{"version 1", "diff.schema.json", func(d map[string]any) { d["version"] = json.Number("1") }},
		{"a cell that is not a number, string, boolean or null", "diff.schema.json", func(d map[string]any) {
			c := experiment(d)["decisions"].(map[string]any)["changed"].([]any)[0].(map[string]any)
			c["old"].(map[string]any)["young_interval"] = []any{}
		}},
		{"an interval as text", "", func(d map[string]any) {
			c := experiment(d)["decisions"].(map[string]any)["changed"].([]any)[0].(map[string]any)
			c["old"].(map[string]any)["young_interval"] = "4.898979485566356"
		}},
		{"a key as text", "", func(d map[string]any) {
			c := experiment(d)["decisions"].(map[string]any)["changed"].([]any)[0].(map[string]any)
			c["key"].(map[string]any)["seed"] = "20260218"
		}},
		{"a setting as YAML text", "", func(d map[string]any) {
			for _, s := range experiment(d)["settings"].([]any) {
				if s := s.(map[string]any); s["key"] == "seeds" {
					s["old"] = "[20260218]"
				}
			}
		}},
		{"a piece's end as text", "", func(d map[string]any) {
			e := experiment(d)["envelopes"].(map[string]any)["changed"].([]any)[0].(map[string]any)
			e["old"].([]any)[0].(map[string]any)["from"] = "0"
		}},
		{"a grid value as text", "", func(d map[string]any) {
			g := experiment(d)["grid"].(map[string]any)["columns"].([]any)[0].(map[string]any)
			g["largest"].(map[string]any)["old"] = "2200"
		}},
	} {
		var d map[string]any
		if err := decodeJSON([]byte(stdout), &d); err != nil {
			t.Fatal(err)
		}
		if errs := append(v.validate("diff.schema.json", d), numbersInStrings(d, "$")...); len(errs) > 0 {
			t.Fatalf("the diff of the lesson and faults: %v", errs)
		}
		c.change(d)
		var errs []string
		if c.schema != "" {
			errs = v.validate(c.schema, d)
		} else {
			errs = numbersInStrings(d, "$")
		}
		if len(errs) == 0 {
			t.Errorf("%s: passes", c.name)
		}
	}
}

// TestRunSchemaListsTheColumns holds run.schema.json's rows to the columns
// of decisions.csv and breakeven.csv, in order.
// Each must be of the JSON type of its kind.
func TestRunSchemaListsTheColumns(t *testing.T) {
	data, err := os.ReadFile("../../schema/run.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	// the properties in the file's order
	var schema struct {
		Properties map[string]struct {
			Items struct {
				Properties json.RawMessage `json:"properties"`
			} `json:"items"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(data, &schema); err != nil {
		t.Fatal(err)
	}
	for member, cols := range map[string][]results.Column{"decisions": report.DecisionColumns(), "breakeven": report.BreakevenColumns()} {
		dec := json.NewDecoder(bytes.NewReader(schema.Properties[member].Items.Properties))
		dec.Token() // {
		var names []string
		types := map[string]string{}
		for dec.More() {
			tok, _ := dec.Token()
			var p struct {
				Type json.RawMessage `json:"type"`
			}
			if err := dec.Decode(&p); err != nil {
				t.Fatal(err)
			}
			names = append(names, tok.(string))
			types[tok.(string)] = string(p.Type)
		}
		var want []string
		for _, c := range cols {
			want = append(want, c.Name)
			wantType := map[results.Kind]string{results.Int: `"integer"`, results.Float: `["number","null"]`, results.Text: `"string"`, results.Bool: `"boolean"`}[c.Kind]
			if c.Numeric {
				wantType = `["number","string"]`
				if c.Quantity == results.Estimate {
					wantType = `["number","string","null"]`
				}
			}
			if got := strings.Join(strings.Fields(types[c.Name]), ""); got != wantType {
				t.Errorf("%s.%s: type %s, want %s", member, c.Name, got, wantType)
			}
		}
		if !slices.Equal(names, want) {
			t.Errorf("%s: the schema lists %v, want the columns %v", member, names, want)
		}
	}
}

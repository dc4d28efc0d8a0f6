package experiment

import (
	"bytes"
	"cmp"
	"encoding/json"
	"math"
)

// monthPattern is the JSON Schema pattern of a period label.
const monthPattern = `^[0-9]{4}-(0[1-9]|1[0-2])$`

// jsonSchema returns the JSON Schema (draft 2020-12) of an experiment file,
// indented and ending in a newline. It is generated from the table of keys
// the loader checks values against, so the two agree; editors use it to
// complete and check experiment files. The schema cannot say that
// intervals and failure labels must fit every periods value; the loader
// checks that.
func jsonSchema() []byte {
	props := make(jsonObject, 0, len(keyTable))
	var required []string
	for _, d := range keyTable {
		props = append(props, jsonMember{d.Name, keySchema(d)})
		if d.Required {
			required = append(required, d.Name)
		}
	}
	top := jsonObject{
		{"$schema", "https://json-schema.org/draft/2020-12/schema"},
		{"title", "ckptlab experiment"},
		{"description", "An experiment file of ckptlab: the axes of a grid of checkpoint-interval " +
			"evaluations. Every key but name defaults to the value of the lesson " +
			"\"State in Stream Engines\"."},
		{"type", "object"},
		{"properties", props},
	}
	if len(required) > 0 {
		top = append(top, jsonMember{"required", required})
	}
	top = append(top, jsonMember{"additionalProperties", false})
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // keep >= and <name> readable
	enc.SetIndent("", "  ")
	if err := enc.Encode(top); err != nil {
		panic("experiment: the schema does not marshal: " + err.Error()) // a bug in this file
	}
	return b.Bytes()
}

// keySchema is the schema of the value of key d: one value, and as d
// allows, a list, a range and the word all.
func keySchema(d *keyDef) jsonObject {
	switch d.Type {
	case typeCases:
		return listSchema(d, axisKeys, nil, 0)
	case typeExclude:
		return listSchema(d, excludeNames, columnNames, 1)
	case typeWeights:
		return jsonObject{{"description", d.Doc}, {"default", d.Default}, {"type", "object"},
			{"propertyNames", jsonObject{{"pattern", monthPattern}}},
			{"additionalProperties", jsonObject{{"type", "integer"}, {"minimum", d.Min}, {"maximum", d.Max}}}}
	case typePaths:
		path := jsonObject{{"type", "string"}, {"minLength", 1}}
		return jsonObject{{"description", d.Doc}, {"oneOf", []any{path,
			jsonObject{{"type", "array"}, {"items", path}, {"minItems", 1}}}}}
	}
	one := valueSchema(d)
	var ways []any
	if d.All {
		ways = append(ways, jsonObject{{"const", "all"}})
	}
	ways = append(ways, one)
	if d.Many {
		ways = append(ways, jsonObject{
			{"type", "array"},
			{"items", one},
			{"minItems", 1},
			{"uniqueItems", true},
		})
	}
	if d.Range {
		ways = append(ways, rangeSchema(d))
	}
	out := jsonObject{{"description", d.Doc}}
	if d.Default != nil {
		out = append(out, jsonMember{"default", d.Default})
	}
	if len(ways) == 1 {
		return append(out, one...)
	}
	return append(out, jsonMember{"oneOf", ways})
}

// listSchema is the schema of cases and exclude: a list of mappings of
// the given names, each of which takes the values of its axis key, to
// which the name refers (alias maps a name to its axis key when they
// differ). minProps is the fewest keys an item must have. The loader
// refuses what the schema cannot say: all in exclude, and points shared
// by two cases.
func listSchema(d *keyDef, names []string, alias map[string]string, minProps int) jsonObject {
	props := make(jsonObject, 0, len(names))
	for _, name := range names {
		props = append(props, jsonMember{name, jsonObject{{"$ref", "#/properties/" + cmp.Or(alias[name], name)}}})
	}
	item := jsonObject{{"type", "object"}, {"properties", props}, {"additionalProperties", false}}
	if minProps > 0 {
		item = append(item, jsonMember{"minProperties", minProps})
	}
	return jsonObject{
		{"description", d.Doc},
		{"type", "array"},
		{"items", item},
		{"minItems", 1},
	}
}

// valueSchema is the schema of one value of key d.
func valueSchema(d *keyDef) jsonObject {
	switch d.Type {
	case typeInt:
		n := jsonObject{{"type", "integer"}, {"minimum", d.Min}, {"maximum", d.Max}}
		if d.Word != "" {
			return jsonObject{{"oneOf", []any{jsonObject{{"const", d.Word}}, n}}}
		}
		return n
	case typeFloat:
		if math.IsInf(d.FMax, 1) {
			return numberAbove(d)
		}
		if d.Below {
			return jsonObject{{"type", "number"}, {"minimum", d.FMin}, {"exclusiveMaximum", d.FMax}}
		}
		return jsonObject{{"type", "number"}, {"minimum", d.FMin}, {"maximum", d.FMax}}
	case typeDuration:
		return durationSchema(d)
	case typeName:
		return jsonObject{{"type", "string"}, {"pattern", namePattern.String()}}
	case typeMonth:
		return jsonObject{{"type", "string"}, {"pattern", monthPattern}}
	case typeEnum:
		return jsonObject{{"enum", d.Enum}}
	case typeInterval:
		return jsonObject{{"oneOf", []any{
			jsonObject{{"const", "none"}},
			jsonObject{{"type", "integer"}, {"minimum", d.Min}, {"maximum", d.Max}},
		}}}
	}
	return jsonObject{{"type", "string"}}
}

// rangeSchema is the schema of a range {from, to, step} of key d.
func rangeSchema(d *keyDef) jsonObject {
	end := valueSchema(d)
	step := jsonObject{{"type", "integer"}, {"not", jsonObject{{"const", 0}}}}
	switch d.Type {
	case typeInterval, typeInt:
		end = jsonObject{{"type", "integer"}, {"minimum", d.Min}, {"maximum", d.Max}}
	case typeFloat:
		step = jsonObject{{"type", "number"}, {"not", jsonObject{{"const", 0}}}}
	case typeDuration:
		step = jsonObject{{"oneOf", []any{
			jsonObject{{"type", "number"}, {"not", jsonObject{{"const", 0}}}},
			jsonObject{{"type", "string"}, {"pattern", durationStepPattern}},
		}}}
	}
	return jsonObject{
		{"type", "object"},
		{"description", "A range: from, from+step, ... up to to, inclusive of to when hit; step defaults to 1."},
		{"properties", jsonObject{
			{"from", end},
			{"to", end},
			{"step", append(jsonObject{{"default", 1}}, step...)},
		}},
		{"required", []string{"from", "to"}},
		{"additionalProperties", false},
	}
}

// jsonObject is a JSON object that keeps its members in order, so that the
// schema reads in the order of the table and is the same on every run.
type jsonObject []jsonMember

// jsonMember is one member of a jsonObject.
type jsonMember struct {
	key   string
	value any
}

// MarshalJSON writes the members in order.
func (o jsonObject) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(m.key); err != nil {
			return nil, err
		}
		b.Truncate(b.Len() - 1) // Encode ends in a newline
		b.WriteByte(':')
		if err := enc.Encode(m.value); err != nil {
			return nil, err
		}
		b.Truncate(b.Len() - 1)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

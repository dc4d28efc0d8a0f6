package results

import (
	"bufio"
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"
)

func TestWriteFlowJSON(t *testing.T) {
	for _, c := range []struct{ flow, want string }{
		{"1", `1`},
		{"0.95", `0.95`},
		{"0.0000025", `0.0000025`},
		{"lesson", `"lesson"`},
		{"2026-09", `"2026-09"`},
		{"all", `"all"`},
		{"5m", `"5m"`},
		{"a, b", `"a, b"`}, // a scalar, not a list
		{"<b> & c", `"<b> & c"`},
		{`"State in \"Stream\" Engines"`, `"State in \"Stream\" Engines"`},
		{"[20260218]", `[20260218]`},
		{"[]", `[]`},
		{"[none, 6, 4]", `["none", 6, 4]`},
		{"[subscribers, 100]", `["subscribers", 100]`},
		{"[1, 0.75, 0.5, 0.25]", `[1, 0.75, 0.5, 0.25]`},
		{"{2026-05: 2, 2026-06: 0}", `{"2026-05": 2, "2026-06": 0}`},
		{"[{periods: [24], intervals: all}, {periods: [120], workers: [1, 2]}]",
			`[{"periods": [24], "intervals": "all"}, {"periods": [120], "workers": [1, 2]}]`},
		{"[{interval: none, workers: [4]}]", `[{"interval": "none", "workers": [4]}]`},
		{"[true, false]", `[true, false]`},
		// not the flow syntax of a resolved experiment: the text
		{"[1, ", `"[1, "`},
		{"[1]]", `"[1]]"`},
		{"{a}", `"{a}"`},
		{"[,]", `"[,]"`},
		{`"open`, `"\"open"`},
		{strings.Repeat("[", 20) + strings.Repeat("]", 20), `"` + strings.Repeat("[", 20) + strings.Repeat("]", 20) + `"`},
	} {
		var b bytes.Buffer
		w := bufio.NewWriter(&b)
		writeFlowJSON(w, c.flow)
		w.Flush()
		if b.String() != c.want {
			t.Errorf("%s: %s, want %s", c.flow, b.String(), c.want)
		}
		if !json.Valid(b.Bytes()) {
			t.Errorf("%s: %s is not JSON", c.flow, b.String())
		}
	}
}

func TestAppendJSONValue(t *testing.T) {
	interval := Column{Name: "best_interval", Kind: Text, Numeric: true}
	fraction := Column{Name: "from_fraction", Kind: Text}
	total := Column{Name: "best_expected_total", Kind: Float, Decimals: 1}
	for _, c := range []struct {
		col  Column
		v    Value
		want string
	}{
		{Column{Kind: Int}, IntValue(20260218), `20260218`},
		{total, FloatValue(927.2727272727273), `927.2727272727273`},
		{total, FloatValue(1e21), `1000000000000000000000`},
		{total, FloatValue(math.NaN()), `null`},
		{total, FloatValue(math.Inf(1)), `null`},
		{total, FloatValue(math.Inf(-1)), `null`},
		{Column{Kind: Bool}, BoolValue(true), `true`},
		{interval, TextValue("4"), `4`},
		{interval, TextValue("4.898979485566356"), `4.898979485566356`},
		{interval, TextValue("none"), `"none"`},
		{interval, TextValue("NaN"), `null`},
		{interval, TextValue("+Inf"), `null`},
		{fraction, TextValue("1"), `"1"`},
		{fraction, TextValue("11/18"), `"11/18"`},
		{Column{Kind: Text}, TextValue("2026-05 2026-09"), `"2026-05 2026-09"`},
	} {
		if got := string(appendJSONValue(nil, c.col, c.v)); got != c.want {
			t.Errorf("%s %v: %s, want %s", c.col.Name, c.v, got, c.want)
		}
	}
}

// TestWriteJSONNotFinite writes a run document whose decisions hold NaN
// and infinities, and reads it back: JSON has neither, so they are null.
func TestWriteJSONNotFinite(t *testing.T) {
	cols := []Column{{Name: "probability", Kind: Float, Decimals: -1}, {Name: "best_expected_total", Kind: Float, Decimals: 1},
		{Name: "young_interval", Kind: Text, Numeric: true}}
	rows := [][]Value{
		{FloatValue(1), FloatValue(math.NaN()), TextValue("NaN")},
		{FloatValue(0.5), FloatValue(math.Inf(1)), TextValue("+Inf")},
		{FloatValue(0), FloatValue(-0.5), TextValue("none")},
	}
	s := Set{Name: "x", Decisions: Table{Name: "decisions", Columns: cols, Rows: func(yield func([]Value) bool) {
		for _, r := range rows {
			if !yield(r) {
				return
			}
		}
	}}}
	var b bytes.Buffer
	if err := WriteJSON(&b, s); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Kind      string           `json:"kind"`
		Version   int              `json:"version"`
		Decisions []map[string]any `json:"decisions"`
		Breakeven []map[string]any `json:"breakeven"`
		Headline  []string         `json:"headline"`
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatalf("%v\n%s", err, b.String())
	}
	if doc.Kind != JSONKindRun || doc.Version != RunJSONVersion || len(doc.Decisions) != 3 || doc.Breakeven == nil || doc.Headline == nil {
		t.Fatalf("read back %+v", doc)
	}
	for i, want := range []map[string]any{
		{"probability": 1.0, "best_expected_total": nil, "young_interval": nil},
		{"probability": 0.5, "best_expected_total": nil, "young_interval": nil},
		{"probability": 0.0, "best_expected_total": -0.5, "young_interval": "none"},
	} {
		for k, v := range want {
			if got, ok := doc.Decisions[i][k]; !ok || got != v {
				t.Errorf("row %d %s: %v, want %v", i, k, got, v)
			}
		}
	}
}

package diff

import (
	"strings"
	"testing"
)

// TestNumberStyle: each kind of number reads as SPEC 14's number style
// has it, by its column.
func TestNumberStyle(t *testing.T) {
	for _, tt := range []struct {
		got, want string
	}{
		{number("expected_total", "2545.4545454545455"), "2,545.5"},
		{number("expected_total", "5345.454545454546"), "5,345.5"},
		{number("best_expected_total", "5800.000000000001"), "5,800.0"},
		{number("worst_case_total", "3000"), "3,000"},
		{number("certain_cost", "2400"), "2,400"},
		{number("subscribers", "1000000"), "1,000,000"},
		{number("seed", "20260218"), "20260218"},
		{number("probability", "0.75"), "0.7500"},
		{number("young_interval", "4.898979485566356"), "4.90"},
		{number("best_interval", "none"), "none"},
		{number("best_interval", "6"), "6"},
		{number("schedule_points", "2026-05 2026-09"), "2026-05 2026-09"},
		{number("expected_total", "NaN"), "NaN"},
		{number("a_column_no_table_has", "2545.4545454545455"), "2545.4545454545455"},
		{signedNumber("expected_total", 2800.0000000000005), "+2,800.0"},
		{signedNumber("certain_cost", -2400), "-2,400"},
		{signedNumber("probability", 0.25), "+0.2500"},
		{signedNumber("expected_total", posInf()), "+Inf"},
		{breakpoint("11/18"), "11/18 (0.6111)"},
		{breakpoint("0"), "0"},
		{breakpoint("1"), "1"},
		{breakpoint("1e999999999/3"), "1e999999999/3"},
		{count(1234567), "1,234,567"},
	} {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
}

func posInf() float64 { var z float64; return 1 / z }

// TestReportNumbers renders a report of the lesson with doubled state rows
// and finds every number of it in the number style, and no raw float.
func TestReportNumbers(t *testing.T) {
	e := pair(t, lesson, lesson+"state_rows: 400\n")
	for _, format := range []string{FormatText, FormatMD} {
		var b strings.Builder
		if err := Write(&b, &Report{Experiments: []Experiment{e}}, format); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		for _, want := range []string{
			"p = 0.7500: expected total picks 6 → none (809.1 → 900.0)",
			"p = 1.0000: Young 4.90 → 6.93",
			"none on [0, 11/18 (0.6111)], 6 on [11/18 (0.6111), 11/12 (0.9167)], 4 on [11/12 (0.9167), 1] → none on [0, 1]",
			"+2,400 (2,400 → 4,800)",
			"20 of 24",
		} {
			if format == FormatMD {
				want = mdEscape(want)
			}
			if !strings.Contains(out, want) {
				t.Errorf("%s lacks %q:\n%s", format, want, out)
			}
		}
		for _, raw := range []string{"545454", "0909", "898979"} {
			if strings.Contains(out, raw) {
				t.Errorf("%s holds a raw float (…%s…):\n%s", format, raw, out)
			}
		}
	}
}

package runner

import (
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"ckptlab/internal/words"
	"ckptlab/runner/experiment"
)

func TestConfigOfCases(t *testing.T) {
	e, err := experiment.Load(filepath.Join("experiment", "testdata", "load", "ok-cases.yaml"), experiment.Overrides{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range Config(e) {
		if s.Key == "cases" || s.Key == "exclude" {
			got = append(got, s.Key+": "+s.Value)
		}
	}
	want := "cases: [{subscribers: [200], periods: [12]}, {subscribers: [1000], periods: [36], intervals: all}]\n" +
		"exclude: [{partition_key: [type], workers: [8, 16]}, {interval: [1], subscribers: [1000]}]"
	if strings.Join(got, "\n") != want {
		t.Errorf("Config() =\n%s\nwant\n%s", strings.Join(got, "\n"), want)
	}
	// The resolved configuration reads back to the same experiment.
	var sets []string
	for _, s := range Config(e) {
		sets = append(sets, s.Key+"="+s.Value)
	}
	back, err := experiment.LoadBytes(e.File, []byte("name: other\n"), experiment.Overrides{Sets: sets})
	if err != nil {
		t.Fatal(err)
	}
	back.Origins = e.Origins // all --set here
	for i := range back.Cases {
		back.Cases[i].Line = e.Cases[i].Line
	}
	for i := range back.Exclude {
		back.Exclude[i].Line = e.Exclude[i].Line
	}
	if !reflect.DeepEqual(back, e) {
		t.Errorf("the configuration reads back as\n%+v\nwant\n%+v", back, e)
	}
}

// TestPlanShowsCases checks that plan lists every case with its sizes and
// every exclude entry, and totals that add up.
func TestPlanShowsCases(t *testing.T) {
	e, err := experiment.Load(filepath.Join("experiment", "testdata", "load", "ok-cases.yaml"), experiment.Overrides{})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := WritePlan(&b, e, "out", []string{"csv"}, Limits{}); err != nil {
		t.Fatal(err)
	}
	plan := b.String()
	var sum experiment.Sizes
	for i, g := range e.Cases {
		s := e.GridSizes(&g)
		sum.Sources += s.Sources
		sum.GridRows += s.GridRows
		sum.FailureRows += s.FailureRows
		want := fmt.Sprintf("[%d] %s: %s, %d grid rows, %d failures rows\n", i,
			caseText(g), countNoun(s.Sources, "source"), s.GridRows, s.FailureRows)
		if !strings.Contains(plan, want) {
			t.Errorf("plan does not say %q:\n%s", want, plan)
		}
	}
	for _, want := range []string{
		"  exclude          [0] partition_key: type, workers: [8, 16]\n",
		"                   [1] interval: 1, subscribers: 1000\n",
		fmt.Sprintf("  grid rows        %d\n", sum.GridRows),
		fmt.Sprintf("  failures rows    %d\n", sum.FailureRows),
	} {
		if !strings.Contains(plan, want) {
			t.Errorf("plan does not say %q:\n%s", want, plan)
		}
	}
	full := *e
	full.Exclude = nil
	if sum != e.Sizes() || sum.GridRows >= full.GridSizes(&e.Cases[0]).GridRows+full.GridSizes(&e.Cases[1]).GridRows {
		t.Errorf("the cases' sizes %+v are not the experiment's %+v, or exclude dropped nothing", sum, e.Sizes())
	}
}

// caseText writes a case's keys and values as the file has them.
func caseText(g experiment.Grid) string {
	return g.Describe(func(s []string) string {
		if len(s) == 1 {
			return s[0]
		}
		return "[" + strings.Join(s, ", ") + "]"
	}, words.Float)
}

package runner

import (
	"strings"
	"testing"

	"ckptlab/results"
	"ckptlab/runner/experiment"
)

// TestOrigins checks that every value of the resolved configuration says
// where it came from, the file's values saying nothing.
func TestOrigins(t *testing.T) {
	src := "name: o\nworkers: 2\nstate_rows: 100\nseeds: 7\n"
	o := experiment.Overrides{
		Env:  []string{"CKPTLAB_STATE_ROWS=400", "CKPTLAB_SEEDS=9", "HOME=/root"},
		Sets: []string{"seeds=[1, 2]", "periods=10"},
	}
	e, err := experiment.LoadBytes("o.yaml", []byte(src), o)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"name": "", "workers": "", // the file's
		"state_rows":  "CKPTLAB_STATE_ROWS",
		"seeds":       experiment.OriginSet, // --set wins over the environment
		"periods":     experiment.OriginSet,
		"subscribers": experiment.OriginDefault, "intervals": experiment.OriginDefault, "version": experiment.OriginDefault,
	}
	got := map[string]string{}
	for _, s := range Config(e) {
		got[s.Key] = s.Origin
	}
	for key, origin := range want {
		if got[key] != origin {
			t.Errorf("origin of %s = %q, want %q", key, got[key], origin)
		}
	}
}

// TestExperimentFileRunsAgain checks that experiment.yaml is an experiment
// file that resolves to the same configuration, whatever layer each value
// came from.
func TestExperimentFileRunsAgain(t *testing.T) {
	src := "name: again\ndescription: \"quotes \\\" and\\ttabs, ünïcode\"\nintervals: all\nperiods: [6, 12]\nfailure_period: 2026-03\n"
	o := experiment.Overrides{
		Env:  []string{"CKPTLAB_STATE_ROWS=[0, 400]"},
		Sets: []string{"probabilities={from: 0, to: 1, step: 0.25}", "failure_periods=[2026-02, 2026-05]", "partition_key=[region, type]"},
	}
	e, err := experiment.LoadBytes("again.yaml", []byte(src), o)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	set := results.Set{Name: e.Name, Config: Config(e), Version: Version}
	if err := set.WriteExperiment(&b); err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{"state_rows: [0, 400]  # CKPTLAB_STATE_ROWS\n", "partition_key: [region, type]  # --set\n",
		"seeds: [20260218]  # default\n", "intervals: all\n"} {
		if !strings.Contains(b.String(), line) {
			t.Errorf("experiment.yaml lacks %q:\n%s", line, b.String())
		}
	}
	again, err := experiment.LoadBytes("experiment.yaml", []byte(b.String()), experiment.Overrides{})
	if err != nil {
		t.Fatalf("experiment.yaml does not load:\n%v\n%s", err, b.String())
	}
	first, second := Config(e), Config(again)
	for i := range first {
		if first[i].Key != second[i].Key || first[i].Value != second[i].Value {
			t.Errorf("%s: %s, then %s once read back", first[i].Key, first[i].Value, second[i].Value)
		}
		if second[i].Origin != "" {
			t.Errorf("%s read back from experiment.yaml has the origin %q, want the file's", second[i].Key, second[i].Origin)
		}
	}
}

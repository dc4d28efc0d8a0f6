package experiment

import (
	"slices"
	"testing"
)

// TestEveryKeyHasASetting checks that the resolved experiment writes every
// key of the key table but extends, and no key the table lacks.
func TestEveryKeyHasASetting(t *testing.T) {
	for _, d := range keyTable {
		if _, ok := settingOf[d.Name]; ok == (d.Name == extendsKey) {
			t.Errorf("key %s: has a setting %v, want %v", d.Name, ok, !ok)
		}
	}
	for key := range settingOf {
		if keyNamed(key) == nil {
			t.Errorf("setting %s names no key of the key table", key)
		}
	}
}

// TestSettingsInKeyOrder checks that the settings of an experiment that
// sets every optional key come in the key table's order, extends aside.
func TestSettingsInKeyOrder(t *testing.T) {
	e, err := LoadBytes("x.yaml", []byte("name: x\nfailure_weights: {2026-06: 3}\ncases: [{workers: 2}, {workers: 3}]\n"+
		"exclude: [{workers: 2, interval: 1}]\n"+
		"throughput: 1\nmtbf: 1h\ncheckpoint_time: 1m\nfailure_distribution: weibull\nreplications: 10\n"), Overrides{})
	if err != nil {
		t.Fatal(err)
	}
	var got, want []string
	for _, s := range e.Settings() {
		got = append(got, s.Key)
	}
	for _, d := range keyTable {
		if d.Name != extendsKey {
			want = append(want, d.Name)
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("settings in the order\n%v\nwant the key table's\n%v", got, want)
	}
}

// TestNameSettingReadsBack checks that a name YAML would read as a number
// or a boolean is quoted in the resolved experiment, and that every name
// loads back from its setting as itself.
func TestNameSettingReadsBack(t *testing.T) {
	for _, c := range []struct{ name, flow string }{
		{"lesson", "lesson"},
		{"job-c", "job-c"},
		{"2026", `"2026"`},
		{"1e5", `"1e5"`},
		{"0x1f", `"0x1f"`},
		{"true", `"true"`},
		{"null", `"null"`},
	} {
		e, err := LoadBytes("x.yaml", []byte("name: \""+c.name+"\"\n"), Overrides{})
		if err != nil {
			t.Fatal(err)
		}
		got := e.Settings()[1]
		if got.Key != "name" || got.Flow() != c.flow {
			t.Errorf("%s: setting %s: %s, want name: %s", c.name, got.Key, got.Flow(), c.flow)
		}
		again, err := LoadBytes("x.yaml", []byte("name: "+got.Flow()+"\n"), Overrides{})
		if err != nil || again.Name != c.name {
			t.Errorf("%s: name: %s loads as %q, %v", c.name, got.Flow(), again.Name, err)
		}
	}
}

package experiment

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestFolderBases loads folders of experiments and bases: a base is
// checked key by key where it stands and whole in each experiment that
// extends it, and a nameless file no experiment extends is an error.
func TestFolderBases(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string // in the folder x
		bases Bases
		want  string // the errors, one a line; "" when the folder loads
		exps  []string
		extBy map[string][]string // base → the experiments that extend it
	}{
		{"a base valid only once extended", map[string]string{
			"common.yaml": "periods: 8\n",
			"job-c.yml":   "extends: common.yaml\nname: job-c\nfailure_period: 2026-05\n",
		}, RunBases, "", []string{"job-c"}, map[string][]string{"common.yaml": {"job-c.yml"}}},
		{"the default checked in the experiment, located in the base", map[string]string{
			"common.yaml": "periods: 8\n",
			"job-c.yml":   "extends: common.yaml\nname: job-c\nfailure_period: 2026-05\n",
			"job-d.yml":   "name: job-d\nextends: common.yaml\n",
		}, CheckBases, "x/common.yaml:1:10: periods: 8 leaves the default failure_period 2026-09 outside 2026-02..2026-08 (want failure_period set within them); in x/job-d.yml:2:10: extends", nil, nil},
		{"a base's bad value, said once where it stands", map[string]string{
			"common.yaml": "workers: 0\n",
			"a.yaml":      "extends: common.yaml\nname: a\n",
		}, RunBases, "x/common.yaml:1:10: workers: 0 is not a worker count (want >= 1)", nil, nil},
		{"a base's bad value, in its experiment only", map[string]string{
			"base/common.yaml": "workers: 0\n",
			"a.yaml":           "extends: base/common.yaml\nname: a\n",
		}, RunBases, "x/base/common.yaml:1:10: workers: 0 is not a worker count (want >= 1); in x/a.yaml:1:10: extends", nil, nil},
		{"a forgotten name", map[string]string{
			"a.yaml":      "name: a\n",
			"forgot.yaml": "subscribers: 300\n",
		}, RunBases, "x/forgot.yaml:1:1: " + noNameHere, nil, nil},
		{"a forgotten name, validated", map[string]string{
			"a.yaml":      "name: a\n",
			"forgot.yaml": "subscribers: 300\n",
		}, CheckBases, "x/forgot.yaml:1:1: " + noNameHere, nil, nil},
		{"an empty file", map[string]string{
			"a.yaml":     "name: a\n",
			"empty.yaml": "# nothing yet\n",
		}, CheckBases, "x/empty.yaml:1:1: " + emptyFile, nil, nil},
		{"a base extended through another base, and from base/", map[string]string{
			"base/stream.yaml": "workers: 8\n",
			"common.yaml":      "extends: base/stream.yaml\nperiods: 8\nfailure_period: 2026-05\n",
			"more.yaml":        "subscribers: 10\n",
			"a.yaml":           "extends: [common.yaml, more.yaml]\nname: a\n",
			"b.yaml":           "extends: common.yaml\nname: b\n",
		}, CheckBases, "", []string{"a", "b"}, map[string][]string{"common.yaml": {"a.yaml", "b.yaml"}, "more.yaml": {"a.yaml"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, src := range tt.files {
				path := filepath.Join(dir, "x", filepath.FromSlash(name))
				os.MkdirAll(filepath.Dir(path), 0o755)
				if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			t.Chdir(dir)
			b, err := LoadArgs(Disk, []string{"x"}, Overrides{}, tt.bases)
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tt.want {
				t.Fatalf("LoadArgs:\n%s\nwant\n%s", got, tt.want)
			}
			var names []string
			for _, e := range b.Experiments {
				names = append(names, e.Name)
			}
			if !slices.Equal(names, tt.exps) {
				t.Errorf("experiments %v, want %v", names, tt.exps)
			}
			if len(b.Bases) != len(tt.extBy) {
				t.Errorf("bases %v, want %v", b.Bases, tt.extBy)
			}
			for _, base := range b.Bases {
				var want []string
				for _, f := range tt.extBy[strings.TrimPrefix(base.Path, "x/")] {
					want = append(want, filepath.Join("x", f))
				}
				if !slices.Equal(base.ExtendedBy, want) {
					t.Errorf("%s extended by %v, want %v", base.Path, base.ExtendedBy, want)
				}
			}
		})
	}
}

// TestBaseByName validates a base given by name key by key: what only
// its experiments can decide is left to them, and an empty file is refused.
func TestBaseByName(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	os.WriteFile("common.yaml", []byte("periods: 8\nintervals: [8]\n"), 0o644)
	os.WriteFile("empty.yaml", nil, 0o644)
	b, err := LoadArgs(Disk, []string{"common.yaml"}, Overrides{}, CheckBases)
	if err != nil || len(b.Bases) != 1 || b.Bases[0].Path != "common.yaml" {
		t.Errorf("validate of a base: %v, %v", b.Bases, err)
	}
	if _, err := LoadArgs(Disk, []string{"common.yaml"}, Overrides{}, RunBases); err == nil || !strings.Contains(err.Error(), "is a base: it has no name") {
		t.Errorf("run of a base: %v", err)
	}
	for _, bases := range []Bases{RunBases, CheckBases} {
		if _, err := LoadArgs(Disk, []string{"empty.yaml"}, Overrides{}, bases); err == nil || err.Error() != "empty.yaml:1:1: "+emptyFile {
			t.Errorf("an empty file: %v", err)
		}
	}
}

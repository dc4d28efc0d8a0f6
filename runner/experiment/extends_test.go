package experiment

import (
	"ckptlab/internal/testkit"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestExtendsCorpus loads every file directly in testdata/extends, whose
// bases are in testdata/extends/base, and compares what it gives with the
// golden file NAME.golden: for a file that loads, its values and the
// origin of each that is not its own; for a file that does not, every
// error, each located in the file that holds the value, with the chain.
func TestExtendsCorpus(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "extends", "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus: %v", err)
	}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			e, _, err := loadFrom(Disk, path, Overrides{})
			ok := strings.HasPrefix(filepath.Base(path), "ok-")
			var got string
			switch {
			case ok && err != nil:
				t.Fatalf("Load: %v", err)
			case ok:
				got = describeLayers(e)
			case err == nil:
				t.Fatalf("Load gave no error, want one")
			default:
				var list ErrorList
				if !errors.As(err, &list) {
					t.Fatalf("Load = %v, want an ErrorList", err)
				}
				for _, x := range list {
					if x.Line < 1 || x.Col < 1 {
						t.Errorf("error without a position: %#v", x)
					}
					if x.File != path && x.Via == "" {
						t.Errorf("error in a base without its chain: %#v", x)
					}
				}
				got = err.Error() + "\n"
			}
			testkit.Golden(t, strings.TrimSuffix(path, ".yaml")+".golden", []byte(got))
		})
	}
}

// describeLayers writes the values of e that bases set, and every origin.
func describeLayers(e *Experiment) string {
	var b strings.Builder
	fmt.Fprintf(&b, "name: %q\n", e.Name)
	fmt.Fprintf(&b, "seeds: %v\nsubscribers: %v\nperiods: %v\nworkers: %v\n", e.Seeds, e.Subscribers, e.Periods, e.Workers)
	fmt.Fprintf(&b, "probabilities: %v\nintervals: %v\nmissing: %d\nduplicates: %d\n", e.Probabilities, e.Intervals, e.Missing, e.Duplicates)
	keys := make([]string, 0, len(e.Origins))
	for k := range e.Origins {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if e.Origins[k] != OriginDefault {
			fmt.Fprintf(&b, "origin of %s: %s\n", k, e.Origins[k])
		}
	}
	return b.String()
}

// TestExtendsDepth builds chains of bases 16 and 17 long: the first loads,
// the second is refused at the extends that goes too deep.
func TestExtendsDepth(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for i := 1; i <= maxExtendsDepth+1; i++ {
		write(fmt.Sprintf("b%d.yaml", i), fmt.Sprintf("extends: b%d.yaml\nworkers: %d\n", i+1, i))
	}
	write(fmt.Sprintf("b%d.yaml", maxExtendsDepth+2), "seeds: 7\n")
	write("top.yaml", "name: top\nextends: b1.yaml\n")
	// b17 is base 17: stop the chain at b16 for the one that loads.
	write("b16.yaml", "workers: 16\n")
	e, err := Load(filepath.Join(dir, "top.yaml"), Overrides{})
	if err != nil {
		t.Fatalf("a chain of %d: %v", maxExtendsDepth, err)
	}
	if !slices.Equal(e.Workers, []int{1}) {
		t.Errorf("workers = %v, want [1], the file's first base's", e.Workers)
	}
	write("b16.yaml", "extends: b17.yaml\n")
	_, err = Load(filepath.Join(dir, "top.yaml"), Overrides{})
	b16 := filepath.Join(dir, "b16.yaml")
	if err == nil || !strings.Contains(err.Error(), b16+":1:10: extends: b17.yaml would be base 17 of a chain, deeper than 16") {
		t.Fatalf("a chain of %d: %v", maxExtendsDepth+1, err)
	}
}

// TestExtendsNotOverridden refuses extends from the environment and --set.
func TestExtendsNotOverridden(t *testing.T) {
	_, err := LoadBytes("x.yaml", []byte("name: x\n"), Overrides{Env: []string{"CKPTLAB_EXTENDS=a.yaml"}, Sets: []string{"extends=b.yaml"}})
	want := "env CKPTLAB_EXTENDS: " + fileOnly + "\n--set extends: " + fileOnly
	if err == nil || err.Error() != want {
		t.Errorf("got %v, want\n%s", err, want)
	}
}

// TestExtendsLayers checks the precedence: bases in order < file < env <
// --set, each replacing a value whole.
func TestExtendsLayers(t *testing.T) {
	dir := t.TempDir()
	for name, src := range map[string]string{
		"a.yaml":   "workers: [1, 2, 3]\nseeds: {from: 1, to: 9}\nperiods: 24\nintervals: [none, 4]\n",
		"b.yaml":   "workers: 5\nstate_rows: 7\n",
		"top.yaml": "name: top\nextends: [a.yaml, b.yaml]\nseeds: [4]\nsubscribers: 30\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	e, err := Load(filepath.Join(dir, "top.yaml"), Overrides{
		Env: []string{"CKPTLAB_SUBSCRIBERS=40", "CKPTLAB_STATE_ROWS=8"}, Sets: []string{"subscribers=50"}})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(e.Workers, []int{5}) || !slices.Equal(e.Seeds, []uint32{4}) || !slices.Equal(e.Periods, []int{24}) ||
		!slices.Equal(e.Subscribers, []int{50}) || !slices.Equal(e.StateRows, []int{8}) {
		t.Errorf("workers %v seeds %v periods %v subscribers %v state_rows %v", e.Workers, e.Seeds, e.Periods, e.Subscribers, e.StateRows)
	}
	want := map[string]string{"workers": "from b.yaml", "periods": "from a.yaml", "intervals": "from a.yaml",
		"subscribers": OriginSet, "state_rows": "CKPTLAB_STATE_ROWS"}
	for k, v := range want {
		if e.Origins[k] != v {
			t.Errorf("origin of %s = %q, want %q", k, e.Origins[k], v)
		}
	}
	if _, ok := e.Origins["seeds"]; ok {
		t.Errorf("seeds has origin %q, want the file's", e.Origins["seeds"])
	}
}

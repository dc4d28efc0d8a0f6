package runner

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"ckptlab/runner/experiment"
)

// extendsPool holds, for the keys the property test spreads over bases,
// a few values each: small, so that the experiments evaluate fast.
var extendsPool = map[string][]string{
	"seeds":          {"1", "[1, 2]", "{from: 5, to: 7}"},
	"subscribers":    {"30", "[20, 45]"},
	"periods":        {"12", "8"},
	"partition_key":  {"subscriber", "[region, type]"},
	"workers":        {"2", "[1, 3]"},
	"state_rows":     {"subscribers", "[0, 17]"},
	"probabilities":  {"[1, 0.5]", "{from: 0, to: 1, step: 0.25}"},
	"intervals":      {"[none, 4, 2]", "all", "[none, 3, 1]"},
	"missing":        {"0", "3"},
	"duplicates":     {"0", "2"},
	"risk_level":     {"0.95", "0.5"},
	"failure_period": {"2026-05", "2026-03"},
}

// TestExtendsSameAsFlat is a property: an experiment whose keys are
// spread over a chain of bases (some set again, and replaced, later)
// gives the same tables, byte for byte, as the same experiment written
// out flat in one file, and the same hash.
func TestExtendsSameAsFlat(t *testing.T) {
	keys := make([]string, 0, len(extendsPool))
	for k := range extendsPool {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	rng := rand.New(rand.NewPCG(19, 20))
	evaluated := 0
	for trial := range 12 {
		dir := t.TempDir()
		// Three layers: base b2 (extended by b1), b1, the file. Each key
		// goes to some of them; the last one that sets it wins.
		layers := [3]strings.Builder{}
		flat := "name: x\n"
		for _, k := range keys {
			pool := extendsPool[k]
			final := ""
			for l := range layers {
				if rng.IntN(3) == 0 {
					v := pool[rng.IntN(len(pool))]
					fmt.Fprintf(&layers[l], "%s: %s\n", k, v)
					final = v
				}
			}
			if final != "" {
				flat += k + ": " + final + "\n"
			}
		}
		write := func(name, src string) string {
			path := filepath.Join(dir, name)
			os.MkdirAll(filepath.Dir(path), 0o755)
			if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			return path
		}
		write("base/b2.yaml", layers[0].String())
		write("base/b1.yaml", "extends: b2.yaml\n"+layers[1].String())
		layered := write("x.yaml", "extends: [base/b1.yaml]\nname: x\n"+layers[2].String())
		flatPath := write("flat.yaml", flat)

		a, errA := experiment.Load(layered, experiment.Overrides{})
		b, errB := experiment.Load(flatPath, experiment.Overrides{})
		if (errA == nil) != (errB == nil) {
			t.Fatalf("trial %d: layered %v, flat %v\nflat:\n%s", trial, errA, errB, flat)
		}
		if errA != nil {
			continue // a combination the loader refuses either way
		}
		evaluated++
		if configHash(a) != configHash(b) {
			t.Errorf("trial %d: hashes differ", trial)
		}
		ra, err := Evaluate(context.Background(), a, Options{Jobs: 1})
		if err != nil {
			t.Fatal(err)
		}
		rb, err := Evaluate(context.Background(), b, Options{Jobs: 1})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(ra.Sources, rb.Sources) || len(ra.Sources) == 0 {
			t.Errorf("trial %d: the evaluated sources differ between the layered and the flat file\nflat:\n%s", trial, flat)
		}
	}
	if evaluated < 8 {
		t.Errorf("only %d of 12 trials loaded: the pool makes too many invalid experiments", evaluated)
	}
}

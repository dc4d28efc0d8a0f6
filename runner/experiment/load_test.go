package experiment

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"

	"ckptlab/internal/testkit"
	"ckptlab/model"
)

// TestLoadCorpus loads every file of testdata/load. A file named ok-*.yaml
// must load; any other must fail with exactly the errors of its golden
// file NAME.err, every one with a position.
func TestLoadCorpus(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "load", "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus: %v", err)
	}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			_, err := Load(path, Overrides{})
			if strings.HasPrefix(filepath.Base(path), "ok-") {
				if err != nil {
					t.Fatalf("Load: %v", err)
				}
				return
			}
			var list ErrorList
			if !errors.As(err, &list) {
				t.Fatalf("Load = %v, want an ErrorList", err)
			}
			for _, e := range list {
				if e.File != path || e.Line < 1 || e.Col < 1 {
					t.Errorf("error without a position in %s: %#v", path, e)
				}
			}
			testkit.Golden(t, strings.TrimSuffix(path, ".yaml")+".err", []byte(err.Error()+"\n"))
		})
	}
}

// TestLoadExperiments loads every experiment the repository ships.
func TestLoadExperiments(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "experiments", "*.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 4 {
		t.Fatalf("found %d experiments in ../../experiments, want at least 4", len(files))
	}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			e, err := Load(path, Overrides{})
			if err != nil {
				t.Fatalf("Load:\n%v", err)
			}
			if want := strings.TrimSuffix(filepath.Base(path), ".yaml"); e.Name != want {
				t.Errorf("name = %q, want %q, the file's name", e.Name, want)
			}
		})
	}
}

// TestExperimentHeaders checks that the examples name their schema first
// and say which question they answer.
func TestExperimentHeaders(t *testing.T) {
	for _, name := range []string{"workers", "probability-sweep", "faults", "long-horizon",
		"paired-sizes", "fine-and-coarse"} {
		data, err := os.ReadFile(filepath.Join("..", "..", "experiments", name+".yaml"))
		if err != nil {
			t.Fatal(err)
		}
		first, rest, _ := strings.Cut(string(data), "\n")
		if first != "# yaml-language-server: $schema=../experiment.schema.json" {
			t.Errorf("%s.yaml starts with %q, want the schema comment", name, first)
		}
		if !strings.Contains(rest, "# Question: ") {
			t.Errorf("%s.yaml does not say which question it answers", name)
		}
	}
}

func TestLoadDefaults(t *testing.T) {
	e, err := LoadBytes("two.yaml", []byte("version: 1\nname: two\n"), Overrides{})
	if err != nil {
		t.Fatal(err)
	}
	want := Lesson("two")
	want.File = "two.yaml"
	want.Origins = e.Origins // TestOrigins checks them
	if !reflect.DeepEqual(*e, want) {
		t.Errorf("LoadBytes = %+v\nwant the lesson's values %+v", *e, want)
	}
}

func TestLoadEveryKey(t *testing.T) {
	path := filepath.Join("testdata", "load", "ok-every-key.yaml")
	e, err := Load(path, Overrides{})
	if err != nil {
		t.Fatal(err)
	}
	want := Experiment{
		File:        path,
		Version:     1,
		Name:        "every-key",
		Description: "every key: set",
		Axes: Axes{
			Seeds:         []uint32{1, 2},
			Subscribers:   []int{10, 20, 30},
			Periods:       []int{24, 12},
			PartitionKeys: []model.PartitionKey{model.ByRegion, model.ByType},
			Workers:       []int{8},
			StateRows:     []int{400, 200, 0},
			Probabilities: []float64{0.1, 0.1 + 0.1, 0.3},
			Intervals:     []model.Interval{1, 2, 3},
		},
		RiskLevel:      0.5,
		Start:          model.NewMonth(2027, 3),
		Missing:        3,
		Duplicates:     2,
		FailurePeriod:  model.NewMonth(2027, 10),
		FailurePeriods: []model.Month{model.NewMonth(2027, 4), model.NewMonth(2028, 2)},
		FailureWeights: map[model.Month]int64{model.NewMonth(2028, 2): 3}, // a weight of 1 is the default
		Origins:        map[string]string{},
	}
	if !reflect.DeepEqual(*e, want) {
		t.Errorf("Load =\n%+v\nwant\n%+v", *e, want)
	}
	if got := e.FailuresFor(12); !reflect.DeepEqual(got, []int{1, 11}) {
		t.Errorf("FailuresFor(12) = %v, want [1 11]", got)
	}
	if got := e.FailureSetFor(12); !reflect.DeepEqual(got.Weights, []int64{1, 3}) || got.Total() != 4 {
		t.Errorf("FailureSetFor(12) = %+v, want weights [1 3] of total 4", got)
	}
}

func TestLoadStateRowsWord(t *testing.T) {
	e, err := LoadBytes("w.yaml", []byte("name: w\nsubscribers: [200, 5000]\nstate_rows: [100, subscribers]\n"), Overrides{})
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{100, subscriberState}; !slices.Equal(e.StateRows, want) {
		t.Errorf("StateRows = %v, want %v", e.StateRows, want)
	}
	for _, c := range []struct{ n, want int }{{200, 200}, {5000, 5000}} {
		if got := e.StateRowsFor(c.n); !slices.Equal(got, []int{100, c.want}) {
			t.Errorf("StateRowsFor(%d) = %v, want [100 %d]", c.n, got, c.want)
		}
	}
	if l := Lesson("x"); !slices.Equal(l.StateRowsFor(1_000_000), []int{1_000_000}) {
		t.Errorf("default StateRowsFor(1000000) = %v, want one state row per subscriber", l.StateRowsFor(1_000_000))
	}
}

func TestLoadQuotedStrings(t *testing.T) {
	e, err := Load(filepath.Join("testdata", "load", "ok-quoted-strings.yaml"), Overrides{})
	if err != nil {
		t.Fatal(err)
	}
	if e.Name != "quoted" || e.Start != model.NewMonth(2026, 2) || e.PartitionKeys[0] != model.ByType ||
		!reflect.DeepEqual(e.Intervals, []model.Interval{model.None, 2}) || e.FailurePeriods != nil {
		t.Errorf("Load = %+v", *e)
	}
}

// TestLoadReportsEveryError checks that one file's errors all come back,
// in the order of their positions.
func TestLoadReportsEveryError(t *testing.T) {
	path := filepath.Join("testdata", "load", "several-errors.yaml")
	_, err := Load(path, Overrides{})
	var list ErrorList
	if !errors.As(err, &list) {
		t.Fatalf("Load = %v, want an ErrorList", err)
	}
	want := []struct {
		line, col int
		key       string
	}{
		{3, 10, "workers"},
		{4, 12, "seeds[1]"},
		{5, 39, "probabilities.step"},
		{6, 1, "colour"},
		{7, 19, "intervals[1]"},
		{8, 8, "start"},
		{9, 1, "workers"},
	}
	if len(list) != len(want) {
		t.Fatalf("got %d errors, want %d:\n%v", len(list), len(want), err)
	}
	for i, w := range want {
		if e := list[i]; e.Line != w.line || e.Col != w.col || e.Key != w.key {
			t.Errorf("error %d = %d:%d %s, want %d:%d %s", i, e.Line, e.Col, e.Key, w.line, w.col, w.key)
		}
	}
}

func TestLoadMissingFile(t *testing.T) {
	_, err := Load(filepath.Join(t.TempDir(), "none.yaml"), Overrides{})
	if err == nil || !strings.Contains(err.Error(), "none.yaml: cannot read the file: no such file or directory") {
		t.Errorf("Load = %v, want a cannot-read error", err)
	}
}

// TestAliasBombFailsFast checks that the billion laughs stay unexpanded:
// the aliases are refused at their positions, and quickly.
func TestAliasBombFailsFast(t *testing.T) {
	path := filepath.Join("testdata", "load", "alias-bomb.yaml")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, err = LoadBytes(path, data, Overrides{})
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("LoadBytes took %v", took)
	}
	if err == nil || !strings.Contains(err.Error(), "alias *a8 is not allowed") {
		t.Errorf("LoadBytes = %v, want aliases refused", err)
	}
}

// TestParserPanic checks that a panic of the YAML parser becomes a syntax
// error of the file. gopkg.in/yaml.v3 v3.0.1 panics on some inputs; none
// is known to panic when decoding into a yaml.Node, so the panic is
// staged.
func TestParserPanic(t *testing.T) {
	_, err := withoutPanic(func() ([]*yaml.Node, error) { panic("index out of range") })
	if err == nil {
		t.Fatal("withoutPanic returned no error")
	}
	e := syntaxError(err, nil, place{File: "x.yaml", Lines: true})
	if got, want := e.Error(), "x.yaml:1:1: syntax error: the parser failed: index out of range"; got != want {
		t.Errorf("error = %q, want %q", got, want)
	}
	// The input the parser of yaml.v3 trips over when merging into a map.
	data := []byte("<<: {? [1] : 2}\n? [1] : 3\n")
	if _, err := LoadBytes("x.yaml", data, Overrides{}); err == nil {
		t.Error("LoadBytes accepted a merge key")
	}
}

func TestErrorFormat(t *testing.T) {
	tests := []struct {
		e    Error
		want string
	}{
		{Error{File: "experiments/x.yaml", Line: 7, Col: 14, Key: "intervals[2]", Msg: "0 is not an interval (want none, all, or 1..12)"},
			"experiments/x.yaml:7:14: intervals[2]: 0 is not an interval (want none, all, or 1..12)"},
		{Error{File: "x.yaml", Line: 2, Col: 1, Msg: "syntax error: found character that cannot start any token"},
			"x.yaml:2:1: syntax error: found character that cannot start any token"},
		{Error{File: OriginSet, Key: "workers", Msg: "0 is not a worker count (want >= 1)"},
			"--set workers: 0 is not a worker count (want >= 1)"},
		{Error{File: OriginEnv, Key: "CKPTLAB_WORKERS", Msg: "0 is not a worker count (want >= 1)"},
			"env CKPTLAB_WORKERS: 0 is not a worker count (want >= 1)"},
		{Error{File: "x.yaml", Msg: "cannot read the file: permission denied"},
			"x.yaml: cannot read the file: permission denied"},
	}
	for _, tt := range tests {
		if got := tt.e.Error(); got != tt.want {
			t.Errorf("Error() = %q, want %q", got, tt.want)
		}
	}
}

func TestLoadAll(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	a := write("a.yaml", "name: a\n")
	b := write("b.yaml", "name: b\nworkers: 0\n")
	c := write("c.yaml", "name: c\nseeds: -1\n")
	a2 := write("a2.yaml", "name: a\n")

	exps, err := LoadAll([]string{a}, Overrides{})
	if err != nil || len(exps) != 1 || exps[0].Name != "a" {
		t.Fatalf("LoadAll(a) = %v, %v", exps, err)
	}
	_, err = LoadAll([]string{a, b, c}, Overrides{Sets: []string{"colour=blue"}})
	want := "--set colour: unknown key (want one of " + strings.Join(keyNames(), ", ") + ")\n" +
		b + ":2:10: workers: 0 is not a worker count (want >= 1)\n" +
		c + ":2:8: seeds: -1 is not a seed (want 0..4294967295)"
	if err == nil || err.Error() != want {
		t.Errorf("LoadAll(a, b, c) = %v\nwant\n%s", err, want)
	}
	_, err = LoadAll([]string{a, a2}, Overrides{})
	want = a2 + ": name: a is also the name of " + a + " (want one experiment per name, each writes OUT/<name>)"
	if err == nil || err.Error() != want {
		t.Errorf("LoadAll(a, a2) = %v\nwant %s", err, want)
	}
}

// BenchmarkLoadLongList loads a list of 100,000 seeds: the cost must grow
// with the file, not with copies of it.
func BenchmarkLoadLongList(b *testing.B) {
	var src strings.Builder
	src.WriteString("name: x\nseeds: [")
	for i := range 100_000 {
		fmt.Fprintf(&src, "%d, ", i)
	}
	src.WriteString("100000]\n")
	data := []byte(src.String())
	for b.Loop() {
		if _, err := LoadBytes("x.yaml", data, Overrides{}); err != nil {
			b.Fatal(err)
		}
	}
}

func TestIsDecimal(t *testing.T) {
	tests := []struct {
		s              string
		decimal, octal bool
	}{
		{"0", true, false}, {"7", true, false}, {"-12", true, false}, {"+3", true, false},
		{"017", false, true}, {"-00", false, true}, {"0x10", false, false}, {"1_000", false, false},
		{"", false, false}, {"-", false, false}, {"+-1", false, false}, {"1e3", false, false},
	}
	for _, tt := range tests {
		if got := isDecimal(tt.s); got != tt.decimal {
			t.Errorf("isDecimal(%q) = %v, want %v", tt.s, got, tt.decimal)
		}
		if got := hasLeadingZero(tt.s); got != tt.octal {
			t.Errorf("hasLeadingZero(%q) = %v, want %v", tt.s, got, tt.octal)
		}
	}
}

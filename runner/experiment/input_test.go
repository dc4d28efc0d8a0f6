package experiment

import (
	"ckptlab/internal/testkit"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// zeros is an endless reader, as /dev/zero is.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) { clear(p); return len(p), nil }

// TestLoadRefusesWhatIsNotAFile checks that Load reads regular files of at
// most MaxFileBytes, and refuses anything else before reading much of it:
// a FIFO with no writer must not block, /dev/zero must not be read whole.
func TestLoadRefusesWhatIsNotAFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.yaml")
	testkit.MakeFIFO(t, fifo)
	big := filepath.Join(dir, "big.yaml")
	if err := os.WriteFile(big, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(big, MaxFileBytes+1); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ path, want string }{
		{fifo, "is not a regular file but a FIFO (want a YAML file, or - to read one from standard input)"},
		{"/dev/zero", "is not a regular file but a device"},
		{dir, "is a folder, not an experiment file"},
		{big, "the file is larger than 4 MiB, the most an experiment file may be"},
		{filepath.Join(dir, "none.yaml"), "cannot read the file: no such file or directory"},
	}
	for _, tt := range tests {
		_, err := Load(tt.path, Overrides{})
		if err == nil || !strings.HasPrefix(err.Error(), tt.path+": ") || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Load(%s) = %v, want %q", tt.path, err, tt.want)
		}
	}
}

// TestLoadStdin reads the experiment from standard input, once, within the
// size limit.
func TestLoadStdin(t *testing.T) {
	defer func(r io.Reader) { stdinReader = r }(stdinReader)
	stdinReader = strings.NewReader("name: piped\nworkers: 0\n")
	_, err := Load("-", Overrides{})
	if err == nil || err.Error() != "<stdin>:2:10: workers: 0 is not a worker count (want >= 1)" {
		t.Errorf("Load(-) = %v", err)
	}
	stdinReader = strings.NewReader("name: piped\n")
	e, err := Load("-", Overrides{})
	if err != nil || e.Name != "piped" || e.File != stdinName {
		t.Errorf("Load(-) = %+v, %v", e, err)
	}
	stdinReader = zeros{}
	if _, err := Load("-", Overrides{}); err == nil || !strings.Contains(err.Error(), "standard input is larger than 4 MiB") {
		t.Errorf("Load(-) of endless zeros = %v, want refused for its size", err)
	}
	stdinReader = strings.NewReader("name: piped\n")
	if _, err := LoadAll([]string{"-", "-"}, Overrides{}); err == nil || !strings.Contains(err.Error(), "- is given twice") {
		t.Errorf("LoadAll(-, -) = %v, want refused", err)
	}
}

// TestErrorsCapped checks that a file of a thousand bad values prints the
// first maxErrorsShown errors and counts the rest.
func TestErrorsCapped(t *testing.T) {
	var b strings.Builder
	b.WriteString("name: many\nworkers: [")
	for i := range 1000 {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString("0")
	}
	b.WriteString("]\n")
	_, err := LoadBytes("many.yaml", []byte(b.String()), Overrides{})
	if err == nil {
		t.Fatal("no error")
	}
	lines := strings.Split(err.Error(), "\n")
	if len(lines) != maxErrorsShown+1 {
		t.Fatalf("%d lines of errors, want %d and a count", len(lines), maxErrorsShown)
	}
	if want := fmt.Sprintf("… and %d more errors (fix these first, then validate again)", 1000-maxErrorsShown); lines[maxErrorsShown] != want {
		t.Errorf("last line %q, want %q", lines[maxErrorsShown], want)
	}
}

// TestYAMLHints checks the errors of the YAML mistakes people make most,
// in files as in --set: each is one error, located, that says what
// happened and how to write it.
func TestYAMLHints(t *testing.T) {
	tab := "a tab: YAML indents with spaces, never tabs (want spaces in place of the tab)"
	tests := []struct {
		name, file string
		env, sets  []string
		want       string
	}{
		{"a tab before a key", "name: x\n\tworkers: 4\n", nil, nil, "x.yaml:2:1: workers: " + tab},
		{"a tab below a key", "name: x\nworkers:\n\tfrom: 1\n", nil, nil, "x.yaml:3:1: workers.from: " + tab},
		{"a tab after spaces", "name: x\nworkers:\n  from: 1\n\tto: 4\n", nil, nil, "x.yaml:4:1: workers.to: " + tab},
		{"a tab before a list item", "name: x\nintervals:\n  - 4\n  \t- 2\n", nil, nil, "x.yaml:4:3: intervals: " + tab},
		{"a tab in --set", "name: x\n", nil, []string{"workers=\t4"}, "--set workers: " + tab},
		{"a glued colon", "name: x\nworkers: {from:1,to:4}\n", nil, nil,
			"x.yaml:2:10: workers: a colon takes a space after it: YAML reads from:1 as one word, not a key and its value (want {from: 1, to: 4})"},
		{"a glued colon after a right one", "name: x\nprobabilities: {from: 0,to:1, step: 0.5}\n", nil, nil,
			"x.yaml:2:16: probabilities: a colon takes a space after it: YAML reads to:1 as one word, not a key and its value (want {from: 0, to: 1, step: 0.5})"},
		{"a glued colon in a case", "name: x\ncases: [{workers: 2}, {workers:4}]\n", nil, nil,
			"x.yaml:2:23: cases[1]: a colon takes a space after it: YAML reads workers:4 as one word, not a key and its value (want {workers: 4})"},
		{"a glued colon in --set", "name: x\n", nil, []string{"workers={from:1,to:4}"},
			"--set workers: a colon takes a space after it: YAML reads from:1 as one word, not a key and its value (want --set 'workers={from: 1, to: 4}')"},
		{"a glued colon in the environment", "name: x\n", []string{"CKPTLAB_WORKERS={from:1, to:4}"}, nil,
			"env CKPTLAB_WORKERS: a colon takes a space after it: YAML reads from:1 as one word, not a key and its value (want CKPTLAB_WORKERS='{from: 1, to: 4}')"},
		{"a range with dots", "name: x\nprobabilities: 0..1\n", nil, nil,
			"x.yaml:2:16: probabilities: 0..1 is not how YAML writes a range (want {from: 0, to: 1, step: …})"},
		{"a range of whole numbers with dots", "name: x\nworkers: 1...4\n", nil, nil,
			"x.yaml:2:10: workers: 1...4 is not how YAML writes a range (want {from: 1, to: 4})"},
		{"a range with dots in a list", "name: x\nseeds: [1..3]\n", nil, nil,
			"x.yaml:2:9: seeds[0]: 1..3 is not how YAML writes a range (want seeds: {from: 1, to: 3}, a range in place of the list)"},
		{"a range with dots in --set", "name: x\n", nil, []string{"probabilities=0.25..1"},
			"--set probabilities: 0.25..1 is not how YAML writes a range (want {from: 0.25, to: 1, step: …})"},
		{"a range written right", "name: x\nworkers: {from: 1, to: 0}\n", nil, nil,
			"x.yaml:2:24: workers.to: 0 is not a worker count (want >= 1)"},
		{"a colon in a list", "name: x\nintervals: [none,4,99]\n", nil, nil,
			"x.yaml:2:20: intervals[2]: 99 is not an interval (want none, all, or 1..12)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := LoadBytes("x.yaml", []byte(tt.file), Overrides{Env: tt.env, Sets: tt.sets})
			if err == nil || err.Error() != tt.want {
				t.Errorf("got\n%v\nwant\n%s", err, tt.want)
			}
		})
	}
}

package experiment

import (
	"ckptlab/internal/fifotest"
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
	fifotest.Make(t, fifo)
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

// TestFlowHints checks which --set values get a hint about the space
// after a colon: only flow mappings that lack it, and only with errors.
func TestFlowHints(t *testing.T) {
	tests := []struct {
		set  string
		hint string // "" for none
	}{
		{"workers={from:1,to:4}", "(want --set 'workers={from: 1, to: 4}')"},
		{"probabilities={from: 0,to:1, step: 0.5}", "(want --set 'probabilities={from: 0, to: 1, step: 0.5}')"},
		{"workers={from: 1, to: 0}", ""}, // an error, but written right
		{"intervals=[none,4,99]", ""},    // no mapping
	}
	for _, tt := range tests {
		_, err := LoadBytes("x.yaml", []byte("name: x\n"), Overrides{Sets: []string{tt.set}})
		if err == nil {
			t.Fatalf("--set %s: no error", tt.set)
		}
		hinted := strings.Contains(err.Error(), "hint: in YAML flow syntax a colon takes a space after it")
		if hinted != (tt.hint != "") || !strings.Contains(err.Error(), tt.hint) {
			t.Errorf("--set %s:\n%v\nwant hint %q", tt.set, err, tt.hint)
		}
	}
}

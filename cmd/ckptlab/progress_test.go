package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"ckptlab/results"
)

// TestProgressNotOnANonTerminal checks that progress stays off whatever is
// not a terminal: a buffer, a file or a pipe as in CI.
// Progress also stays off with -q.
func TestProgressNotOnANonTerminal(t *testing.T) {
	file, err := os.Create(filepath.Join(t.TempDir(), "stderr"))
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var buf bytes.Buffer
	tests := []struct {
		name   string
		stderr io.Writer
		quiet  bool
	}{
		{"buffer", &buf, false},
		{"file", file, false},
		{"pipe", w, false},
		{"quiet file", file, true},
	}
	for _, tt := range tests {
		report, finish := newProgress(tt.stderr, tt.quiet)
		for done := int64(0); done <= 1000; done += 100 {
			report(done, 1000)
		}
		finish()

		set := withRowsProgress(results.Set{Grid: tenRows()}, 10, tt.stderr, tt.quiet)
		if err := results.WriteCSV(io.Discard, set.Grid); err != nil {
			t.Fatal(err)
		}
	}
	w.Close()
	piped, _ := io.ReadAll(r)
	written, _ := os.ReadFile(file.Name())
	if buf.Len()+len(piped)+len(written) > 0 {
		t.Errorf("progress wrote %q to a buffer, %q to a pipe, %q to a file; want nothing", buf.String(), piped, written)
	}
}

func tenRows() results.Table {
	cols := []results.Column{{Name: "n", Kind: results.Int}}
	return results.Table{Name: "grid", Columns: cols, Rows: func(yield func([]results.Value) bool) {
		for i := range 10 {
			if !yield([]results.Value{results.IntValue(int64(i))}) {
				return
			}
		}
	}}
}

// TestBarWaitsBeforeShowing checks that a phase shorter than barDelay
// writes nothing, and that a longer one shows its bar and ends its line.
func TestBarWaitsBeforeShowing(t *testing.T) {
	var clock time.Time
	now := func() time.Time { return clock }

	var quick bytes.Buffer
	report, finish := newBarClock(&quick, "drawing", "subscribers", now)
	for done := int64(0); done <= 100; done += 10 {
		clock = clock.Add(barDelay / 20)
		report(done, 100)
	}
	finish()
	if quick.Len() != 0 {
		t.Errorf("a phase of %v wrote %q, want nothing", barDelay/2, quick.String())
	}

	var slow bytes.Buffer
	report, finish = newBarClock(&slow, "drawing", "subscribers", now)
	for done := int64(0); done <= 100; done += 10 {
		clock = clock.Add(barDelay / 4)
		report(done, 100)
	}
	finish()
	if got := slow.String(); !strings.Contains(got, "drawing") || !strings.HasSuffix(got, "\n") {
		t.Errorf("a phase of %v wrote %q, want a bar ending its line", 11*barDelay/4, got)
	}
}

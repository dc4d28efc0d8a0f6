package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"ckptlab/results"
)

// Progress is for a person watching a long run: a bar on stderr while the
// subscribers are drawn, then one while each file's grid rows are written.
// It is shown only when stderr is a terminal and -q is not given, so CI logs
// and redirected output stay clean. It never goes to stdout, which lists the
// files written.

// newProgress returns how a run reports the subscribers drawn.
// Its report moves a bar of drawn of total, rate and time left.
// Its finish ends the bar's line.
// Both do nothing when quiet is set or stderr is not a terminal.
// The report func may be called from any goroutine, but not from two at once.
// runner.Options.Progress promises that.
func newProgress(stderr io.Writer, quiet bool) (report func(done, total int64), finish func()) {
	tty, ok := progressTerminal(stderr, quiet)
	if !ok {
		return func(int64, int64) {}, func() {}
	}
	return newBar(tty, "drawing", "subscribers")
}

// withRowsProgress returns set with a bar on its grid table.
// The bar shows each time a writer goes through the grid's rows, once per
// format that holds the grid. It shows only if stderr is a terminal and
// quiet is not set. rows is the grid's number of rows.
// Counting costs one comparison a row. The bar moves every few thousand.
func withRowsProgress(set results.Set, rows int64, stderr io.Writer, quiet bool) results.Set {
	tty, ok := progressTerminal(stderr, quiet)
	if !ok || rows == 0 {
		return set
	}
	all := set.Grid.Rows
	set.Grid.Rows = func(yield func([]results.Value) bool) {
		report, finish := newBar(tty, "writing", set.Grid.Name+" rows")
		defer finish()
		const every = 1 << 12
		var n int64
		for row := range all {
			if !yield(row) {
				return
			}
			if n++; n%every == 0 || n == rows {
				report(n, rows)
			}
		}
	}
	return set
}

// progressTerminal returns stderr as the terminal to show progress on, or
// false if progress is not to be shown.
func progressTerminal(stderr io.Writer, quiet bool) (*os.File, bool) {
	f, ok := stderr.(*os.File)
	if quiet || !ok || !term.IsTerminal(int(f.Fd())) {
		return nil, false
	}
	return f, true
}

// barDelay is how long a phase runs before its bar appears.
// A short run then shows no bar that flashes. A run of minutes loses nothing.
const barDelay = 300 * time.Millisecond

// newBar returns a bar on tty, made at the first report after barDelay,
// when the total is known.
// Its finish leaves the bar's last state on its line and moves to the next.
// That state is 100% with the elapsed time, or where an interrupted run
// stopped. The finish func writes nothing if the bar never appeared.
func newBar(tty io.Writer, verb, unit string) (report func(done, total int64), finish func()) {
	return newBarClock(tty, verb, unit, time.Now)
}

func newBarClock(tty io.Writer, verb, unit string, now func() time.Time) (report func(done, total int64), finish func()) {
	var bar *progressbar.ProgressBar
	start := now()
	report = func(done, total int64) {
		if bar == nil {
			if now().Sub(start) < barDelay {
				return
			}
			bar = progressbar.NewOptions64(total,
				progressbar.OptionSetWriter(tty),
				progressbar.OptionSetDescription(verb),
				progressbar.OptionShowCount(),
				progressbar.OptionShowIts(),
				progressbar.OptionSetItsString(unit),
				progressbar.OptionSetPredictTime(true),
				progressbar.OptionShowElapsedTimeOnFinish(),
				progressbar.OptionSetWidth(30),
				progressbar.OptionThrottle(100*time.Millisecond),
			)
		}
		bar.Set64(done)
	}
	finish = func() {
		if bar != nil {
			bar.Exit() // no render after this one
			fmt.Fprintln(tty)
		}
	}
	return report, finish
}

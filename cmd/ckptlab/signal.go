package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"time"

	"ckptlab/folder"
	"ckptlab/internal/atomicfs"
	"ckptlab/internal/signals"
)

// exitInterrupted is the exit code of a run stopped by SIGINT or SIGTERM.
// It is 128 plus the number of SIGINT, as shells report a command Ctrl-C
// stopped.
const exitInterrupted = 130

// stopGrace is how long a command has, after a signal, to stop on its own
// and say so. Then the process exits without it.
const stopGrace = 500 * time.Millisecond

// processSignals is the context the first signal cancels, once main
// watches the signals caught since the process started.
// It is nil when a test calls Main. Each command then watches signals itself.
var processSignals context.Context

// signalWatch ends the process at a signal.
type signalWatch struct {
	name   string // "ckptlab run", as messages begin
	stderr io.Writer
	once   sync.Once
}

// watchSignals handles, for main, the signals that package signals caught
// from the start of the process.
// At the first signal, the temporary files of the writes in progress are
// removed at once (atomicfs.RemoveTemporaries). No file is renamed into
// place afterwards. The commands' contexts are cancelled.
// The process exits 130 when the command returns. If the command has not
// returned, it exits after stopGrace or at a second signal, whatever the
// command was doing, a read that blocks included.
func watchSignals(args []string, stderr io.Writer) *signalWatch {
	w := &signalWatch{name: "ckptlab", stderr: stderr}
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		w.name += " " + args[0]
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	processSignals = ctx
	go func() {
		sig := <-signals.Caught()
		atomicfs.RemoveTemporaries()
		cancel(fmt.Errorf("%v", sig))
		select {
		case <-time.After(stopGrace):
		case <-signals.Caught():
		}
		w.exit()
	}()
	return w
}

// exitCode returns the exit code of a command that returned code.
// It is 130 if a signal came meanwhile.
func (w *signalWatch) exitCode(code int) int {
	if processSignals.Err() == nil || code == exitInterrupted {
		return code
	}
	w.exit()
	return exitInterrupted // not reached
}

// exit says that a signal stopped the command and exits 130, once.
func (w *signalWatch) exit() {
	w.once.Do(func() {
		fmt.Fprintf(w.stderr, "%s: stopped by %v; every file is as it was or complete, none half-written\n", w.name, context.Cause(processSignals))
		os.Exit(exitInterrupted)
	})
}

// interruptContext returns a context that SIGINT or SIGTERM cancels.
// At the signal, the temporary files of the writes in progress are removed
// at once (atomicfs.RemoveTemporaries). No file is renamed into place
// afterwards, however long the run takes to notice that its context is
// done. Under main, the signals are those watchSignals watches.
// In a test calling Main, the command watches them itself. A second signal
// then ends the process the default way.
// stop releases the signals.
func interruptContext() (ctx context.Context, stop func()) {
	if processSignals != nil {
		ctx, cancel := context.WithCancelCause(processSignals)
		return ctx, func() { cancel(nil) }
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case sig := <-signals:
			signal.Stop(signals)
			atomicfs.RemoveTemporaries()
			cancel(fmt.Errorf("%v", sig))
		case <-done:
		}
	}()
	return ctx, func() {
		signal.Stop(signals)
		close(done)
		cancel(nil)
	}
}

// commandContext returns the context of command name (run, merge).
// A signal cancels it (see interruptContext).
// A wait for another ckptlab writing the same folder is said on stderr.
func commandContext(name string, stderr io.Writer) (ctx context.Context, stop func()) {
	ctx, stop = interruptContext()
	ctx = folder.OnLockWait(ctx, func(folder string) {
		fmt.Fprintf(stderr, "ckptlab %s: another ckptlab is writing %s; waiting for it to finish (Ctrl-C to give up)\n", name, folder)
	})
	return ctx, stop
}

// failed reports the error of command name on file, or that a signal
// stopped it, and returns the exit code.
func failed(ctx context.Context, name, file string, err error, stderr io.Writer) int {
	if ctx.Err() != nil {
		fmt.Fprintf(stderr, "ckptlab %s: stopped by %v; every file is as it was or complete, none half-written\n", name, context.Cause(ctx))
		return exitInterrupted
	}
	if code, ok := refused(name, err, stderr); ok {
		return code
	}
	fmt.Fprintf(stderr, "ckptlab %s: %s: %v%s\n", name, file, err, writeHint(err))
	return exitFailed
}

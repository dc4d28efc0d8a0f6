package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"ckptlab/results"
)

// exitInterrupted is the exit code of a run stopped by SIGINT or SIGTERM:
// 128 plus the number of SIGINT, as shells report a command Ctrl-C stopped.
const exitInterrupted = 130

// interruptContext returns a context that SIGINT or SIGTERM cancels. At the
// signal, the temporary files of the writes in progress are removed at once
// and no file is renamed into place afterwards (results.RemoveTemporaries),
// however long the run takes to notice that its context is done; a second
// signal ends the process the default way. stop releases the signals.
func interruptContext() (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancelCause(context.Background())
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case sig := <-signals:
			signal.Stop(signals)
			results.RemoveTemporaries()
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

// interrupted reports a run stopped by a signal and returns its exit code.
func interrupted(ctx context.Context, stderr io.Writer) int {
	fmt.Fprintf(stderr, "ckptlab run: stopped by %v; every file is as it was or complete, none half-written\n", context.Cause(ctx))
	return exitInterrupted
}

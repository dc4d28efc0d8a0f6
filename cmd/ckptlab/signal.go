package main

import (
	"ckptlab/internal/atomicfs"
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// exitInterrupted is the exit code of a run stopped by SIGINT or SIGTERM:
// 128 plus the number of SIGINT, as shells report a command Ctrl-C stopped.
const exitInterrupted = 130

// interruptContext returns a context that SIGINT or SIGTERM cancels. At the
// signal, the temporary files of the writes in progress are removed at once
// and no file is renamed into place afterwards (atomicfs.RemoveTemporaries),
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

// commandContext returns the context of command name (run, merge): a
// signal cancels it (see interruptContext), and a wait for another
// ckptlab writing the same folder is said on stderr.
func commandContext(name string, stderr io.Writer) (ctx context.Context, stop func()) {
	ctx, stop = interruptContext()
	ctx = atomicfs.OnLockWait(ctx, func(folder string) {
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

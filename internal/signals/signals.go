// Package signals catches SIGINT and SIGTERM from the start of the process.
// Its init installs the handler before the packages that take long to
// initialise run theirs, such as the workbook's. So a signal at any moment
// of a command is ckptlab's to handle. It is never the runtime's default,
// which ends the process at once with the signal's status.
package signals

import (
	"os"
	"os/signal"
	"syscall"
)

var caught = make(chan os.Signal, 1)

func init() { signal.Notify(caught, os.Interrupt, syscall.SIGTERM) }

// Caught returns the channel the signals arrive on.
func Caught() <-chan os.Signal { return caught }

// Release stops catching the signals.
// They end the process the default way again, or go where a later
// signal.Notify sends them.
func Release() { signal.Stop(caught) }

//go:build !unix

package testkit

import "time"

func process() (time.Duration, bool) { return 0, false }

//go:build !unix

package testkit

import "errors"

func mkfifo(path string) error { return errors.ErrUnsupported }

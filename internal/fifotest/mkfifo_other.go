//go:build !unix

package fifotest

import "errors"

func mkfifo(path string) error { return errors.ErrUnsupported }

// Package safefile opens and reads files that someone other than ckptlab
// may have put in place. These are experiment files and their bases, the
// files of an output folder, shard files and lock files. Such a path may
// be a symbolic link to anywhere, or a FIFO that blocks the first reader.
// It may be a device that never ends (/dev/zero, /proc/self/pagemap), or a
// regular file far larger than it should be.
//
// Open looks at a path before it opens it, and opens only a regular file.
// It never waits on a FIFO and never opens a device. It checks what it
// opened again by fstat, so nothing can be swapped in between.
//
// A Reader reads an open file within limits of bytes, line length and lines.
// It never reads past the size the file had when opened. It drops the
// UTF-8 byte order mark of a text file. ReadFile and ReadLinked do both
// for a file read whole.
package safefile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// ErrNotRegular is the error, wrapped in a *NotRegularError, of a path that
// is not a regular file.
var ErrNotRegular = errors.New("not a regular file")

// NotRegularError says what a path was instead of a regular file.
type NotRegularError struct {
	Path string
	Kind string // "symbolic link", "folder", "FIFO", "socket", "device", "special file"
}

func (e *NotRegularError) Error() string {
	return fmt.Sprintf("%s: a %s, not a regular file", e.Path, e.Kind)
}

// Unwrap makes errors.Is(err, ErrNotRegular) hold.
func (e *NotRegularError) Unwrap() error { return ErrNotRegular }

// TooLargeError is the error of a file past its limit of bytes.
type TooLargeError struct {
	Path  string
	Limit int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s: larger than %d bytes, the most such a file can be", e.Path, e.Limit)
}

// Open opens path for reading.
// The path must name a regular file itself, not through a symbolic link.
// Anything else is a *NotRegularError. A missing file is an error that
// satisfies errors.Is(err, fs.ErrNotExist).
func Open(path string) (*os.File, fs.FileInfo, error) {
	return open(path, false)
}

// OpenLinked is Open for a path that may be a symbolic link.
// The file it leads to must be a regular file.
func OpenLinked(path string) (*os.File, fs.FileInfo, error) {
	return open(path, true)
}

func open(path string, follow bool) (*os.File, fs.FileInfo, error) {
	// Look first, so that a device is never opened and a FIFO never waited on.
	// Opening some devices has effects.
	stat := os.Lstat
	if follow {
		stat = os.Stat
	}
	before, err := stat(path)
	if err != nil {
		return nil, nil, err
	}
	if !before.Mode().IsRegular() {
		return nil, nil, &NotRegularError{Path: path, Kind: Kind(before.Mode())}
	}
	f, err := openNonblock(path, follow)
	if err != nil {
		if isLoop(err) {
			return nil, nil, &NotRegularError{Path: path, Kind: "symbolic link"}
		}
		return nil, nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, nil, &NotRegularError{Path: path, Kind: Kind(fi.Mode())}
	}
	if !os.SameFile(before, fi) {
		f.Close()
		return nil, nil, fmt.Errorf("%s: changed while it was opened", path)
	}
	return f, fi, nil
}

// ReadFile reads the regular file at path whole, as Open opens it.
// It refuses a file of more than limit bytes with a *TooLargeError.
// It checks both the file's size and what the file gives, since a file in
// /proc says 0 and reads on.
func ReadFile(path string, limit int64) ([]byte, error) {
	return readFile(path, false, Limits{Bytes: limit})
}

// ReadLinked is ReadFile for a path that may be a symbolic link (see
// OpenLinked), within lim.
func ReadLinked(path string, lim Limits) ([]byte, error) {
	return readFile(path, true, lim)
}

func readFile(path string, follow bool, lim Limits) ([]byte, error) {
	f, fi, err := open(path, follow)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if lim.Bytes > 0 && fi.Size() > lim.Bytes {
		return nil, &TooLargeError{Path: path, Limit: lim.Bytes}
	}
	r := NewReader(f, path, lim)
	r.size = fi.Size()
	// A file that claims no size (in /proc) reads up to the limit.
	if r.size == 0 {
		r.size = -1
	}
	return io.ReadAll(r)
}

// Kind names the kind of file a mode is, for messages.
func Kind(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return "regular file"
	case m&fs.ModeSymlink != 0:
		return "symbolic link"
	case m.IsDir():
		return "folder"
	case m&fs.ModeNamedPipe != 0:
		return "FIFO"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeDevice != 0:
		return "device"
	}
	return "special file"
}

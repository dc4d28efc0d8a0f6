// Package safefile opens and reads files that someone other than ckptlab
// may have put in place: a shard file, a file of an output folder, a lock
// file. Such a path may be a symbolic link to anywhere, a FIFO that blocks
// the first reader, a device that never ends (/dev/zero,
// /proc/self/pagemap), or a regular file far larger than it should be.
//
// Open follows no link in the last element of the path, never waits on a
// FIFO, and keeps only regular files (by fstat of what it opened, so
// nothing can be swapped in between a check and the open); ReadFile reads
// at most a given number of bytes.
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

// TooLargeError is ReadFile's error for a file past its limit.
type TooLargeError struct {
	Path  string
	Limit int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s: larger than %d bytes, the most such a file can be", e.Path, e.Limit)
}

// Open opens path for reading: the path must name a regular file itself,
// not through a symbolic link. Anything else is a *NotRegularError; a
// missing file is an error that satisfies errors.Is(err, fs.ErrNotExist).
func Open(path string) (*os.File, fs.FileInfo, error) {
	f, err := openNoFollow(path)
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
	return f, fi, nil
}

// ReadFile reads the regular file at path whole, as Open opens it, and
// refuses with a *TooLargeError a file of more than limit bytes, by its
// size and by what it gives: a file in /proc says 0 and reads on.
func ReadFile(path string, limit int64) ([]byte, error) {
	f, fi, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi.Size() > limit {
		return nil, &TooLargeError{Path: path, Limit: limit}
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, &TooLargeError{Path: path, Limit: limit}
	}
	return data, nil
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

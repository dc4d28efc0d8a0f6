package atomicfs

import "os"

// writebackFile writes to a file.
// The kernel starts writing each writebackChunk to disk as soon as it is written.
// So the fsync that ends the file waits for its last chunk rather than for all of it.
// The disk works while the rest of the table is formatted.
type writebackFile struct {
	f       *os.File
	written int64 // bytes written to f
	started int64 // bytes whose writeback has been started
}

const writebackChunk = 1 << 20

func (w *writebackFile) Write(p []byte) (int, error) {
	n, err := w.f.Write(p)
	w.written += int64(n)
	if w.written-w.started >= writebackChunk {
		startWriteback(w.f, w.started, w.written-w.started)
		w.started = w.written
	}
	return n, err
}

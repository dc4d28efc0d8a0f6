package atomicfs

import (
	"os"

	"golang.org/x/sys/unix"
)

// startWriteback asks the kernel to start writing the given range of the file
// to disk, without waiting for it.
// It calls sync_file_range with SYNC_FILE_RANGE_WRITE.
// It is a hint, so errors are ignored.
// On an error the range is written at the file's fsync instead.
func startWriteback(f *os.File, off, n int64) {
	_ = unix.SyncFileRange(int(f.Fd()), off, n, unix.SYNC_FILE_RANGE_WRITE)
}

package folder

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"testing"
)

// writeExcluded reports whether a write's exclusive lock on dir/<name>/ would
// have to wait now.
// That is, whether a reader holds the shared lock.
func writeExcluded(t *testing.T, dir, name string) bool {
	t.Helper()
	f, err := openLock(LockPath(dir, name), false)
	if errors.Is(err, fs.ErrNotExist) {
		return false
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	busy, err := tryLock(f, true)
	if err != nil {
		t.Fatal(err)
	}
	return busy
}

// TestReadLocked reads an output folder with a lock file and without one.
// It also reads with a write that begins during the read, before the folder
// has a lock file.
// The last call of read must hold the shared lock whenever a write may have
// overlapped an earlier call.
// A read must make no lock file.
func TestReadLocked(t *testing.T) {
	for _, tc := range []struct {
		name      string
		lockFile  bool // the folder has a lock file before the read
		writeOnce bool // a write locks the folder during the first call
		calls     int
		lastHeld  bool // the last call holds the shared lock
	}{
		{name: "lock file", lockFile: true, calls: 1, lastHeld: true},
		{name: "no lock file, no write", calls: 1},
		{name: "no lock file, a write begins", writeOnce: true, calls: 2, lastHeld: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if tc.lockFile {
				if err := os.WriteFile(LockPath(dir, "x"), nil, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			var held []bool
			err := readLocked(context.Background(), dir, "x", func() error {
				held = append(held, writeExcluded(t, dir, "x"))
				if tc.writeOnce && len(held) == 1 {
					unlock, err := lockExclusive(context.Background(), dir, "x")
					if err != nil {
						t.Fatalf("a write during the first read could not lock: %v", err)
					}
					unlock()
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if len(held) != tc.calls {
				t.Fatalf("read was called %d times, want %d", len(held), tc.calls)
			}
			if got := held[len(held)-1]; got != tc.lastHeld {
				t.Errorf("the last read held the shared lock: %v, want %v", got, tc.lastHeld)
			}
			if _, err := os.Lstat(LockPath(dir, "x")); tc.lockFile || tc.writeOnce {
				if err != nil {
					t.Errorf("the lock file is gone: %v", err)
				}
			} else if !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("the read made a lock file (%v)", err)
			}
		})
	}
}

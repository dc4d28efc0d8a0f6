package atomicfs

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
)

// TestWritebackFileWritesEverything checks a file written through writebackFile
// in pieces of any size.
// The file must hold every byte.
// The writeback of each full chunk must start as the chunk is passed.
func TestWritebackFileWritesEverything(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "table.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rng := rand.New(rand.NewPCG(3, 4))
	want := make([]byte, 3*writebackChunk+12345)
	for i := range want {
		want[i] = byte('a' + rng.IntN(26))
	}
	w := &writebackFile{f: f}
	for rest := want; len(rest) > 0; {
		n := min(len(rest), 1+rng.IntN(200_000))
		if _, err := w.Write(rest[:n]); err != nil {
			t.Fatal(err)
		}
		rest = rest[n:]
		if w.written-w.started >= writebackChunk {
			t.Fatalf("after %d bytes, %d were written without their writeback started", w.written, w.written-w.started)
		}
	}
	if w.written != int64(len(want)) || w.started < w.written-writebackChunk {
		t.Errorf("writeback was started for %d bytes of %d, %d written", w.started, len(want), w.written)
	}
	if err := f.Sync(); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(f.Name())
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("the file does not hold the bytes written")
	}
}

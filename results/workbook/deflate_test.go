package workbook

import (
	"bytes"
	"compress/flate"
	"errors"
	"hash/crc32"
	"io"
	"math/rand/v2"
	"testing"

	"ckptlab/results"
)

// TestParallelDeflaterRoundTrip checks that the pieces compressed apart
// read back as one deflate stream with the standard library's reader, at
// sizes around a piece's, written in pieces of any size, with the CRC-32
// and length of what was written.
func TestParallelDeflaterRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{0, 1, deflatePiece - 1, deflatePiece, deflatePiece + 1, 3*deflatePiece + deflatePiece/2} {
		data := sheetLike(rng, n)
		var out bytes.Buffer
		d := newParallelDeflater(&out)
		writeInPieces(t, d, data, rng)
		if err := d.Close(); err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(flate.NewReader(&out))
		if err != nil {
			t.Fatalf("%d bytes: the stream does not read back: %v", n, err)
		}
		if !bytes.Equal(got, data) {
			t.Fatalf("%d bytes: read back %d bytes that differ from those written", n, len(got))
		}
		if d.crc != crc32.ChecksumIEEE(data) || d.size != int64(n) {
			t.Errorf("%d bytes: CRC-32 %08x and size %d, want %08x and %d", n, d.crc, d.size, crc32.ChecksumIEEE(data), n)
		}
	}
}

// TestParallelDeflaterSameBytes checks that the compressed bytes depend
// only on the bytes written: not on how the writes cut them, nor on which
// goroutine compressed which piece.
func TestParallelDeflaterSameBytes(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	data := sheetLike(rng, 5*deflatePiece+12345)
	var first []byte
	for range 4 {
		var out bytes.Buffer
		d := newParallelDeflater(&out)
		writeInPieces(t, d, data, rng)
		if err := d.Close(); err != nil {
			t.Fatal(err)
		}
		if first == nil {
			first = out.Bytes()
		} else if !bytes.Equal(out.Bytes(), first) {
			t.Fatal("the same bytes written in other pieces compressed to different bytes")
		}
	}
}

// TestParallelDeflaterReportsWriteErrors checks that a failure of the
// writer underneath comes back, from Write or from Close.
func TestParallelDeflaterReportsWriteErrors(t *testing.T) {
	data := sheetLike(rand.New(rand.NewPCG(9, 10)), 40*deflatePiece)
	d := newParallelDeflater(&limitedWriter{n: 1000})
	_, err := d.Write(data)
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	if !errors.Is(err, errDiskFull) {
		t.Fatalf("got %v, want %v", err, errDiskFull)
	}
}

// limitedWriter takes n bytes, then fails as a full disk does.
type limitedWriter struct{ n int }

func (w *limitedWriter) Write(p []byte) (int, error) {
	if len(p) > w.n {
		k := w.n
		w.n = 0
		return k, errDiskFull
	}
	w.n -= len(p)
	return len(p), nil
}

// sheetLike returns n bytes that compress as a sheet's XML does: rows of
// cells whose numbers change.
func sheetLike(rng *rand.Rand, n int) []byte {
	var b []byte
	for r := 2; len(b) < n; r++ {
		b = append(b, `<row r="`...)
		b = appendInt(b, r)
		b = append(b, `"><c r="A`...)
		b = appendInt(b, r)
		b = append(b, `"><v>`...)
		b = appendInt(b, rng.IntN(100000))
		b = append(b, `</v></c></row>`...)
	}
	return b[:n]
}

func appendInt(b []byte, n int) []byte { return results.IntValue(int64(n)).AppendText(b) }

// writeInPieces writes data to w in pieces of random sizes.
func writeInPieces(t *testing.T, w io.Writer, data []byte, rng *rand.Rand) {
	t.Helper()
	for len(data) > 0 {
		k := min(len(data), rng.IntN(3*deflatePiece/2)+1)
		if _, err := w.Write(data[:k]); err != nil {
			t.Fatal(err)
		}
		data = data[k:]
	}
}

package workbook

import (
	"bytes"
	"context"
	"io"
	"os"
	"testing"

	"ckptlab/results"
)

// TestSpill checks that a spill keeps what is written to it in memory up
// to its limit and in a scratch file past it, and reads back the same
// bytes either way, in order and at an offset.
func TestSpill(t *testing.T) {
	data := bytes.Repeat([]byte("0123456789abcdef"), 1000)
	for _, tt := range []struct {
		limit int
		file  bool
	}{{len(data), false}, {len(data) - 1, true}, {0, true}} {
		dir := t.TempDir()
		s := &spill{dir: dir, pattern: "t-*.bin", limit: tt.limit}
		for p := data; len(p) > 0; p = p[min(len(p), 1000):] {
			if _, err := s.Write(p[:min(len(p), 1000)]); err != nil {
				t.Fatal(err)
			}
		}
		files, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		if (len(files) > 0) != tt.file {
			t.Errorf("limit %d: %d scratch files for %d bytes, want a file: %v", tt.limit, len(files), len(data), tt.file)
		}
		r, size, err := s.reader()
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(r)
		if err != nil || size != int64(len(data)) || !bytes.Equal(got, data) {
			t.Errorf("limit %d: read %d bytes (size %d, %v), want the %d written", tt.limit, len(got), size, err, len(data))
		}
		at := make([]byte, 16)
		if _, err := r.ReadAt(at, 16*500+3); err != nil || string(at) != "3456789abcdef012" {
			t.Errorf("limit %d: ReadAt gave %q, %v", tt.limit, at, err)
		}
		s.close()
	}
}

// TestSpilledWorkbookSameBytes checks that a workbook whose archive and
// packed sheets all go to scratch files is the same bytes as one kept in
// memory, with tables on one sheet and split over several.
func TestSpilledWorkbookSameBytes(t *testing.T) {
	set := results.Set{
		Name:     "spill",
		Grid:     scaleGrid(3000),
		Failures: hostileTable(),
		Views:    hostileViews(),
		Config:   []results.Setting{{Key: "name", Value: "spill"}},
		Version:  "test",
	}
	for _, sheetRows := range []int{0, 700} {
		var mem, spilled bytes.Buffer
		if err := (xlsxWriter{sheetRows: sheetRows, scratch: t.TempDir()}).write(context.Background(), &mem, set); err != nil {
			t.Fatal(err)
		}
		if err := (xlsxWriter{sheetRows: sheetRows, scratch: t.TempDir(), inMemory: 1}).write(context.Background(), &spilled, set); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(mem.Bytes(), spilled.Bytes()) {
			t.Errorf("sheets of %d rows: the workbook written through scratch files differs from the one kept in memory (%d and %d bytes)",
				sheetRows, spilled.Len(), mem.Len())
		}
	}
}

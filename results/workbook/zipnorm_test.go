package workbook

import (
	"archive/zip"
	"bytes"
	"io"
	"testing"
	"time"
)

// makeZip writes a zip archive of the given entries, in the given order,
// each stamped with the given time.
func makeZip(t *testing.T, names []string, content map[string]string, stamp time.Time) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, name := range names {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Deflate, Modified: stamp})
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(w, content[name])
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestNormalizeZip(t *testing.T) {
	content := map[string]string{
		"xl/worksheets/sheet2.xml": "<worksheet>failures</worksheet>",
		"xl/worksheets/sheet1.xml": "<worksheet>grid</worksheet>",
		"docProps/core.xml":        "<core/>",
		"_rels/.rels":              "<Relationships/>",
		contentTypesName:           "<Types/>",
	}
	orders := []struct {
		names []string
		stamp time.Time
	}{
		{[]string{"xl/worksheets/sheet2.xml", "xl/worksheets/sheet1.xml", "docProps/core.xml", "_rels/.rels", contentTypesName},
			time.Date(2026, 2, 18, 9, 30, 0, 0, time.UTC)},
		{[]string{"xl/worksheets/sheet1.xml", "xl/worksheets/sheet2.xml", contentTypesName, "_rels/.rels", "docProps/core.xml"},
			time.Date(2031, 7, 1, 23, 59, 58, 0, time.UTC)},
	}
	var outs [][]byte
	for _, o := range orders {
		src := makeZip(t, o.names, content, o.stamp)
		var dst bytes.Buffer
		if err := normalizeBytes(&dst, src); err != nil {
			t.Fatal(err)
		}
		outs = append(outs, dst.Bytes())
	}
	if !bytes.Equal(outs[0], outs[1]) {
		t.Fatal("the same entries written in another order and at another time normalize to different bytes")
	}

	zr, err := zip.NewReader(bytes.NewReader(outs[0]), int64(len(outs[0])))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{contentTypesName, "_rels/.rels", "docProps/core.xml", "xl/worksheets/sheet1.xml", "xl/worksheets/sheet2.xml"}
	if len(zr.File) != len(want) {
		t.Fatalf("%d entries, want %d", len(zr.File), len(want))
	}
	for i, f := range zr.File {
		if f.Name != want[i] {
			t.Errorf("entry %d is %s, want %s", i, f.Name, want[i])
		}
		if f.ModifiedDate != msDosEpochDate || f.ModifiedTime != msDosEpochTime || len(f.Extra) != 0 {
			t.Errorf("%s: date %#x, time %#x, %d bytes of extra fields; want 1980-01-01 00:00 and none",
				f.Name, f.ModifiedDate, f.ModifiedTime, len(f.Extra))
		}
		r, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(r) // checks the CRC-32 too
		if err != nil {
			t.Fatalf("%s: %v", f.Name, err)
		}
		if string(got) != content[f.Name] {
			t.Errorf("%s holds %q, want %q", f.Name, got, content[f.Name])
		}
	}
}

func TestNormalizeZipRejects(t *testing.T) {
	tests := []struct {
		name string
		src  []byte
	}{
		{"not a zip", []byte("grid.csv is not a workbook")},
		{"duplicate entry", makeZip(t, []string{"a.xml", "a.xml"}, map[string]string{"a.xml": "x"}, time.Time{})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := normalizeBytes(io.Discard, tt.src)
			if err == nil {
				t.Fatal("normalizeZip succeeded, want an error")
			}
		})
	}
}

// normalizeBytes normalizes the zip archive src to dst, as saveNormalized
// does with no sheet rows to write in.
func normalizeBytes(dst io.Writer, src []byte) error {
	zr, err := zip.NewReader(bytes.NewReader(src), int64(len(src)))
	if err != nil {
		return err
	}
	return normalizeZip(dst, zr, nil, nil)
}

package workbook

import (
	"archive/zip"
	"bytes"
	"strings"
	"testing"
)

// craftedZip returns a zip archive holding one part of the given content.
func craftedZip(t *testing.T, name string, content func(w *zip.Writer)) *zip.Reader {
	t.Helper()
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	content(zw)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	zr, err := zip.NewReader(bytes.NewReader(b.Bytes()), int64(b.Len()))
	if err != nil {
		t.Fatal(err)
	}
	return zr
}

// TestDecodePartLimits checks that crafted parts of a workbook found in
// the output folder are refused within the limits of size and depth: a
// gigabyte attribute compressed into a megabyte, and elements nested a
// million deep, are errors, not out of memory.
func TestDecodePartLimits(t *testing.T) {
	tests := []struct {
		name  string
		write func(w *zip.Writer)
		want  string
	}{
		{"an attribute of 16 MiB", func(w *zip.Writer) {
			f, _ := w.Create("xl/workbook.xml")
			f.Write([]byte(`<workbook><sheets><sheet name="`))
			chunk := bytes.Repeat([]byte("a"), 1<<20)
			for range 16 { // 16 MiB: the limit is what matters, not the size
				f.Write(chunk)
			}
			f.Write([]byte(`"/></sheets></workbook>`))
		}, "larger than 1048576 bytes"},
		{"nested a million deep", func(w *zip.Writer) {
			f, _ := w.Create("xl/workbook.xml")
			f.Write([]byte(strings.Repeat("<a>", 1_000_000)))
		}, "larger than"},
		{"nested deep within the size", func(w *zip.Writer) {
			f, _ := w.Create("xl/workbook.xml")
			f.Write([]byte(strings.Repeat("<a>", 100_000)))
		}, "nested more than 32 deep"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			zr := craftedZip(t, "xl/workbook.xml", tt.write)
			var v struct{}
			err := decodePart(zr, "xl/workbook.xml", &v)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("decodePart = %v, want an error saying %q", err, tt.want)
			}
		})
	}
	// The parts ckptlab writes are read as before.
	zr := craftedZip(t, "xl/workbook.xml", func(w *zip.Writer) {
		f, _ := w.Create("xl/workbook.xml")
		f.Write([]byte(`<workbook><sheets><sheet name="grid"/></sheets></workbook>`))
	})
	var book struct {
		Sheets []struct {
			Name string `xml:"name,attr"`
		} `xml:"sheets>sheet"`
	}
	if err := decodePart(zr, "xl/workbook.xml", &book); err != nil || len(book.Sheets) != 1 || book.Sheets[0].Name != "grid" {
		t.Errorf("decodePart of a plain part = %+v, %v", book, err)
	}
}

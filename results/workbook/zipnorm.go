package workbook

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"slices"
	"strings"
)

// contentTypesName is the part that names the content type of every other
// part of an Office Open XML package. Excel writes it first, and tools that
// sniff a file's type look for it there.
const contentTypesName = "[Content_Types].xml"

// msDosEpoch is 1980-01-01 00:00 as an MS-DOS date and time: the earliest
// modification time a zip entry can carry, given to every entry so that a
// workbook does not record when it was written.
const (
	msDosEpochDate = 1<<5 | 1
	msDosEpochTime = 0
)

// normalizeZip copies the entries of zr to dst as a zip archive in a
// canonical form: [Content_Types].xml first, then the other entries sorted
// by name; each entry's compressed bytes copied as they are, with no
// recompression, and each stored entry compressed (newDeflater); and each
// header reduced to name, method, CRC-32, sizes and the fixed modification
// time msDosEpoch. The result depends only on the entries' names and
// contents, not on the order or time they were written.
//
// Entries found in packed are the exception: the packed sheet, compressed
// elsewhere, is copied in their place; and so are the parts excelize
// writes wrong, rewritten (partRewriter) and compressed again.
func normalizeZip(dst io.Writer, zr *zip.Reader, packed map[string]*packedSheet, charts map[string]chartCache) error {
	// One scratch buffer for every copy, and one for each part compressed
	// here: a workbook has dozens of parts.
	parts := partRewriter{charts: charts, packed: packed, buf: make([]byte, copyBuffer)}
	var deflated bytes.Buffer
	files := slices.Clone(zr.File)
	slices.SortFunc(files, func(a, b *zip.File) int { return entryOrder(a.Name, b.Name) })
	zw := newZipWriter(dst)
	var err error
	for i, f := range files {
		if i > 0 && f.Name == files[i-1].Name {
			return fmt.Errorf("the workbook's zip archive holds %s twice", f.Name)
		}
		h := &zip.FileHeader{
			Name:               f.Name,
			Method:             f.Method,
			CRC32:              f.CRC32,
			CompressedSize64:   f.CompressedSize64,
			UncompressedSize64: f.UncompressedSize64,
		}
		// Modified would add an extended timestamp field to every entry,
		// and change the bytes of every workbook with it.
		//lint:ignore SA1019 the MS-DOS fields alone write the fixed time and nothing else
		h.ModifiedDate, h.ModifiedTime = msDosEpochDate, msDosEpochTime
		if rewrite := parts.rewriter(f.Name); rewrite != nil {
			if err := rewritePart(zw, f, h, rewrite); err != nil {
				return err
			}
			continue
		}
		var r io.Reader
		if p, ok := packed[f.Name]; ok {
			if r, err = p.open(h); err != nil {
				return fmt.Errorf("writing the rows of %s: %w", f.Name, err)
			}
		} else if f.Method == zip.Store {
			if r, err = deflatePart(f, h, &deflated, parts.buf); err != nil {
				return err
			}
		} else if r, err = f.OpenRaw(); err != nil {
			return err
		}
		w, err := zw.CreateRaw(h)
		if err != nil {
			return err
		}
		if _, err := io.CopyBuffer(w, r, parts.buf); err != nil {
			return err
		}
	}
	return zw.Close()
}

// entryOrder orders the names of a package's parts: [Content_Types].xml
// first, then by name.
func entryOrder(a, b string) int {
	switch {
	case a == b:
		return 0
	case a == contentTypesName:
		return -1
	case b == contentTypesName:
		return 1
	}
	return strings.Compare(a, b)
}

// copyBuffer is the size of normalizeZip's scratch buffer, through which
// every part is copied: room for the head of a worksheet that
// redimension reads.
const copyBuffer = dimensionHead

// deflatePart compresses a stored entry into buf, as a zip writer of
// newZipWriter would, reading it through scratch, and sets its compressed
// entry's header. The parts excelize writes whole are small: the sheets
// of rows are packed, and the large others are rewritten as they are
// copied. What it returns reads buf, to be read before buf is used again.
func deflatePart(f *zip.File, h *zip.FileHeader, buf *bytes.Buffer, scratch []byte) (io.Reader, error) {
	rc, err := f.Open()
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	buf.Reset()
	w, err := newDeflater(buf)
	if err != nil {
		return nil, err
	}
	if _, err := io.CopyBuffer(w, rc, scratch); err != nil {
		w.Close()
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	h.Method = zip.Deflate
	h.CompressedSize64 = uint64(buf.Len())
	return buf, nil
}

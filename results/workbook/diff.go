package workbook

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"path"
	"slices"
	"strings"
)

// Diff returns the parts in which two workbooks differ, for run --check:
// worksheets by sheet name, other parts by path.
// A got much larger than want, or one that is no workbook, is an error
// that says so; got is not opened as an archive then.
func Diff(want, got *os.File) ([]string, error) {
	wantInfo, err := want.Stat()
	if err != nil {
		return nil, err
	}
	gotInfo, err := got.Stat()
	if err != nil {
		return nil, err
	}
	if most := maxWorkbookBytes(wantInfo.Size()); gotInfo.Size() > most {
		return nil, fmt.Errorf("%d bytes, far more than the %d of the workbook; not opened", gotInfo.Size(), wantInfo.Size())
	}
	return workbookDiff(want, got)
}

// workbookDiff returns the parts in which two workbooks differ, by the
// CRC-32 and size each archive records: worksheets by sheet name, other
// parts by path. It does not decompress the parts it compares.
func workbookDiff(want, got *os.File) ([]string, error) {
	wz, err := openZip(want)
	if err != nil {
		return nil, fmt.Errorf("the rendered workbook: %w", err)
	}
	gz, err := openZip(got)
	if err != nil {
		return nil, fmt.Errorf("the file is not a workbook: %w", err)
	}
	type sum struct {
		crc  uint32
		size uint64
	}
	sums := func(zr *zip.Reader) map[string]sum {
		m := make(map[string]sum, len(zr.File))
		for _, f := range zr.File {
			m[f.Name] = sum{f.CRC32, f.UncompressedSize64}
		}
		return m
	}
	ws, gs := sums(wz), sums(gz)
	var names []string
	for name, s := range ws {
		if g, ok := gs[name]; !ok || g != s {
			names = append(names, name)
		}
	}
	for name := range gs {
		if _, ok := ws[name]; !ok {
			names = append(names, name)
		}
	}
	slices.SortFunc(names, entryOrder)
	sheets := sheetParts(gz)
	for part, sheet := range sheetParts(wz) {
		sheets[part] = sheet
	}
	out := make([]string, len(names))
	for i, name := range names {
		if sheet, ok := sheets[name]; ok {
			out[i] = "sheet " + sheet
		} else {
			out[i] = name
		}
	}
	return out, nil
}

func openZip(f *os.File) (*zip.Reader, error) {
	size, err := f.Seek(0, io.SeekEnd)
	if err != nil {
		return nil, err
	}
	return zip.NewReader(f, size)
}

// sheetParts maps the worksheet parts of a workbook to their sheet names,
// as xl/workbook.xml and its relationships name them. A workbook it cannot
// read gives an empty map.
func sheetParts(zr *zip.Reader) map[string]string {
	var book struct {
		Sheets []struct {
			Name string `xml:"name,attr"`
			ID   string `xml:"http://schemas.openxmlformats.org/officeDocument/2006/relationships id,attr"`
		} `xml:"sheets>sheet"`
	}
	var rels struct {
		Rels []struct {
			ID     string `xml:"Id,attr"`
			Target string `xml:"Target,attr"`
		} `xml:"Relationship"`
	}
	out := map[string]string{}
	if decodePart(zr, "xl/workbook.xml", &book) != nil || decodePart(zr, "xl/_rels/workbook.xml.rels", &rels) != nil {
		return out
	}
	targets := map[string]string{}
	for _, r := range rels.Rels {
		t := r.Target
		if strings.HasPrefix(t, "/") {
			t = strings.TrimPrefix(t, "/")
		} else {
			t = path.Join("xl", t)
		}
		targets[r.ID] = t
	}
	for _, s := range book.Sheets {
		if t, ok := targets[s.ID]; ok {
			out[t] = s.Name
		}
	}
	return out
}

// Limits of what --check reads of a workbook found in the output folder,
// which may be anything named <name>.xlsx: the workbook and relationship
// parts ckptlab writes are a few KiB, nested four deep.
const (
	maxXMLPart  = 1 << 20
	maxXMLDepth = 32
)

// maxWorkbookBytes is the largest file --check opens as a workbook, beside
// one of want bytes: a file much larger is a difference by its size alone,
// and opening its archive would read a directory of any size.
func maxWorkbookBytes(want int64) int64 {
	return 2*want + 1<<20
}

// decodePart decodes the XML part name of the archive into v, reading at
// most maxXMLPart bytes of it, nested at most maxXMLDepth deep: a crafted
// part (one attribute of a gigabyte, elements nested millions deep) is an
// error, not a reason to run out of memory.
func decodePart(zr *zip.Reader, name string, v any) error {
	r, err := zr.Open(name)
	if err != nil {
		return err
	}
	defer r.Close()
	data, err := io.ReadAll(io.LimitReader(r, maxXMLPart+1))
	if err != nil {
		return err
	}
	if len(data) > maxXMLPart {
		return fmt.Errorf("%s: larger than %d bytes", name, maxXMLPart)
	}
	if err := checkDepth(data); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return xml.Unmarshal(data, v)
}

// checkDepth reports XML nested deeper than maxXMLDepth.
func checkDepth(data []byte) error {
	d := xml.NewDecoder(bytes.NewReader(data))
	depth := 0
	for {
		tok, err := d.RawToken()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		switch tok.(type) {
		case xml.StartElement:
			if depth++; depth > maxXMLDepth {
				return fmt.Errorf("elements nested more than %d deep", maxXMLDepth)
			}
		case xml.EndElement:
			depth--
		}
	}
}

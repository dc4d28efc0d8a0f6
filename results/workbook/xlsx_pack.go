package workbook

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"runtime"
	"slices"
	"sync"

	"ckptlab/internal/satmath"
	"ckptlab/results"

	"github.com/klauspost/compress/flate"
)

// newZipWriter returns a zip writer that deflates with klauspost/compress,
// which compresses a sheet as small as the standard library's level 5 does
// in a third of the time.
func newZipWriter(w io.Writer) *zip.Writer {
	zw := zip.NewWriter(w)
	zw.RegisterCompressor(zip.Deflate, newDeflater)
	return zw
}

// newDeflater returns a compressor of one part of the archive, taken from
// the pool the sheets' pieces are compressed with: a workbook has dozens
// of small parts, and making a compressor for each was a quarter of the
// time of a small workbook.
func newDeflater(w io.Writer) (io.WriteCloser, error) {
	fw := deflaterPool.Get().(*flate.Writer)
	fw.Reset(w)
	return &pooledDeflater{fw}, nil
}

// pooledDeflater is a compressor that goes back to its pool when closed.
type pooledDeflater struct{ w *flate.Writer }

func (d *pooledDeflater) Write(p []byte) (int, error) { return d.w.Write(p) }

// Close ends the part's stream and returns the compressor to the pool.
func (d *pooledDeflater) Close() error {
	err := d.w.Close()
	deflaterPool.Put(d.w)
	d.w = nil
	return err
}

// deflateLevel trades a workbook's size for the time to write it. Level 5
// makes the worker sweep's workbook 5% larger than the standard library's
// level 5, in a third of the time; level 3 would save a further 15% of the
// run's time for a workbook 15% larger, which every reader of the workbook
// then receives.
const deflateLevel = 5

// packedSheet is a sheet being compressed, with its rows written in, into
// memory or a scratch file (see spill): the entry normalizeZip copies in place of the sheet
// excelize wrote without rows. The tables are packed at the same time (see
// packSheets), each sheet of a table after the other as the table is read;
// a sheet's rows are compressed on up to maxDeflateWorkers cores (see
// parallelDeflater).
type packedSheet struct {
	done chan struct{} // closed when the fields below are set
	out  spill
	crc  uint32
	size int64 // uncompressed
	err  error
}

// packedInMemory is the most of a packed sheet, compressed, kept in
// memory: a larger one goes to a scratch file. A small workbook's sheets
// so cost no file each.
const packedInMemory = 256 << 10

// packSheetBytes is the most that packing one table or view holds besides
// its sheet's XML: the row encoder's buffer and the file's.
const packSheetBytes = 1 << 20

// packBytes bounds what packing the tables' and views' sheets holds: the
// largest of them packed at once, each with its XML in the pieces being
// compressed, and every packed sheet kept in memory up to packedInMemory
// until it is copied into the archive.
func packBytes(s results.Sizes) int64 {
	pieces := deflateBytes()
	var packed []int64
	var held int64
	for _, t := range s.Tables() {
		xml := tableXMLBytes(t.Rows, t.Columns)
		packed = append(packed, satmath.Add(packSheetBytes, min(xml, pieces)))
		held = satmath.Add(held, min(xml, satmath.Mul(t.Rows/MaxSheetRows+1, packedInMemory)))
	}
	// Each view's sheet is counted as large as all the views' XML.
	views := viewXMLBytes(s.Views)
	for range s.Views.Largest {
		packed = append(packed, satmath.Add(packSheetBytes, min(views, pieces)))
		held = satmath.Add(held, min(views, packedInMemory))
	}
	slices.Sort(packed)
	for _, p := range packed[len(packed)-min(packedAtOnce(), len(packed)):] {
		held = satmath.Add(held, p)
	}
	return held
}

// spill holds what is written to it in memory up to limit bytes, and in
// a scratch file in dir, named after pattern (as os.CreateTemp names), once
// it is more. With whole set, its buffer is made limit bytes long at the
// first write rather than grown, so that it never holds more than limit.
type spill struct {
	dir     string
	pattern string
	limit   int
	whole   bool
	mem     bytes.Buffer
	file    *os.File
}

func (s *spill) Write(p []byte) (int, error) {
	if s.file == nil && s.mem.Len()+len(p) <= s.limit {
		if s.whole && s.mem.Cap() == 0 {
			s.mem.Grow(s.limit)
		}
		return s.mem.Write(p)
	}
	if s.file == nil {
		f, err := os.CreateTemp(s.dir, s.pattern)
		if err != nil {
			return 0, err
		}
		s.file = f
		if _, err := s.mem.WriteTo(f); err != nil {
			return 0, err
		}
		s.mem = bytes.Buffer{}
	}
	return s.file.Write(p)
}

// spilled is what a spill holds, to read in order or at any offset.
type spilled interface {
	io.Reader
	io.ReaderAt
}

// reader returns what was written and its size.
func (s *spill) reader() (spilled, int64, error) {
	if s.file == nil {
		return bytes.NewReader(s.mem.Bytes()), int64(s.mem.Len()), nil
	}
	end, err := s.file.Seek(0, io.SeekEnd)
	if err != nil {
		return nil, 0, err
	}
	return io.NewSectionReader(s.file, 0, end), end, nil
}

// close closes its scratch file, if it has one.
func (s *spill) close() {
	if s.file != nil {
		s.file.Close()
	}
}

// maxPackedAtOnce is the most tables packed at the same time: more would
// hold more buffers without more cores to use them.
const maxPackedAtOnce = 4

// packedAtOnce is how many tables and views are packed at once.
func packedAtOnce() int { return min(maxPackedAtOnce, runtime.GOMAXPROCS(0)) }

// packSheets starts packing the sheets of the tables, in memory or in
// sc's files past its limit for a sheet, maxPackedAtOnce tables (or the cores, if fewer) at a time, each table
// read once. The caller must call wait before it returns, whatever
// happened.
func packSheets(ctx context.Context, zr *zip.Reader, tables []sheetRows, sc scratch) *packs {
	ctx, cancel := context.WithCancel(ctx)
	ps := &packs{sheets: make(map[string]*packedSheet), cancel: cancel}
	files := make(map[string]*zip.File, len(zr.File))
	for _, f := range zr.File {
		files[f.Name] = f
	}
	// Every sheet is in the map before the first goroutine starts: they
	// read it while packing, and a map is not safe to write while read.
	for _, r := range tables {
		for _, part := range r.sheets() {
			ps.sheets[part.path] = &packedSheet{done: make(chan struct{})}
		}
	}
	slots := make(chan struct{}, packedAtOnce())
	for _, r := range tables {
		ps.wg.Go(func() {
			slots <- struct{}{}
			defer func() { <-slots }()
			done, err := packTable(ctx, files, r, sc, ps.sheets)
			if err == nil {
				return
			}
			cancel() // the workbook fails: stop the others
			for _, part := range r.sheets()[done:] {
				p := ps.sheets[part.path]
				p.err = err
				close(p.done)
			}
		})
	}
	return ps
}

// packTable packs the sheets of one table, reading it once, and returns
// how many of its sheets are done.
func packTable(ctx context.Context, files map[string]*zip.File, r sheetRows, sc scratch, sheets map[string]*packedSheet) (done int, err error) {
	var (
		p      *packedSheet
		d      *parallelDeflater
		suffix []byte
	)
	defer func() {
		if d != nil { // an error left the sheet unfinished
			d.Close()
		}
	}()
	parts := r.sheets()
	begin := func(i int) (io.Writer, error) {
		path := parts[i].path
		f := files[path]
		if f == nil {
			return nil, fmt.Errorf("the workbook's zip archive has no %s to write rows into", path)
		}
		sheet, end, err := sheetWithoutRows(f)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		p = sheets[path]
		p.out = spill{dir: sc.dir, pattern: "sheet-*.deflate", limit: sc.limits.sheet}
		d, suffix = newParallelDeflater(&p.out), sheet[end:]
		head := setDimension(sheet[:end], parts[i].dim)
		if cols := parts[i].cols; cols != nil {
			at := bytes.Index(head, []byte("<sheetData>"))
			if at < 0 {
				return nil, fmt.Errorf("%s: the sheet has no <sheetData> to put its columns before", path)
			}
			if _, err := d.Write(head[:at]); err != nil {
				return d, err
			}
			if _, err := d.Write(cols); err != nil {
				return d, err
			}
			head = head[at:]
		}
		_, err = d.Write(head)
		return d, err
	}
	end := func(i int) error {
		_, err := d.Write(suffix)
		if cerr := d.Close(); err == nil {
			err = cerr
		}
		p.crc, p.size, d = d.crc, d.size, nil
		if err != nil {
			return err
		}
		close(p.done)
		done = i + 1
		return nil
	}
	return done, r.write(ctx, begin, end)
}

// sheetWithoutRows reads a sheet excelize wrote without data rows, and
// returns it with the offset of its </sheetData>, where the rows go.
func sheetWithoutRows(f *zip.File) (sheet []byte, end int, err error) {
	rc, err := f.Open()
	if err != nil {
		return nil, 0, err
	}
	defer rc.Close()
	if sheet, err = io.ReadAll(rc); err != nil {
		return nil, 0, err
	}
	end = bytes.LastIndex(sheet, []byte("</sheetData>"))
	if end < 0 {
		return nil, 0, errors.New("the sheet has no </sheetData>")
	}
	return sheet, end, nil
}

// packs are the sheets being packed.
type packs struct {
	sheets map[string]*packedSheet
	wg     sync.WaitGroup
	cancel context.CancelFunc
}

// err waits for every sheet and returns the error of the first, by path,
// that failed: a sheet the archive lacks is never waited for by
// normalizeZip.
func (ps *packs) err() error {
	ps.wg.Wait()
	for _, path := range slices.Sorted(maps.Keys(ps.sheets)) {
		if err := ps.sheets[path].err; err != nil {
			return err
		}
	}
	return nil
}

// wait stops the packing still going on, waits for it, and closes the
// scratch files.
func (ps *packs) wait() {
	ps.cancel()
	ps.wg.Wait()
	for _, p := range ps.sheets {
		p.out.close()
	}
}

// open waits for the sheet, sets its compressed entry's header, and
// returns the compressed bytes.
func (p *packedSheet) open(h *zip.FileHeader) (io.Reader, error) {
	<-p.done
	if p.err != nil {
		return nil, p.err
	}
	r, size, err := p.out.reader()
	if err != nil {
		return nil, err
	}
	h.Method = zip.Deflate
	h.CRC32 = p.crc
	h.UncompressedSize64 = uint64(p.size)
	h.CompressedSize64 = uint64(size)
	return r, nil
}

package workbook

import (
	"archive/zip"
	"context"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"

	"ckptlab/internal/atomicfs"
	"ckptlab/internal/satmath"
	"ckptlab/results"

	"github.com/xuri/excelize/v2"
)

// MaxSheetRows is the most data rows one worksheet holds: a sheet has
// 1,048,576 rows, and the first is the header. A longer table continues on
// sheets named after it with -2, -3, ... appended.
const MaxSheetRows = 1_048_575

// timeSheet is the sheet of the time model's charts.
const timeSheet = "time"

// Write writes the set's workbook to w.
// Its scratch files go to the folder scratch ("" for the system's temporary folder).
// They are removed before Write returns.
// Write stops with ctx's error once ctx is done.
func Write(ctx context.Context, w io.Writer, s results.Set, scratch string) error {
	return xlsxWriter{scratch: scratch}.write(ctx, w, s)
}

// xlsxWriter writes workbooks.
type xlsxWriter struct {
	// sheetRows is the most data rows a sheet gets; 0 means MaxSheetRows.
	// Tests lower it to split small tables.
	sheetRows int
	// scratch is the folder scratch files are made in; "" means the
	// system's temporary folder.
	scratch string
	// inMemory, when set, is the most of the archive and of each packed
	// sheet kept in memory, instead of archiveInMemory and packedInMemory.
	// Tests set it to 1 to have every one go to a scratch file.
	inMemory int
	// streamRows and streamViews are workbook's.
	streamRows  rowStreamer
	streamViews viewStreamer
}

// write builds the workbook, has excelize save it as a zip archive (see
// saveNormalized), and copies that archive to w in normalized form.
func (x xlsxWriter) write(ctx context.Context, w io.Writer, s results.Set) error {
	dir, err := atomicfs.MkdirTemp(x.scratch, ".ckptlab-xlsx-*")
	if err != nil {
		return err
	}
	defer atomicfs.Remove(dir)
	f := excelize.NewFile(excelize.Options{TmpDir: dir})
	defer f.Close()

	b := &workbook{ctx: ctx, f: f, sheetRows: x.sheetRows, streamRows: x.streamRows, streamViews: x.streamViews}
	if b.sheetRows <= 0 {
		b.sheetRows = MaxSheetRows
	}
	if err := b.build(s); err != nil {
		return err
	}
	charts := make(map[string]chartCache, len(b.charts))
	for i, c := range b.charts {
		charts[chartPart(i)] = c
	}
	limits := spillLimits{archive: archiveInMemory, sheet: packedInMemory}
	if x.inMemory > 0 {
		limits = spillLimits{archive: x.inMemory, sheet: x.inMemory}
	}
	return saveNormalized(ctx, f, w, scratch{dir, limits}, b.rows, charts)
}

// scratch is where the workbook being saved keeps what it does not keep in
// memory: files in dir, past the limits.
type scratch struct {
	dir    string
	limits spillLimits
}

// spillLimits are the most of the archive excelize saves and of each
// packed sheet kept in memory.
type spillLimits struct{ archive, sheet int }

// saveNormalized saves f to w, byte for byte the same for the same
// workbook, with the table sheets' rows written in. excelize alone is not
// deterministic: it adds the default content types of a drawing in map
// order, and writes stream-written sheets in map order. So the content
// types are sorted first, and the archive excelize writes (in memory up to
// its limit, past it in a scratch file) is copied to w in canonical order
// by normalizeZip, with the sheets of rows packed (compressed with their
// rows) at the same time. The scratch file keeps a large workbook out of
// memory; a small one costs no file. The archive's parts are stored, not
// compressed (storingZip): normalizeZip compresses each part once, as it
// copies it, rewritten or not, and the sheets excelize wrote without their
// rows are never compressed at all.
func saveNormalized(ctx context.Context, f *excelize.File, w io.Writer, sc scratch, rows []sheetRows, charts map[string]chartCache) error {
	if f.ContentTypes != nil {
		d := f.ContentTypes.Defaults
		sort.SliceStable(d, func(i, j int) bool { return d[i].Extension < d[j].Extension })
	}
	archive := &spill{dir: sc.dir, pattern: "workbook-*.zip", limit: sc.limits.archive, whole: true}
	defer archive.close()
	f.SetZipWriter(func(io.Writer) excelize.ZipWriter {
		return storingZip{zip.NewWriter(results.ContextWriter(ctx, archive))}
	})
	// Every byte goes to the archive; what Write gives io.Discard is
	// excelize's empty in-memory buffer.
	if err := f.Write(io.Discard); err != nil {
		return fmt.Errorf("saving the workbook: %w", err)
	}
	r, size, err := archive.reader()
	if err != nil {
		return err
	}
	zr, err := zip.NewReader(r, size)
	if err != nil {
		return fmt.Errorf("reading the workbook's zip archive: %w", err)
	}
	packs := packSheets(ctx, zr, rows, sc)
	defer packs.wait()
	if err := normalizeZip(results.ContextWriter(ctx, w), zr, packs.sheets, charts); err != nil {
		return err
	}
	return packs.err()
}

// Besides its sheets, a workbook holds excelize's parts, styles and zip
// (workbookBytes), and a table being read its row and texts (readBytes).
const (
	workbookBytes = 5 << 20
	readBytes     = 256 << 10
)

// Bound bounds the memory writing the workbook holds.
// It counts the tables being read, the views' blocks being made, and the sheets being packed and kept.
// It adds the views' layout, the summary, the archive and the workbook around them.
func Bound(s results.Sizes) int64 {
	n := satmath.Add(workbookBytes, archiveInMemory)
	for _, t := range s.Tables() {
		n = satmath.Add(n, satmath.Add(readBytes, t.Held))
	}
	n = satmath.Add(n, s.Views.BlocksBytes(packedAtOnce()))
	n = satmath.Add(n, packBytes(s))
	n = satmath.Add(n, layoutBytes(s.Views))
	return satmath.Add(n, summaryBytes(s))
}

// archiveInMemory is the most of the archive excelize saves, its parts
// stored and the sheets without their rows, kept in memory, in a buffer of
// that size made at once: a larger one goes to a scratch file. The shipped
// experiments' are 170 to 460 KB.
const archiveInMemory = 512 << 10

// storingZip is the zip archive excelize saves a workbook to: its parts
// stored as they are, for normalizeZip to compress.
type storingZip struct{ *zip.Writer }

// Create adds a part, stored.
func (z storingZip) Create(name string) (io.Writer, error) {
	return z.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Store})
}

// workbook is a workbook being built.
type workbook struct {
	ctx       context.Context
	f         *excelize.File
	sheetRows int
	// sheets counts the sheets made; the first takes over the new file's
	// default sheet.
	sheets int
	styles map[styleKey]int
	// notes are what the experiment sheet says about the other sheets,
	// such as a table split over several.
	notes []string
	// plannedSheets names the sheets after the summary, for its last line.
	plannedSheets []string
	// rows are the data rows of the table sheets and the blocks of the
	// view sheets, written into the sheets as the workbook is saved.
	rows []sheetRows
	// charts are what each chart added plots, in the order added, for the
	// caches of their parts.
	charts []chartCache
	// tints are the conditional styles of decision-map cells, by colour.
	tints map[string]int
	// streamRows, when set, writes a table sheet's rows at once instead,
	// with the sheet's stream writer: tests set it to hold the rows the
	// workbook writes to those of excelize.
	streamRows rowStreamer
	// streamViews, when set, writes a view sheet's blocks at once instead,
	// with the sheet's stream writer: tests set it to hold the blocks the
	// workbook writes to those of excelize.
	streamViews viewStreamer
}

// rowStreamer writes rows lo..hi-1 of a table with a sheet's stream
// writer.
type rowStreamer func(ctx context.Context, sw *excelize.StreamWriter, rows tableRows, lo, hi int) error

// viewStreamer writes a view's blocks with its sheet's stream writer.
type viewStreamer func(b *workbook, sw *excelize.StreamWriter, rows viewRows) error

// build adds every sheet of the set, in order: the summary, the charts,
// the tables, the lesson's views and the experiment.
func (b *workbook) build(s results.Set) error {
	if err := b.f.SetDocProps(&excelize.DocProperties{Creator: "ckptlab " + s.Version, Title: s.Name}); err != nil {
		return err
	}
	tables := []results.Table{s.Grid, s.Failures}
	for _, t := range []results.Table{s.Decisions, s.Breakeven, s.ProcessDecisions, s.Process} {
		if len(t.Columns) > 0 {
			tables = append(tables, t)
		}
	}
	if s.WhatIf != nil {
		b.plannedSheets = append(b.plannedSheets, whatIfSheet)
	}
	if len(s.Charts) > 0 {
		b.plannedSheets = append(b.plannedSheets, "charts")
	}
	if len(s.TimeCharts) > 0 {
		b.plannedSheets = append(b.plannedSheets, timeSheet)
	}
	for _, t := range tables {
		b.plannedSheets = append(b.plannedSheets, t.Name)
	}
	for _, v := range s.Views {
		b.plannedSheets = append(b.plannedSheets, v.Name)
	}
	b.plannedSheets = append(b.plannedSheets, "experiment")
	if err := b.writeSummary(s); err != nil {
		return err
	}
	if err := b.writeWhatIf(s.WhatIf); err != nil {
		return err
	}
	if err := b.writeCharts(s.Charts); err != nil {
		return err
	}
	if err := b.writeChartSheet(timeSheet, s.TimeCharts); err != nil {
		return err
	}
	for _, t := range tables {
		if err := b.writeTable(t); err != nil {
			return err
		}
	}
	for _, v := range s.Views {
		if err := b.writeView(v); err != nil {
			return err
		}
	}
	return b.writeExperiment(s)
}

// newSheet adds a sheet after the others; the first one renames the new
// file's default sheet, which is the active one.
func (b *workbook) newSheet(name string) error {
	b.sheets++
	if b.sheets == 1 {
		return b.f.SetSheetName(b.f.GetSheetName(0), name)
	}
	_, err := b.f.NewSheet(name)
	return err
}

// styleKey names a cell style: a kind of cell and, for numbers, the
// number style shown.
type styleKey struct {
	role     styleRole
	quantity results.Quantity
}

type styleRole uint8

const (
	plainStyle        styleRole = iota // a number with its decimals
	headerStyle                        // a header cell: bold, a rule below
	titleStyle                         // a sheet's title: bold and larger
	blockStyle                         // a block's title: bold
	markedStyle                        // a highlighted number: bold on green
	wrapStyle                          // text wrapped at the top of its cell
	centredStyle                       // an interval: a number or none, centred alike
	numberHeaderStyle                  // a header cell over numbers: a header, right-aligned
	inputStyle                         // a cell the analyst types into: boxed on yellow
)

// style returns the id of a cell style, making it on first use. Styles are
// made in the order cells ask for them, which is the same every run.
func (b *workbook) style(role styleRole, q results.Quantity) (int, error) {
	key := styleKey{role, q}
	if id, ok := b.styles[key]; ok {
		return id, nil
	}
	var st excelize.Style
	if format := q.NumFmt(); format != "General" {
		st.CustomNumFmt = &format
	}
	switch role {
	case headerStyle:
		st.Font = &excelize.Font{Bold: true}
		st.Border = []excelize.Border{{Type: "bottom", Color: "808080", Style: 1}}
		st.Alignment = headerAlignment("left")
	case titleStyle:
		st.Font = &excelize.Font{Bold: true, Size: 12}
	case blockStyle:
		st.Font = &excelize.Font{Bold: true}
	case markedStyle:
		st.Font = &excelize.Font{Bold: true, Color: "006100"}
		st.Fill = excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{"C6EFCE"}}
	case wrapStyle:
		st.Alignment = &excelize.Alignment{WrapText: true, Vertical: "top"}
	case centredStyle:
		st.Alignment = &excelize.Alignment{Horizontal: "center"}
	case inputStyle:
		st.Font = &excelize.Font{Bold: true}
		st.Fill = excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{"FFF2CC"}}
		st.Border = []excelize.Border{{Type: "left", Color: "7F7F7F", Style: 1}, {Type: "right", Color: "7F7F7F", Style: 1},
			{Type: "top", Color: "7F7F7F", Style: 1}, {Type: "bottom", Color: "7F7F7F", Style: 1}}
	case numberHeaderStyle:
		st.Font = &excelize.Font{Bold: true}
		st.Border = []excelize.Border{{Type: "bottom", Color: "808080", Style: 1}}
		st.Alignment = headerAlignment("right")
	}
	if role == plainStyle && q.NumFmt() == "General" {
		return 0, nil
	}
	id, err := b.f.NewStyle(&st)
	if err != nil {
		return 0, err
	}
	b.remember(key, id)
	return id, nil
}

// headerAlignment aligns a header cell: to the side of its column's
// values, one indent in from the cell's edge, so that a header flush right
// never runs into the next one flush left ("to_probabilityfrom_fraction"),
// and wrapped at the bottom of its row when wider than its column.
func headerAlignment(side string) *excelize.Alignment {
	return &excelize.Alignment{Horizontal: side, Indent: 1, WrapText: true, Vertical: "bottom"}
}

// remember keeps a style's id for later cells of the same key.
func (b *workbook) remember(key styleKey, id int) {
	if b.styles == nil {
		b.styles = make(map[styleKey]int)
	}
	b.styles[key] = id
}

// conditionalKey is the quantity of a conditional style's key: no number
// style's, so the two kinds of style never share an id.
const conditionalKey results.Quantity = 255

// conditionalStyle returns the id of a conditional format's style, making
// it on first use.
func (b *workbook) conditionalStyle(role styleRole) (int, error) {
	key := styleKey{role, conditionalKey}
	if id, ok := b.styles[key]; ok {
		return id, nil
	}
	var st excelize.Style
	switch role {
	case markedStyle:
		st.Font = &excelize.Font{Color: "006100"}
		st.Fill = excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{"C6EFCE"}}
	default:
		st.Font = &excelize.Font{Color: "595959"}
		st.Fill = excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{"E7E6E6"}}
	}
	id, err := b.f.NewConditionalStyle(&st)
	if err != nil {
		return 0, err
	}
	b.remember(key, id)
	return id, nil
}

// cellValue returns a value as excelize takes it: numbers as numbers,
// booleans as booleans. A boolean cell, not the text true/false, is what a
// spreadsheet filters and counts as TRUE and FALSE.
func cellValue(v results.Value) any { return anyValue(sheetValue(v, false)) }

// sheetValue returns the value a workbook cell holds for v: floats
// rounded by cellFloat and, when numeric is set, a text that is a plain
// decimal number as that number.
func sheetValue(v results.Value, numeric bool) results.Value {
	switch {
	case v.Kind == results.Float:
		return results.FloatValue(cellFloat(v.Float))
	case v.Kind != results.Text || !numeric || v.Text == "" || !results.IsDecimal(v.Text):
		return v
	}
	if n, err := strconv.ParseInt(v.Text, 10, 64); err == nil {
		return results.IntValue(n)
	}
	if x, err := strconv.ParseFloat(v.Text, 64); err == nil {
		return results.FloatValue(cellFloat(x))
	}
	return v
}

// anyValue returns v as the Go value excelize takes.
func anyValue(v results.Value) any {
	switch v.Kind {
	case results.Int:
		return v.Int
	case results.Float:
		return v.Float
	case results.Bool:
		return v.Bool
	}
	return v.Text
}

// cellFloat rounds x to the 15 significant digits a spreadsheet cell
// holds. excelize cuts a float's digits past the fifteenth instead of
// rounding them (0.9166666666666666 became 0.916666666666666, 1018.1818…
// 1018.18181818181); rounded first, the value it writes is the nearest
// 15-digit number, as a spreadsheet would show it. NaN and infinities
// stay as they are.
func cellFloat(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return x
	}
	r, err := strconv.ParseFloat(strconv.FormatFloat(x, 'g', 15, 64), 64)
	if err != nil {
		return x
	}
	return r
}

// numericTextColumns reports, per column, whether its text cells are
// numbers a spreadsheet should see as numbers: the interval columns hold
// "none" or a number of periods, and an analyst sorts and filters them by
// number (1, 2, 10, not 1, 10, 2). "none" stays text.
func numericTextColumns(cols []results.Column) []bool {
	out := make([]bool, len(cols))
	for i, c := range cols {
		out[i] = c.Kind == results.Text && (c.Name == "interval" || c.Name == "best" || strings.HasSuffix(c.Name, "_interval"))
	}
	return out
}

// numericCellValue returns a value as cellValue does, but a text that is
// a plain decimal number as that number.
func numericCellValue(v results.Value) any { return anyValue(sheetValue(v, true)) }

// quantity returns the number style a column's cells are shown in:
// General for text and booleans.
func quantity(c results.Column) results.Quantity {
	if c.Kind != results.Int && c.Kind != results.Float && c.Quantity == results.FromKind {
		return results.General
	}
	return c.Shown()
}

package results

import "github.com/xuri/excelize/v2"

// writeExperiment writes the experiment sheet: every key of the resolved
// configuration with its value, then the tool's version, the hash of the
// configuration and the notes about the other sheets.
func (b *workbook) writeExperiment(s Set) error {
	const sheet = "experiment"
	if err := b.newSheet(sheet); err != nil {
		return err
	}
	f := b.f
	rows := [][]any{{"key", "value"}}
	for _, kv := range s.Config {
		rows = append(rows, []any{kv[0], kv[1]})
	}
	rows = append(rows, nil,
		[]any{"ckptlab version", s.Version},
		[]any{"configuration sha256", s.ConfigHash()},
		[]any{"", "the SHA-256 of the lines \"key: value\" above, each ended by a line feed"},
	)
	if len(b.notes) > 0 {
		rows = append(rows, nil)
		for _, n := range b.notes {
			rows = append(rows, []any{"note", n})
		}
	}
	width := 0
	for i, r := range rows {
		if r == nil {
			continue
		}
		if err := f.SetSheetRow(sheet, cellName(1, i+1), &r); err != nil {
			return err
		}
		if v, ok := r[1].(string); ok {
			width = max(width, len(v))
		}
	}
	header, err := b.style(headerStyle, -1)
	if err != nil {
		return err
	}
	if err := f.SetCellStyle(sheet, "A1", "B1", header); err != nil {
		return err
	}
	if err := f.SetColWidth(sheet, "A", "A", 24); err != nil {
		return err
	}
	if err := f.SetColWidth(sheet, "B", "B", float64(min(max(width+2, 16), 100))); err != nil {
		return err
	}
	wrap, err := f.NewStyle(&excelize.Style{Alignment: &excelize.Alignment{WrapText: true, Vertical: "top"}})
	if err != nil {
		return err
	}
	return f.SetCellStyle(sheet, "B2", cellName(2, len(rows)), wrap)
}

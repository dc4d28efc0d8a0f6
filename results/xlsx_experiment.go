package results

import "github.com/xuri/excelize/v2"

// writeExperiment writes the experiment sheet: every key of the resolved
// configuration with its value, then the tool's version, the hash of the
// configuration and the notes about the other sheets. Like every sheet it
// is stream-written, so its text is in the sheet itself rather than in the
// workbook's shared strings, and a change shows in the sheet that has it.
func (b *workbook) writeExperiment(s Set) error {
	const sheet = "experiment"
	if err := b.newSheet(sheet); err != nil {
		return err
	}
	rows := [][2]string{{"key", "value"}}
	for _, kv := range s.Config {
		rows = append(rows, [2]string{kv.Key, kv.Value})
	}
	rows = append(rows, [2]string{},
		[2]string{"ckptlab version", s.Version},
		[2]string{"configuration sha256", s.ConfigHash()},
		[2]string{"", `the SHA-256 of the lines "key: value" above, each ended by a line feed`},
	)
	if len(b.notes) > 0 {
		rows = append(rows, [2]string{})
		for _, n := range b.notes {
			rows = append(rows, [2]string{"note", n})
		}
	}
	width := 0
	for _, r := range rows {
		width = max(width, len(r[1]))
	}

	sw, err := b.f.NewStreamWriter(sheet)
	if err != nil {
		return err
	}
	if err := sw.SetColWidth(2, 2, float64(min(max(width+2, 16), 100))); err != nil {
		return err
	}
	if err := sw.SetColWidth(1, 1, 24); err != nil {
		return err
	}
	header, err := b.style(headerStyle, -1)
	if err != nil {
		return err
	}
	wrap, err := b.f.NewStyle(&excelize.Style{Alignment: &excelize.Alignment{WrapText: true, Vertical: "top"}})
	if err != nil {
		return err
	}
	for i, r := range rows {
		if r == [2]string{} {
			continue
		}
		cells := []any{r[0], excelize.Cell{StyleID: wrap, Value: r[1]}}
		if i == 0 {
			cells = []any{excelize.Cell{StyleID: header, Value: r[0]}, excelize.Cell{StyleID: header, Value: r[1]}}
		}
		if err := sw.SetRow(cellName(1, i+1), cells); err != nil {
			return err
		}
	}
	return sw.Flush()
}

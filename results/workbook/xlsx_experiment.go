package workbook

import (
	"ckptlab/results"

	"github.com/xuri/excelize/v2"
)

// writeExperiment writes the experiment sheet: every key of the resolved
// configuration with its value as a reader writes it (no YAML quotes or
// brackets) and, for a value that did not come from the experiment file,
// where it came from; then the tool's version, the hash of the
// configuration and the notes about the other sheets. Like every sheet it
// is stream-written, so its text is in the sheet itself rather than in the
// workbook's shared strings, and a change shows in the sheet that has it.
func (b *workbook) writeExperiment(s results.Set) error {
	const sheet = "experiment"
	if err := b.newSheet(sheet); err != nil {
		return err
	}
	rows := [][3]string{{"key", "value", "origin"}}
	for _, kv := range s.Config {
		rows = append(rows, [3]string{kv.Key, results.PlainValue(kv.Value), kv.Origin})
	}
	rows = append(rows, [3]string{},
		[3]string{"ckptlab version", s.Version},
		[3]string{"configuration sha256", s.ConfigHash()},
		[3]string{"", `the SHA-256 of the lines "key: value" of the configuration, each value in YAML flow syntax, each line ended by a line feed`},
	)
	if len(b.notes) > 0 {
		rows = append(rows, [3]string{})
		for _, n := range b.notes {
			rows = append(rows, [3]string{"note", n})
		}
	}
	width, origin := 0, 0
	for _, r := range rows {
		width = max(width, len(r[1]))
		origin = max(origin, len(r[2]))
	}
	widths := []float64{24, float64(min(max(width+2, 16), 64)), float64(min(max(origin+2, 10), 30))}
	var points float64
	for _, w := range widths {
		points += columnPoints(w)
	}
	if err := b.setUpPrint(sheet, layOut(points, 0, 1), 1, 0); err != nil {
		return err
	}
	sw, err := b.f.NewStreamWriter(sheet)
	if err != nil {
		return err
	}
	if err := setColWidths(sw, widths); err != nil {
		return err
	}
	header, err := b.style(headerStyle, results.General)
	if err != nil {
		return err
	}
	wrap, err := b.style(wrapStyle, results.General)
	if err != nil {
		return err
	}
	for i, r := range rows {
		if r == [3]string{} {
			continue
		}
		cells := []any{r[0], excelize.Cell{StyleID: wrap, Value: r[1]}}
		if r[2] != "" {
			cells = append(cells, r[2])
		}
		if i == 0 {
			cells = []any{excelize.Cell{StyleID: header, Value: r[0]}, excelize.Cell{StyleID: header, Value: r[1]},
				excelize.Cell{StyleID: header, Value: r[2]}}
		}
		if err := sw.SetRow(cellName(1, i+1), cells); err != nil {
			return err
		}
	}
	return sw.Flush()
}

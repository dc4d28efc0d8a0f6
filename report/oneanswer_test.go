package report

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"math/big"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/xuri/excelize/v2"

	"ckptlab/results"
	"ckptlab/results/workbook"
)

// recommendation is what every format must say of a run's first source
// and state size: its recommended intervals, in increasing probability,
// and the least expected total at the greatest declared probability.
type recommendation struct {
	intervals []string
	top       string // the greatest declared probability, as the headline writes it
	total     string // in the number style
}

// tableRows reads every row of a table as text, by column name.
func tableRows(t results.Table) []map[string]string {
	var out []map[string]string
	for row := range t.Rows {
		m := map[string]string{}
		for i, c := range t.Columns {
			m[c.Name] = row[i].String()
		}
		out = append(out, m)
	}
	return out
}

// csvRecommendation works the recommendation out of the CSV tables alone:
// the pieces of breakeven.csv of its first group clipped to the
// probabilities decisions.csv has for that group (with one probability,
// its best_interval), and best_expected_total at the greatest of them.
func csvRecommendation(t *testing.T, set results.Set) recommendation {
	t.Helper()
	pieces := tableRows(set.Breakeven)
	key := func(m map[string]string) string {
		return m["seed"] + " " + m["subscribers"] + " " + m["periods"] + " " + m["state_rows"]
	}
	group := key(pieces[0])
	var lo, hi *big.Rat
	var atLo, atHi map[string]string
	for _, d := range tableRows(set.Decisions) {
		if key(d) != group {
			continue
		}
		p, ok := new(big.Rat).SetString(d["probability"])
		if !ok {
			t.Fatalf("probability %q", d["probability"])
		}
		if lo == nil || p.Cmp(lo) < 0 {
			lo, atLo = p, d
		}
		if hi == nil || p.Cmp(hi) > 0 {
			hi, atHi = p, d
		}
	}
	total, err := strconv.ParseFloat(atHi["best_expected_total"], 64)
	if err != nil {
		t.Fatal(err)
	}
	top := results.Probability.Format(mustFloat(t, atHi["probability"]))
	if hi.IsInt() {
		top = hi.Num().String()
	}
	rec := recommendation{top: top, total: results.Total.Format(total)}
	if lo.Cmp(hi) == 0 {
		rec.intervals = []string{atLo["best_interval"]}
		return rec
	}
	for _, pc := range pieces {
		if key(pc) != group {
			continue
		}
		from, _ := new(big.Rat).SetString(pc["from_fraction"])
		to, _ := new(big.Rat).SetString(pc["to_fraction"])
		if to.Cmp(lo) > 0 && from.Cmp(hi) < 0 {
			rec.intervals = append(rec.intervals, pc["interval"])
		}
	}
	return rec
}

// headlineIntervals matches an interval the headline's lead line names.
var headlineIntervals = regexp.MustCompile(`(?:^|, )(no checkpoint|every period|every (\d+))`)

// TestOneAnswerInEveryFormat renders every format of every shipped
// experiment and finds in each the recommendation the CSV tables give: the
// headline's lead line and the summary sheet that shows it, the what-if
// sheet's first figures, the JSON's recommended member, the Markdown's
// legend and the workbook's chart, whose recommended lines are drawn
// widest, first in the legend.
func TestOneAnswerInEveryFormat(t *testing.T) {
	for _, r := range shippedResults(t) {
		name := r.Exp.Name
		set := r.set([]string{results.FormatCSV, results.FormatXLSX, results.FormatMD, results.FormatJSON})
		want := csvRecommendation(t, set)

		// the headline: the first line that states an envelope
		i := slices.IndexFunc(set.Headline, func(l string) bool { return strings.Contains(l, " rows at p = ") })
		if i < 0 {
			t.Errorf("%s: no headline line states the envelope:\n%s", name, strings.Join(set.Headline, "\n"))
			continue
		}
		lead := set.Headline[i]
		if i == 0 {
			lead = strings.TrimPrefix(lead, name+": ")
		} else {
			_, lead, _ = strings.Cut(lead, " rows: ") // after the group's title
		}
		var said []string
		for _, m := range headlineIntervals.FindAllStringSubmatch(strings.Split(lead, ", and ")[0], -1) {
			switch {
			case m[1] == "no checkpoint":
				said = append(said, "none")
			case m[1] == "every period":
				said = append(said, "1")
			default:
				said = append(said, m[2])
			}
		}
		if n := min(len(want.intervals), maxLeadPieces); !slices.Equal(said, want.intervals[:n]) {
			t.Errorf("%s: the headline names %v, breakeven.csv %v: %s", name, said, want.intervals, lead)
		}
		if figure := "(" + want.total + " rows at p = " + want.top + ")"; !strings.HasSuffix(lead, figure) {
			t.Errorf("%s: the headline's lead line %q does not end in %q", name, lead, figure)
		}

		// the first chart of each kind draws and emphasises every interval
		// recommended for the first source
		for _, kind := range []string{"Expected total against", "Rows recomputed against", "Rows the busiest worker"} {
			i := slices.IndexFunc(set.Charts, func(c results.Chart) bool { return strings.HasPrefix(c.Data.Title, kind) })
			if i < 0 {
				continue
			}
			c := set.Charts[i]
			for _, k := range want.intervals {
				drawn := slices.ContainsFunc(c.Data.Columns, func(col results.Column) bool { return col.Name == "interval "+k })
				if !drawn || !c.IsRecommended("interval "+k) {
					t.Errorf("%s: %q draws interval %s %v, emphasised %v", name, c.Data.Title, k, drawn, c.IsRecommended("interval "+k))
				}
			}
		}

		// the JSON
		var doc struct {
			Recommended []struct {
				Intervals []any `json:"intervals"`
				Pieces    []struct {
					ToExpectedTotal float64 `json:"to_expected_total"`
				} `json:"pieces"`
			} `json:"recommended"`
		}
		var buf bytes.Buffer
		if err := results.WriteJSON(&buf, set); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
			t.Fatal(err)
		}
		if len(doc.Recommended) == 0 || !slices.Equal(jsonIntervals(doc.Recommended[0].Intervals), want.intervals) {
			t.Errorf("%s: the JSON recommends %+v, want %v", name, doc.Recommended, want.intervals)
		} else if pcs := doc.Recommended[0].Pieces; results.Total.Format(pcs[len(pcs)-1].ToExpectedTotal) != want.total {
			t.Errorf("%s: the JSON's last piece ends at %v, want %s", name, pcs[len(pcs)-1].ToExpectedTotal, want.total)
		}

		// the Markdown: the legend of the first expected-total chart
		buf.Reset()
		if err := results.WriteMarkdown(&buf, set); err != nil {
			t.Fatal(err)
		}
		md := buf.String()
		if n := utf8.RuneCountInString(md); n >= 65_536 {
			t.Errorf("%s.md has %d characters, want fewer than 65,536", name, n)
		}
		_, chart, ok := strings.Cut(md, "\n### Expected total against failure probability\n")
		_, legend, _ := strings.Cut(chart, "\nLegend: ")
		legend, _, _ = strings.Cut(legend, ". ")
		var marked []string
		for _, entry := range strings.Split(legend, ", ") {
			if k, ok := strings.CutSuffix(entry, " (recommended)"); ok {
				marked = append(marked, k[strings.LastIndex(k, " ")+1:])
			}
		}
		if !ok || !slices.Equal(marked, want.intervals) {
			t.Errorf("%s: the Markdown's legend recommends %v, want %v: %s", name, marked, want.intervals, legend)
		}
		if !strings.Contains(md, "- "+set.Headline[0]+"\n") && !strings.Contains(md, "**"+strings.TrimSuffix(set.Headline[0], ":")+"**") {
			t.Errorf("%s: the Markdown does not lead with the headline's first line", name)
		}

		// the what-if sheet: its inputs start at the greatest probability,
		// where its least total is the headline's figure, of the interval
		// recommended there
		if w := set.WhatIf; w == nil {
			t.Errorf("%s: no what-if sheet", name)
		} else {
			least := 0
			for k, v := range w.Totals {
				if v < w.Totals[least] {
					least = k
				}
			}
			if got := results.Total.Format(w.Totals[least]); got != want.total || w.Intervals[least] != want.intervals[len(want.intervals)-1] {
				t.Errorf("%s: the what-if sheet's best is %s at %s, want %s at %s", name, w.Intervals[least], got,
					want.intervals[len(want.intervals)-1], want.total)
			}
		}

		// the workbook: the summary sheet shows the lead line, and the
		// first expected-total chart draws the recommended lines widest
		buf.Reset()
		if err := workbook.Write(context.Background(), &buf, set, ""); err != nil {
			t.Fatal(err)
		}
		if got := widestSeries(t, buf.Bytes()); !slices.Equal(got, want.intervals) {
			t.Errorf("%s: the workbook's chart emphasises %v, want %v", name, got, want.intervals)
		}
		f, err := excelize.OpenReader(bytes.NewReader(buf.Bytes()))
		if err != nil {
			t.Fatal(err)
		}
		rows, err := f.GetRows("summary")
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, row := range rows {
			found = found || slices.Contains(row, set.Headline[i])
		}
		if !found {
			t.Errorf("%s: the summary sheet lacks the headline's line %q", name, set.Headline[i])
		}
		f.Close()
	}
}

// widestSeries returns the intervals of the series drawn widest, in the
// order of the legend, on the workbook's first chart against the failure
// probability, reading the names from the charts sheet's cells.
func widestSeries(t *testing.T, data []byte) []string {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	f, err := excelize.OpenReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	series := regexp.MustCompile(`<ser>.*?<f>'charts'!\$([A-Z]+)\$(\d+)</f>.*?<a:ln cap="rnd" w="(\d+)">`)
	for n := 1; ; n++ {
		rc, err := zr.Open("xl/charts/chart" + strconv.Itoa(n) + ".xml")
		if err != nil {
			t.Fatal("no chart against the failure probability")
		}
		b, _ := io.ReadAll(rc)
		rc.Close()
		x := html.UnescapeString(string(b))
		if !strings.Contains(x, "Expected total against failure probability") {
			continue
		}
		type line struct {
			name  string
			width int
		}
		var lines []line
		widest := 0
		for _, m := range series.FindAllStringSubmatch(x, -1) {
			name, err := f.GetCellValue("charts", m[1]+m[2])
			if err != nil {
				t.Fatal(err)
			}
			w, _ := strconv.Atoi(m[3])
			lines = append(lines, line{name, w})
			widest = max(widest, w)
		}
		var out []string
		for _, l := range lines {
			if l.width == widest {
				out = append(out, strings.TrimPrefix(l.name, "interval "))
			}
		}
		return out
	}
}

// jsonIntervals writes the JSON's intervals, numbers of periods or the
// label none, as breakeven.csv writes them.
func jsonIntervals(in []any) []string {
	out := make([]string, len(in))
	for i, v := range in {
		switch v := v.(type) {
		case float64:
			out[i] = strconv.FormatFloat(v, 'f', -1, 64)
		case string:
			out[i] = v
		default:
			out[i] = fmt.Sprint(v)
		}
	}
	return out
}

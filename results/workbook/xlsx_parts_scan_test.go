package workbook

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"ckptlab/results"

	"github.com/xuri/excelize/v2"
)

// The regular expressions fillChartCaches and undate were first written
// with: the reference their scans must match byte for byte.
var (
	refXValRef   = regexp.MustCompile(`<xVal><strRef><f>([^<]*)</f></strRef></xVal>`)
	refEmptyVals = regexp.MustCompile(`<(yVal|val)><numRef><f>([^<]*)</f><numCache><formatCode></formatCode></numCache></numRef></(yVal|val)>`)
	refCoreDates = regexp.MustCompile(`<dcterms:(created|modified)[^>]*>[^<]*</dcterms:(created|modified)>`)
)

// refNumRef is the number reference the regular expressions were given.
func refNumRef(f string, vs []float64) string {
	var b strings.Builder
	b.WriteString("<numRef><f>" + f + "</f><numCache><formatCode>General</formatCode>")
	fmt.Fprintf(&b, `<ptCount val="%d"/>`, len(vs))
	for i, v := range vs {
		if v != v {
			continue
		}
		fmt.Fprintf(&b, `<pt idx="%d"><v>%s</v></pt>`, i, strconv.FormatFloat(v, 'g', 15, 64))
	}
	b.WriteString("</numCache></numRef>")
	return b.String()
}

// refFillChartCaches is fillChartCaches as it was written with regular
// expressions.
func refFillChartCaches(chart []byte, c chartCache) ([]byte, error) {
	var err error
	if c.xs != nil {
		n := len(refXValRef.FindAllIndex(chart, -1))
		series := 0
		chart = refXValRef.ReplaceAllFunc(chart, func(m []byte) []byte {
			f := refXValRef.FindSubmatch(m)[1]
			series++
			if c.marks.xs != nil && series == n {
				return []byte(markLabels(c.marks.labels, c.marks.at) + "<xVal>" + refNumRef(string(f), c.marks.xs) + "</xVal>")
			}
			return []byte("<xVal>" + refNumRef(string(f), c.xs) + "</xVal>")
		})
	}
	if c.points != nil {
		chart = colourPoints(chart, c.points)
	}
	if c.logX {
		chart = logXAxis(chart)
	}
	series := 0
	chart = refEmptyVals.ReplaceAllFunc(chart, func(m []byte) []byte {
		sm := refEmptyVals.FindSubmatch(m)
		if series >= len(c.ys) {
			err = fmt.Errorf("the chart has more series than the %d it plots", len(c.ys))
			return m
		}
		ys := c.ys[series]
		series++
		return []byte("<" + string(sm[1]) + ">" + refNumRef(string(sm[2]), ys) + "</" + string(sm[1]) + ">")
	})
	return chart, err
}

// excelizeCharts returns the parts excelize writes for charts of every
// kind the workbook draws, each with what it plots: numeric x with marks,
// on a doubling axis, categories, and the what-if sheet's columns coloured
// by interval.
func excelizeCharts(t *testing.T) (parts [][]byte, caches []chartCache) {
	t.Helper()
	cols := []results.Column{{Name: "workers", Kind: results.Int}, {Name: "interval none", Kind: results.Float, Decimals: 1},
		{Name: "interval 4", Kind: results.Float, Decimals: 1}, {Name: "interval 2", Kind: results.Float, Decimals: 1}}
	numeric := results.Chart{Data: results.Block{Title: "expected total: by workers", Columns: cols}, YTitle: "rows", Recommended: []string{"interval 4"},
		MarksName: "break-even",
		Marks:     []results.Mark{{X: 3.5, Y: 12, From: "interval none", To: "interval 4"}, {X: 30, Y: 7.25, Fraction: "30/1", From: "interval 4", To: "interval 2"}}}
	for w := 1; w <= 32; w *= 2 {
		numeric.Data.Rows = append(numeric.Data.Rows, []results.Value{results.IntValue(int64(w)), results.FloatValue(100 / float64(w)), results.FloatValue(math.NaN()), results.FloatValue(float64(w) * 1.5)})
	}
	category := results.Chart{Data: results.Block{Title: "saw-tooth", Columns: []results.Column{{Name: "failure period", Kind: results.Text},
		{Name: "interval 6", Kind: results.Int}, {Name: "interval 3", Kind: results.Int}}}}
	for p := 1; p <= 20; p++ {
		category.Data.Rows = append(category.Data.Rows, []results.Value{results.TextValue("p" + strconv.Itoa(p)), results.IntValue(int64(p % 6)), results.IntValue(int64(p % 3))})
	}
	f := excelize.NewFile()
	defer f.Close()
	add := func(c *excelize.Chart, cache chartCache) {
		if err := f.AddChart("Sheet1", "A"+strconv.Itoa(1+40*len(caches)), c); err != nil {
			t.Fatal(err)
		}
		caches = append(caches, cache)
	}
	for _, c := range []results.Chart{numeric, category} {
		marksTop := 0
		if len(c.Marks) > 0 {
			marksTop = len(c.Data.Rows) + 3
		}
		add(chartOf("Sheet1", c, 1, marksTop), cacheOf(c))
	}
	add(&excelize.Chart{Type: excelize.Col, Series: []excelize.ChartSeries{{Name: "Sheet1!$F$1", Categories: "Sheet1!$A$2:$A$4", Values: "Sheet1!$F$2:$F$4"}}},
		chartCache{ys: [][]float64{{1, 2.5, 1e20}}, points: []string{"FF0000", "", "00FF00"}})
	for i := range caches {
		v, ok := f.Pkg.Load(chartPart(i))
		if !ok {
			t.Fatalf("excelize wrote no %s", chartPart(i))
		}
		parts = append(parts, v.([]byte))
	}
	if !caches[0].logX || caches[0].marks.xs == nil || caches[1].xs != nil {
		t.Fatalf("the charts do not cover a doubling axis with marks and categories: %+v", caches[:2])
	}
	return parts, caches
}

// nearMisses are fragments that look like the elements rewritten but are
// not, or are with another closing name, put into a chart to try the
// scan's edges.
var nearMisses = []string{
	`<xVal><strRef><f>'s'!$A$2:$A$9</f></strRef></xVal>`,
	`<xVal><strRef><f>A</f></strRef></xVal<`,
	`<xVal><strRef><f><xVal><strRef><f>B</f></strRef></xVal>`,
	`<yVal><numRef><f>C</f><numCache><formatCode></formatCode></numCache></numRef></val>`,
	`<val><numRef><f>D</f><numCache><formatCode></formatCode></numCache></numRef></yVal>`,
	`<val><numRef><f></f><numCache><formatCode></formatCode></numCache></numRef></val>`,
	`<yval><numRef><f>E</f><numCache><formatCode></formatCode></numCache></numRef></yval>`,
	`<yVal><numRef><f>F</f><numCache><formatCode>General</formatCode></numCache></numRef></yVal>`,
	`<yVal><yVal><numRef><f>G</f><numCache><formatCode></formatCode></numCache></numRef></yVal>`,
	`<yVal><numRef><f>H</f><numCache><formatCode></formatCode></numCache></numRef></yVa`,
	"<val><numRef><f>\n\xff</f><numCache><formatCode></formatCode></numCache></numRef></val>",
	`<numRef><f>I</f><numCache><formatCode></formatCode></numCache></numRef></val>`,
}

// TestChartCachesMatchRegexp holds fillChartCaches to the regular
// expressions it replaced: the same bytes and the same error, on every
// kind of chart excelize writes for a workbook, cut short at points all
// over (on each element's edges too), and with near misses put in.
func TestChartCachesMatchRegexp(t *testing.T) {
	parts, caches := excelizeCharts(t)
	check := func(label string, part []byte, c chartCache) {
		t.Helper()
		want, wantErr := refFillChartCaches(bytes.Clone(part), c)
		got, err := fillChartCaches(bytes.Clone(part), c)
		if (err == nil) != (wantErr == nil) || !bytes.Equal(got, want) {
			t.Fatalf("%s: got error %v and\n%s\nwant error %v and\n%s", label, err, got, wantErr, want)
		}
	}
	fewer := func(c chartCache) chartCache { c.ys = c.ys[:len(c.ys)-1]; return c } // more series than plotted
	for i, part := range parts {
		c := caches[i]
		check(chartPart(i), part, c)
		check(chartPart(i)+" short of a series", part, fewer(c))
		cuts := map[int]bool{}
		for at := 0; at < len(part); at += 61 {
			cuts[at] = true
		}
		for _, re := range []*regexp.Regexp{refXValRef, refEmptyVals} {
			for _, m := range re.FindAllIndex(part, -1) {
				for d := -3; d <= 3; d++ {
					cuts[m[0]+d], cuts[m[1]+d] = true, true
				}
			}
		}
		for at := range cuts {
			if at >= 0 && at <= len(part) {
				check(fmt.Sprintf("%s cut at %d", chartPart(i), at), part[:at], c)
			}
		}
		for j, miss := range nearMisses {
			for _, at := range []int{0, len(part) / 2, len(part)} {
				spliced := append(append(bytes.Clone(part[:at]), miss...), part[at:]...)
				check(fmt.Sprintf("%s with near miss %d at %d", chartPart(i), j, at), spliced, c)
				check(fmt.Sprintf("%s with near miss %d at %d, short of a series", chartPart(i), j, at), spliced, fewer(c))
			}
		}
	}
}

// TestUndateMatchesRegexp holds undate to the regular expression it
// replaced, on the part excelize writes and on near misses.
func TestUndateMatchesRegexp(t *testing.T) {
	f := excelize.NewFile()
	defer f.Close()
	if err := f.SetDocProps(&excelize.DocProperties{Creator: "ckptlab test", Title: "t"}); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := f.Write(&buf); err != nil {
		t.Fatal(err)
	}
	zr, err := zip.NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	rc, err := zr.Open("docProps/core.xml")
	if err != nil {
		t.Fatal(err)
	}
	core, err := io.ReadAll(rc)
	rc.Close()
	if err != nil {
		t.Fatal(err)
	}
	if !refCoreDates.Match(core) {
		t.Fatalf("excelize's docProps/core.xml has no date to leave out:\n%s", core)
	}
	cases := [][]byte{core, nil, []byte("<dcterms:"), []byte("<dcterms:created>")}
	for _, s := range []string{
		`<dcterms:created xsi:type="dcterms:W3CDTF">2006-09-16T00:00:00Z</dcterms:modified>`,
		`<dcterms:createdAt>x</dcterms:created>`,
		`<dcterms:created>x</dcterms:created`,
		`<dcterms:created>x<dcterms:modified>y</dcterms:modified>`,
		`<dcterms:modified>x</dcterms:modifie>`,
		`<dcterms:<dcterms:modified a="1">y</dcterms:created>`,
		`<dcterms:title>x</dcterms:title>`,
	} {
		cases = append(cases, []byte(s), append(bytes.Clone(core), s...), append([]byte(s), core...))
	}
	for _, c := range cases {
		want := refCoreDates.ReplaceAll(bytes.Clone(c), nil)
		got, err := undate(bytes.Clone(c))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("undate(%q) = %q, %v; want %q", c, got, err, want)
		}
	}
}

// FuzzChartCaches holds fillChartCaches to the regular expressions on any
// part, starting from the near misses.
func FuzzChartCaches(f *testing.F) {
	for _, m := range nearMisses {
		f.Add([]byte(m + m))
	}
	c := chartCache{xs: []float64{1, 2}, ys: [][]float64{{1, 2}, {3, math.NaN()}}}
	c.marks.xs, c.marks.labels, c.marks.at = []float64{1.5}, []string{"a<b"}, []string{"t"}
	f.Fuzz(func(t *testing.T, part []byte) {
		want, wantErr := refFillChartCaches(bytes.Clone(part), c)
		got, err := fillChartCaches(bytes.Clone(part), c)
		if (err == nil) != (wantErr == nil) || !bytes.Equal(got, want) {
			t.Fatalf("%q: got error %v and %q, want error %v and %q", part, err, got, wantErr, want)
		}
	})
}

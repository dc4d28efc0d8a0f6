package workbook

import (
	"fmt"
	"math"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"ckptlab/results"
)

func TestFitBlocks(t *testing.T) {
	block := func(rows int, marked ...[2]int) results.Block {
		b := results.Block{Columns: []results.Column{{Name: "p", Kind: results.Float}}, Marked: marked}
		for range rows {
			b.Rows = append(b.Rows, []results.Value{results.FloatValue(0.5)})
		}
		return b
	}
	tests := []struct {
		name       string
		blocks     []results.Block
		last       int
		wantRows   []int
		wantStarts []int
		wantMarked int
		wantNote   string
	}{
		{"all fit", []results.Block{block(4, [2]int{3, 0}), block(2)}, 100, []int{4, 2}, []int{3, 10}, 1, ""},
		{"exactly", []results.Block{block(4)}, 8, []int{4}, []int{3}, 0, ""},
		{"last block cut", []results.Block{block(4), block(5, [2]int{1, 0}, [2]int{4, 0})}, 14, []int{4, 3}, []int{3, 10}, 1, "Only 7 of this view's 9 rows"},
		{"no room for a block", []results.Block{block(4), block(5)}, 11, []int{4}, []int{3}, 0, "Only 4 of this view's 9 rows"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fitted, starts, note := fitBlocks(tt.blocks, tt.last)
			var rows []int
			marked := 0
			for _, b := range fitted {
				rows = append(rows, len(b.Rows))
				marked += len(b.Marked)
			}
			if !slices.Equal(rows, tt.wantRows) || !slices.Equal(starts, tt.wantStarts) {
				t.Errorf("blocks of %v rows from rows %v, want %v from %v", rows, starts, tt.wantRows, tt.wantStarts)
			}
			if n := len(fitted); n > 0 {
				if end := starts[n-1] + 1 + rows[n-1]; end > tt.last {
					t.Errorf("the last block ends on row %d, after the sheet's last row %d", end, tt.last)
				}
			}
			if marked != tt.wantMarked {
				t.Errorf("%d marked cells kept, want %d", marked, tt.wantMarked)
			}
			if (tt.wantNote == "") != (note == "") || !strings.HasPrefix(note, tt.wantNote) {
				t.Errorf("note %q, want one starting %q", note, tt.wantNote)
			}
		})
	}
}

func TestDescribe(t *testing.T) {
	long := "[" + strings.Repeat("0.5, ", 10_000) + "1]"
	s := results.Set{Description: "A sweep", Config: []results.Setting{
		{Key: "name", Value: "x"}, {Key: "description", Value: `"A sweep"`},
		{Key: "intervals", Value: "[none, 6]"}, {Key: "probabilities", Value: long},
	}}
	got := describe(s)
	if !strings.HasPrefix(got, "A sweep. Settings: intervals none, 6; probabilities 0.5, 0.5,") {
		t.Errorf("describe = %.100q…, want the description, then plain settings", got)
	}
	if n := len([]rune(got)); n > 300 || !strings.HasSuffix(got, "….") {
		t.Errorf("describe gives %d characters ending %q: want a long setting cut short", n, got[len(got)-10:])
	}
	if h := rowHeight(1000); h != maxRowPoints {
		t.Errorf("a row of 1000 lines is %g points, want the most a row can be, %d", h, maxRowPoints)
	}
}

func TestPager(t *testing.T) {
	tests := []struct {
		name   string
		rows   int
		blocks []int
		breaks []bool
	}{
		{"all on one page", 40, []int{10, 10, 20}, []bool{false, false, false}},
		{"the third moves", 40, []int{10, 20, 11}, []bool{false, false, true}},
		{"the first never breaks", 40, []int{50}, []bool{false}},
		{"after a block longer than a page", 40, []int{50, 5, 5}, []bool{false, true, false}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := pager{rows: tt.rows}
			var got []bool
			for _, n := range tt.blocks {
				got = append(got, p.place(n))
			}
			if !slices.Equal(got, tt.breaks) {
				t.Errorf("breaks %v, want %v", got, tt.breaks)
			}
		})
	}
}

func TestLayOut(t *testing.T) {
	tests := []struct {
		name      string
		width     float64
		landscape bool
		pagesWide int
	}{
		{"narrow: upright", 400, false, 1},
		{"upright at 55%", 900, false, 1},
		{"wide: landscape", 1200, true, 1},
		{"landscape at 40%", 1900, true, 1},
		{"very wide: three pages across", 5000, true, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := layOut(tt.width, 50, 1)
			if l.landscape != tt.landscape || l.pagesWide != tt.pagesWide {
				t.Errorf("layOut(%g) = %+v, want landscape %v over %d pages across", tt.width, l, tt.landscape, tt.pagesWide)
			}
			if l.rows < 30 {
				t.Errorf("a page holds %d rows, want a page's worth", l.rows)
			}
		})
	}
}

// TestContinuedPages lays blocks of many sizes out on pages of many
// sizes and checks each page's part: every row placed once, no page
// overfilled, no block started at a page's foot with fewer than
// minPieceRows of its rows, and no block taking more rows than the fitter
// counts for it at the fewest rows a page holds.
func TestContinuedPages(t *testing.T) {
	fitter := newBlockFitter(1<<20, minPageRows)
	for rows := minPageRows; rows <= 60; rows++ {
		p := continuedPages{rows: rows, used: 1, on: true}
		for n := range 200 {
			start := p.used
			brk, pieces := p.place(n)
			if brk {
				start = 0
			}
			sum, used := 0, start
			for i, k := range pieces {
				if i > 0 {
					used = 0
				}
				if used+2+k > rows {
					t.Fatalf("page of %d rows: block of %d, part %d of %d rows from row %d overfills the page", rows, n, i, k, used)
				}
				if i == 0 && start > 1 && k < min(n, minPieceRows) {
					t.Fatalf("page of %d rows: block of %d starts at the page's row %d with %d rows", rows, n, start, k)
				}
				used += 2 + k
				sum += k
			}
			if sum != n {
				t.Fatalf("page of %d rows: block of %d placed as %v", rows, n, pieces)
			}
			if got, most := n+2*len(pieces), fitter.taken(n); got > most {
				t.Fatalf("page of %d rows: block of %d takes %d rows, the fitter counts %d", rows, n, got, most)
			}
		}
	}
	for rows := range 100 {
		f := newBlockFitter(0, minPageRows)
		if n := f.room(rows); n > 0 && f.taken(n) > rows || f.taken(n+1) <= rows {
			t.Errorf("room(%d) = %d: taken %d, taken of one more %d", rows, n, f.taken(n), f.taken(n+1))
		}
	}
}

// TestShownAtMost holds the columns' measure to what it skips: a value
// shownAtMost finds within n characters is shown in at most n, over
// numbers of every magnitude, sign and rounding edge and every quantity.
func TestShownAtMost(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	floats := []float64{0, math.Copysign(0, -1), 0.04, -0.04, 0.05, 0.96, 8.95, 8.96, 9, 9.95, 9.96, 99.95, 999.949, 999.95,
		9999999.95, -9999999.96, 1e14 - 0.05, 1e15 - 1, 1e15, 1e300, math.NaN(), math.Inf(1), math.Inf(-1), math.SmallestNonzeroFloat64}
	for range 3000 {
		floats = append(floats, math.Pow(10, rng.Float64()*17-2)*float64(1-2*rng.IntN(2)))
	}
	ints := []int64{0, -1, 9, 10, 99, 999, 1000, -1000, 999999, 1000000, math.MaxInt64, math.MinInt64, math.MinInt64 + 1}
	for range 3000 {
		ints = append(ints, rng.Int64N(1<<rng.IntN(63)+1)*int64(1-2*rng.IntN(2)))
	}
	var values []results.Value
	for _, f := range floats {
		values = append(values, results.FloatValue(f))
	}
	for _, n := range ints {
		values = append(values, results.IntValue(n))
	}
	values = append(values, results.TextValue("12"), results.BoolValue(true))
	columns := []results.Column{{Kind: results.Int}, {Kind: results.Float, Decimals: 1}, {Kind: results.Float, Decimals: -1}, {Kind: results.Text}}
	for q := results.General; q <= results.Estimate; q++ {
		columns = append(columns, results.Column{Kind: results.Float, Quantity: q}, results.Column{Kind: results.Int, Quantity: q})
	}
	known := 0
	for _, c := range columns {
		for _, v := range values {
			n := utf8.RuneCount(appendShown(nil, v, c))
			if shownAtMost(v, c, n-1) {
				t.Errorf("%v in %+v: shown in %d characters, found within %d", v, c, n, n-1)
			}
			if shownAtMost(v, c, n+1) {
				known++
			}
		}
	}
	if known == 0 {
		t.Error("shownAtMost knows no value's width")
	}
}

// TestScreenLayoutMakesItsOwnStyles holds a sheet laid out for the screen
// from its blocks (their marks out of their rows' order, which the counts
// do not tell) to the styles of the layout it keeps, made in the order it
// asks for them: the first block marks a number cell far down, then a
// text cell near its top. Continued over pages, the piece holding the
// text cell asks first; laid out for the screen, the block whole asks for
// the number cell's style first, and that one is made first.
func TestScreenLayoutMakesItsOwnStyles(t *testing.T) {
	cols := []results.Column{{Name: "interval", Kind: results.Text}, {Name: "expected total", Kind: results.Float, Decimals: 1}}
	v := results.View{Name: "marks", Title: "Marked out of order", Each: func(yield func(results.Block) bool) {
		for i := range 400 {
			blk := results.Block{Title: fmt.Sprintf("state rows %d", i*25), Columns: cols}
			if i == 0 {
				blk.Marked = [][2]int{{150, 1}, {5, 0}}
			}
			for r := range 200 {
				blk.Rows = append(blk.Rows, []results.Value{results.TextValue(strconv.Itoa(r + 1)), results.FloatValue(float64(i) + 1/float64(r+1))})
			}
			if !yield(blk) {
				return
			}
		}
	}}
	xml, _ := viewSheetXML(t, v)
	if !strings.Contains(xml, "laid out to be read on screen") {
		t.Fatal("the sheet is not laid out for the screen")
	}
	// The first block's rows begin on row 5: below the sheet's title, the
	// note, the block's title and its header.
	style := func(cell string) int {
		t.Helper()
		m := regexp.MustCompile(`<c r="` + cell + `" s="(\d+)"`).FindStringSubmatch(xml)
		if m == nil {
			t.Fatalf("no styled cell %s in the sheet", cell)
		}
		n, _ := strconv.Atoi(m[1])
		return n
	}
	number, text := style("B155"), style("A10")
	if number >= text {
		t.Errorf("the number cell marked first has style %d, the text cell marked after it %d: the styles were made in the order of the layout set aside", number, text)
	}
}

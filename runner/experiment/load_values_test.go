package experiment

import (
	"runtime"
	"strings"
	"testing"
)

// TestTooManyValues checks that a file of more values than maxValues is
// refused before it is parsed, at the mark that passes the limit, however
// its values are written, and that files just within the limit are read.
func TestTooManyValues(t *testing.T) {
	block := func(items int) string { return "name: x\nseeds:\n" + strings.Repeat("- 1\n", items) }
	flow := func(items int) string { return "name: x\nseeds: [" + strings.Repeat("1,", items-1) + "1]\n" }
	// name: x, seeds: and the line ends count 4 marks before the items; a
	// block item has a dash and a line end, a flow item a comma.
	tests := []struct {
		name      string
		src       string
		line, col int // of the error; 0 for none about the count
	}{
		{"a block list within the limit", block((maxValues - 4) / 2), 0, 0},
		{"a block list one mark over", block((maxValues-4)/2 + 1), 3 + (maxValues-4)/2, 1},
		{"a flow list within the limit", flow(maxValues - 4), 0, 0},
		{"a flow list over", flow(maxValues), 2, len("seeds: [") + 2*(maxValues-3)}, // the comma of mark maxValues+1
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := LoadBytes("x.yaml", []byte(tt.src), Overrides{})
			count := err != nil && strings.Contains(err.Error(), "too many values")
			switch {
			case tt.line == 0 && count:
				t.Fatalf("refused a file within the limit: %v", err)
			case tt.line == 0:
				return // other errors (seeds listed twice) are not this test's
			case !count:
				t.Fatalf("got %v, want too many values", err)
			}
			list := err.(ErrorList)
			if len(list) != 1 || list[0].Line != tt.line || list[0].Col != tt.col {
				t.Errorf("got %v, want one error at %d:%d", err, tt.line, tt.col)
			}
		})
	}
}

// TestTooManyValuesCostsNothing checks that refusing the largest file of
// values, 4 MiB of one-character list items, allocates almost nothing:
// the file is refused before the parser builds its nodes (a gigabyte).
func TestTooManyValuesCostsNothing(t *testing.T) {
	src := []byte("name: x\nseeds: [" + strings.Repeat("1,", MaxFileBytes/2-16) + "1]\n")
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := LoadBytes("x.yaml", src, Overrides{})
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "too many values") {
		t.Fatalf("got %v, want too many values", err)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 1<<20 {
		t.Errorf("refusing the file allocated %d bytes, want under 1 MiB", got)
	}
}

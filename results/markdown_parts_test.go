package results

import (
	"slices"
	"testing"
)

func TestColumnParts(t *testing.T) {
	named := func(keys int, names ...string) Block {
		b := Block{Keys: keys}
		for _, n := range names {
			b.Columns = append(b.Columns, Column{Name: n, Kind: Text})
		}
		return b
	}
	decisions := named(1, "probability", "best interval", "best expected total", "worst case interval", "worst case total",
		"tail interval", "tail total", "optimal interval", "optimal expected total", "young interval", "daly interval",
		"schedule checkpoints", "schedule points", "schedule expected total")
	tests := []struct {
		name string
		blk  Block
		want [][]int
	}{
		{"fits", named(0, "p", "none", "6", "4", "3", "2", "1", "best"), [][]int{nil}},
		{"even halves, the key in each", named(0, "failure", "none", "12", "11", "10", "9", "8", "7", "6", "5", "4", "3", "2", "1"),
			[][]int{{0, 1, 2, 3, 4, 5, 6, 7}, {0, 8, 9, 10, 11, 12, 13}}},
		{"a criterion's columns kept together", decisions,
			[][]int{{0, 1, 2, 3, 4, 5, 6}, {0, 7, 8, 9, 10, 11, 12, 13}}},
		{"three keys", named(3, "key", "workers", "interval", "a", "b", "c", "d", "e", "f"),
			[][]int{{0, 1, 2, 3, 4, 5}, {0, 1, 2, 6, 7, 8}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := columnParts(tt.blk)
			if !slices.EqualFunc(got, tt.want, slices.Equal[[]int]) {
				t.Errorf("columnParts = %v, want %v", got, tt.want)
			}
			for _, p := range got {
				if len(p) > maxMarkdownColumns {
					t.Errorf("a part of %d columns, want at most %d", len(p), maxMarkdownColumns)
				}
			}
		})
	}
}

package results

import "testing"

// TestDropConstantKeys: a key with one value in every row moves to the
// title, named with its value; an empty one goes without a word.
func TestDropConstantKeys(t *testing.T) {
	blk := Block{
		Columns: []Column{{Name: "seed", Kind: Int}, {Name: "shape", Kind: Text}, {Name: "mtbf", Kind: Int}, {Name: "best", Kind: Text}},
		Rows: [][]Value{
			{IntValue(7), TextValue(""), IntValue(900), TextValue("1")},
			{IntValue(7), TextValue(""), IntValue(3600), TextValue("1")},
		},
	}
	got := DropConstantKeys(blk, 3)
	if got.Title != " (seed 7)" {
		t.Errorf("title %q, want \" (seed 7)\"", got.Title)
	}
	if len(got.Columns) != 2 || got.Columns[0].Name != "mtbf" || got.Columns[1].Name != "best" || got.Keys != 1 {
		t.Errorf("columns %v (keys %d), want mtbf and best, one key", got.Columns, got.Keys)
	}
	if got.Rows[1][0] != IntValue(3600) {
		t.Errorf("row 2 starts with %v, want 3600", got.Rows[1][0])
	}
}

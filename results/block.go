package results

import (
	"slices"
	"strings"

	"ckptlab/internal/satmath"
)

// CollectBytes bounds what Collect holds of a table of the given size.
func CollectBytes(t TableSize, n int) int64 {
	return satmath.Mul(min(t.Rows, int64(n)), int64(t.Columns+1), CellBytes)
}

// Collect reads up to n rows of a table into a block, for a reader, and
// returns how many rows it left out. The block's columns are named as
// words (from_probability as "from probability"), so that a header wraps
// between its words and reads apart from the next; the table's own sheet
// and CSV keep the names.
func Collect(t Table, n int) (Block, int) {
	blk := Block{Columns: make([]Column, len(t.Columns))}
	for i, c := range t.Columns {
		c.Name = strings.ReplaceAll(c.Name, "_", " ")
		blk.Columns[i] = c
	}
	more := 0
	for row := range t.Rows {
		if len(blk.Rows) == n {
			more++
			continue
		}
		blk.Rows = append(blk.Rows, slices.Clone(row))
	}
	return blk, more
}

// DropConstantKeys removes, of the first keys columns, those with the
// same value in every row, and names those not empty and their values in
// the block's title, after a comma; the block's Keys counts the key
// columns kept.
func DropConstantKeys(blk Block, keys int) Block {
	var keep []int
	var named []string
	for j, c := range blk.Columns {
		same := len(blk.Rows) > 0
		for _, r := range blk.Rows {
			same = same && r[j] == blk.Rows[0][j]
		}
		if j < keys && same {
			if v := appendStyled(nil, blk.Rows[0][j], c); len(v) > 0 { // an empty key says nothing
				named = append(named, c.Name+" "+string(v))
			}
			continue
		}
		keep = append(keep, j)
	}
	out := Block{}
	for _, j := range keep {
		if j < keys {
			out.Keys++
		}
	}
	if len(named) > 0 {
		out.Title = " (" + strings.Join(named, ", ") + ")"
	}
	for _, j := range keep {
		out.Columns = append(out.Columns, blk.Columns[j])
	}
	for _, r := range blk.Rows {
		row := make([]Value, len(keep))
		for i, j := range keep {
			row[i] = r[j]
		}
		out.Rows = append(out.Rows, row)
	}
	return out
}

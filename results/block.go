package results

import (
	"context"
	"io"
	"slices"
	"strconv"
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

// PlainValue returns a value of the resolved configuration, in YAML flow
// syntax, as a reader writes it: a quoted string without its quotes, a
// list without its brackets.
func PlainValue(v string) string {
	if strings.HasPrefix(v, `"`) {
		if u, err := strconv.Unquote(v); err == nil {
			return u
		}
	}
	if strings.HasPrefix(v, "[") && strings.HasSuffix(v, "]") {
		return v[1 : len(v)-1]
	}
	return v
}

// IsDecimal reports whether s is digits with at most one point, and
// perhaps a leading minus: no exponent, no Inf or NaN.
func IsDecimal(s string) bool {
	s = strings.TrimPrefix(s, "-")
	points := 0
	for _, r := range s {
		switch {
		case r == '.':
			points++
		case r < '0' || r > '9':
			return false
		}
	}
	return s != "" && s != "." && points <= 1
}

// ContextWriter returns a writer to w that fails once ctx is done, so that
// long copies stop soon after a cancellation.
func ContextWriter(ctx context.Context, w io.Writer) io.Writer { return ctxWriter{ctx, w} }

type ctxWriter struct {
	ctx context.Context
	w   io.Writer
}

func (c ctxWriter) Write(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.w.Write(p)
}

// CheckEvery is how many rows a writer writes between two looks at its
// context.
const CheckEvery = 4096

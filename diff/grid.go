package diff

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
)

// compareGrid streams grid.csv of both sides at once, in order, and
// summarizes each metric column over the points in both. Points in the
// same order in both sides are compared as they come; a point that has no
// partner yet waits in a map until its partner comes or the tables end, so
// the memory held is the column summaries and the points out of step
// (none when both grids have the same points in the same order), never
// the whole grid.
func compareGrid(old, new *Side, key []string) (Grid, error) {
	out := Grid{Columns: []Column{}}
	or, oc, err := openGrid(old)
	if err != nil {
		return out, err
	}
	defer oc.Close()
	nr, nc, err := openGrid(new)
	if err != nil {
		return out, err
	}
	defer nc.Close()
	oh, err := or.Read()
	if err != nil {
		return out, fmt.Errorf("%s: grid.csv has no header: %v", old.Label, err)
	}
	oh = slices.Clone(oh)
	nh, err := nr.Read()
	if err != nil {
		return out, fmt.Errorf("%s: grid.csv has no header: %v", new.Label, err)
	}
	nh = slices.Clone(nh)
	ok, err := columns(oh, key, old.Label, gridTable)
	if err != nil {
		return out, err
	}
	nk, err := columns(nh, key, new.Label, gridTable)
	if err != nil {
		return out, err
	}
	// Every key column, moved ones included, is no metric.
	oAll, err := columns(oh, gridKey, old.Label, gridTable)
	if err != nil {
		return out, err
	}
	nAll, err := columns(nh, gridKey, new.Label, gridTable)
	if err != nil {
		return out, err
	}
	// The metric columns of both sides, in the new side's order.
	oldAt, newAt := indexOf(oh), indexOf(nh)
	oKey, nKey := setOf(oAll), setOf(nAll)
	var newIdx, oldIdx []int
	for j, name := range nh {
		if nKey[j] {
			continue
		}
		if i, ok := oldAt[name]; ok {
			newIdx, oldIdx = append(newIdx, j), append(oldIdx, i)
			out.Columns = append(out.Columns, Column{Name: name})
		} else {
			out.OnlyNewColumns = append(out.OnlyNewColumns, name)
		}
	}
	for i, name := range oh {
		if _, ok := newAt[name]; !ok && !oKey[i] {
			out.OnlyOldColumns = append(out.OnlyOldColumns, name)
		}
	}
	cmp := func(orow, nrow []string) {
		out.Points++
		var k Key // the point's key, made once if a change needs it
		at := func() Key {
			if k == nil {
				k, _ = keyOf(nh, nk, nrow)
			}
			return k
		}
		for c := range out.Columns {
			o, n := orow[oldIdx[c]], nrow[newIdx[c]]
			if o == n {
				continue // the same text is the same value
			}
			out.Columns[c].add(o, n, at)
		}
	}
	pendingOld, pendingNew := map[string][]string{}, map[string][]string{}
	for {
		out.held = max(out.held, len(pendingOld)+len(pendingNew))
		orow, oerr := readRow(or, old.Label)
		nrow, nerr := readRow(nr, new.Label)
		if oerr != nil {
			return out, oerr
		}
		if nerr != nil {
			return out, nerr
		}
		if orow == nil && nrow == nil {
			break
		}
		if orow != nil && nrow != nil {
			if keyText(orow, ok) == keyText(nrow, nk) {
				cmp(orow, nrow)
				continue
			}
		}
		if orow != nil {
			k := keyText(orow, ok)
			if partner, found := pendingNew[k]; found {
				delete(pendingNew, k)
				cmp(orow, partner)
			} else {
				pendingOld[k] = slices.Clone(orow)
			}
		}
		if nrow != nil {
			k := keyText(nrow, nk)
			if partner, found := pendingOld[k]; found {
				delete(pendingOld, k)
				cmp(partner, nrow)
			} else {
				pendingNew[k] = slices.Clone(nrow)
			}
		}
	}
	out.OnlyOld, out.OnlyNew = int64(len(pendingOld)), int64(len(pendingNew))
	return out, nil
}

// indexOf maps each name of a header to its first column.
func indexOf(header []string) map[string]int {
	m := make(map[string]int, len(header))
	for j, name := range header {
		if _, seen := m[name]; !seen {
			m[name] = j
		}
	}
	return m
}

// setOf returns the columns idx as a set.
func setOf(idx []int) map[int]bool {
	m := make(map[int]bool, len(idx))
	for _, j := range idx {
		m[j] = true
	}
	return m
}

// openGrid opens grid.csv of a side for reading row by row.
func openGrid(s *Side) (*csv.Reader, io.Closer, error) {
	rc, err := s.open(gridTable)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: cannot read grid.csv: %v (want a folder a run wrote with --format csv)", s.Label, unwrap(err))
	}
	r := csv.NewReader(rc)
	r.ReuseRecord = true
	return r, rc, nil
}

// readRow reads the next row, nil at the end.
func readRow(r *csv.Reader, label string) ([]string, error) {
	row, err := r.Read()
	if errors.Is(err, io.EOF) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%s: grid.csv: %v", label, err)
	}
	return row, nil
}

// add counts a change of the column from o to n at the point at names.
func (c *Column) add(o, n string, at func() Key) {
	c.Changed++
	ov, oerr := strconv.ParseFloat(o, 64)
	nv, nerr := strconv.ParseFloat(n, 64)
	delta := nv - ov
	if oerr != nil || nerr != nil || math.IsNaN(delta) { // not numbers, or no difference of numbers
		if c.First == nil {
			c.First = &Change{column: c.Name, At: at(), Old: o, New: n}
		}
		return
	}
	if c.Largest == nil || math.Abs(delta) > math.Abs(c.Largest.Delta) {
		c.Largest = &Change{column: c.Name, At: at(), Old: o, New: n, Delta: delta, Relative: relative(delta, ov)}
	}
	if rel := relative(delta, ov); ov != 0 && !math.IsNaN(rel) {
		if c.LargestRelative == nil || math.Abs(rel) > math.Abs(c.LargestRelative.Relative) {
			c.LargestRelative = &Change{column: c.Name, At: at(), Old: o, New: n, Delta: delta, Relative: rel}
		}
	}
}

// relative is delta / |old|, 0 for an old value of 0.
func relative(delta, old float64) float64 {
	if old == 0 {
		return 0
	}
	return delta / math.Abs(old)
}

package diff

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"ckptlab/runner/experiment"
)

// The key columns of each table: what names a row. They are the columns of
// the axes of the table's levels, from the axis table; every other column
// is compared as it comes, so a table that gains a column needs no change
// here.
var (
	gridKey = experiment.Columns(experiment.SourceLevel, experiment.PartLevel, experiment.StateLevel,
		experiment.DecisionLevel, experiment.IntervalLevel)
	decisionKey  = experiment.Columns(experiment.SourceLevel, experiment.StateLevel, experiment.DecisionLevel)
	envelopeKey  = experiment.Columns(experiment.SourceLevel, experiment.StateLevel)
	pieceColumns = []string{"interval", "from_fraction", "to_fraction"}
)

// without returns the names of key that are not in drop.
func without(key []string, drop map[string]bool) []string {
	var out []string
	for _, k := range key {
		if !drop[k] {
			out = append(out, k)
		}
	}
	return out
}

// movedColumns returns the key columns that hold one value in each side,
// a different one: the point moved (state_rows 200 → 400), and its rows
// pair up across the move rather than count as removed and added. The
// columns of decisions.csv tell it for the source and state axes and the
// probability; the settings for partition_key and workers, which it has
// not.
func movedColumns(ot, nt *table, old, new *Side) map[string]bool {
	out := map[string]bool{}
	for _, name := range decisionKey {
		ov, ook := single(ot, name)
		nv, nok := single(nt, name)
		if ook && nok && ov != nv {
			out[name] = true
		}
	}
	for _, a := range experiment.AxisTable() {
		if a.Level != experiment.PartLevel {
			continue
		}
		ov, ook := flowList(settingValue(old.Settings, a.Key))
		nv, nok := flowList(settingValue(new.Settings, a.Key))
		if ook && nok && len(ov) == 1 && len(nv) == 1 && ov[0] != nv[0] {
			out[a.Column] = true
		}
	}
	return out
}

// single returns the one value a column of t holds, if it holds one.
func single(t *table, name string) (string, bool) {
	j := slices.Index(t.header, name)
	if j < 0 || len(t.rows) == 0 {
		return "", false
	}
	v := t.rows[0][j]
	for _, row := range t.rows[1:] {
		if row[j] != v {
			return "", false
		}
	}
	return v, true
}

// table is a small table read whole: decisions.csv or breakeven.csv.
type table struct {
	header []string
	rows   [][]string
}

// readTable reads a whole CSV table of the side.
func readTable(s *Side, name string) (*table, error) {
	rc, err := s.open(name)
	if err != nil {
		return nil, fmt.Errorf("%s: cannot read %s.csv: %v (want a folder a run wrote with --format csv)", s.Label, name, unwrap(err))
	}
	defer rc.Close()
	r := csv.NewReader(rc)
	header, err := r.Read()
	if err != nil {
		return nil, fmt.Errorf("%s: %s.csv has no header: %v", s.Label, name, err)
	}
	t := &table{header: header}
	for {
		row, err := r.Read()
		if errors.Is(err, io.EOF) {
			return t, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %s.csv: %v", s.Label, name, err)
		}
		t.rows = append(t.rows, row)
	}
}

// columns returns the indexes of the named columns in header, or an error
// naming the first one missing.
func columns(header, names []string, label, table string) ([]int, error) {
	out := make([]int, len(names))
	for i, n := range names {
		out[i] = slices.Index(header, n)
		if out[i] < 0 {
			return nil, fmt.Errorf("%s: %s.csv has no column %s (want a table ckptlab wrote)", label, table, n)
		}
	}
	return out, nil
}

// keyOf returns the key of a row, and its text for a map.
func keyOf(header []string, idx []int, row []string) (Key, string) {
	k := make(Key, len(idx))
	parts := make([]string, len(idx))
	for i, j := range idx {
		k[i] = Cell{Column: header[j], Value: row[j]}
		parts[i] = row[j]
	}
	return k, strings.Join(parts, "\x00")
}

// keyText joins the cells of a row's key at idx, for a map.
func keyText(row []string, idx []int) string {
	var b strings.Builder
	for i, j := range idx {
		if i > 0 {
			b.WriteByte(0)
		}
		b.WriteString(row[j])
	}
	return b.String()
}

// compareDecisions compares decisions.csv of the two sides, ot and nt,
// matching rows by the columns of key.
func compareDecisions(old, new *Side, ot, nt *table, key []string) (Decisions, error) {
	out := Decisions{Changed: []DecisionChange{}, OnlyOld: []Key{}, OnlyNew: []Key{}}
	oi, err := columns(ot.header, key, old.Label, decisionsTable)
	if err != nil {
		return out, err
	}
	ni, err := columns(nt.header, key, new.Label, decisionsTable)
	if err != nil {
		return out, err
	}
	all, err := columns(nt.header, decisionKey, new.Label, decisionsTable)
	if err != nil {
		return out, err
	}
	isTotal := func(name string) bool { return strings.HasSuffix(name, "_total") }
	return pairRows(ot, nt, oi, ni, criteria(nt.header, all), isTotal), nil
}

// pairRows pairs the rows of ot and nt by their keys at oi and ni. For each
// pair it lists every criterion of groups whose choice changed, a change
// of a figure alone (figure names it) not counting, and it lists the rows
// of one side only.
func pairRows(ot, nt *table, oi, ni []int, groups []criterion, figure func(string) bool) Decisions {
	out := Decisions{Changed: []DecisionChange{}, OnlyOld: []Key{}, OnlyNew: []Key{}}
	olds := map[string][]string{}
	for _, row := range ot.rows {
		olds[keyText(row, oi)] = row
	}
	oldAt := indexOf(ot.header)
	seen := map[string]bool{}
	for _, row := range nt.rows {
		key, text := keyOf(nt.header, ni, row)
		seen[text] = true
		orow, ok := olds[text]
		if !ok {
			out.OnlyNew = append(out.OnlyNew, key)
			continue
		}
		for _, g := range groups {
			changed := false
			var oc, nc []Cell
			for _, j := range g.columns {
				name := nt.header[j]
				ov := cellByName(oldAt, orow, name)
				oc = append(oc, Cell{name, ov})
				nc = append(nc, Cell{name, row[j]})
				if !figure(name) && ov != row[j] {
					changed = true
				}
			}
			if changed {
				out.Changed = append(out.Changed, DecisionChange{Key: key, Criterion: g.prefix, Old: oc, New: nc})
			}
		}
	}
	for _, row := range ot.rows {
		if key, text := keyOf(ot.header, oi, row); !seen[text] {
			out.OnlyOld = append(out.OnlyOld, key)
		}
	}
	return out
}

// cellByName returns the row's value of the named column, "" when the
// table has none.
func cellByName(at map[string]int, row []string, name string) string {
	if j, ok := at[name]; ok && j < len(row) {
		return row[j]
	}
	return ""
}

// criterion is a group of columns of decisions.csv that answer one
// criterion: best_interval and best_expected_total; schedule_checkpoints,
// schedule_points and schedule_expected_total.
type criterion struct {
	prefix  string
	columns []int
}

// criteria groups the non-key columns of header by criterion: each column
// named P_interval starts a criterion P, to which the columns named P_…
// belong; any other column belongs to the criterion of its first word. A
// criterion's choice is its columns but those named …_total, its cost.
func criteria(header []string, key []int) []criterion {
	var p prefixSet
	for _, name := range header {
		if prefix, ok := strings.CutSuffix(name, "_interval"); ok {
			p.add(prefix)
		}
	}
	isKey := setOf(key)
	var out []criterion
	at := map[string]int{}
	for j, name := range header {
		if isKey[j] {
			continue
		}
		prefix := p.longest(name)
		if prefix == "" {
			prefix, _, _ = strings.Cut(name, "_")
		}
		i, ok := at[prefix]
		if !ok {
			i = len(out)
			at[prefix] = i
			out = append(out, criterion{prefix: prefix})
		}
		out[i].columns = append(out[i].columns, j)
	}
	return out
}

// prefixSet is the prefixes of the criteria of a header, and their
// lengths in increasing order: a name is looked up only at the lengths
// some prefix has.
type prefixSet struct {
	names   map[string]bool
	lengths []int
}

func (p *prefixSet) add(prefix string) {
	if prefix == "" || p.names[prefix] {
		return
	}
	if p.names == nil {
		p.names = map[string]bool{}
	}
	p.names[prefix] = true
	if i, found := slices.BinarySearch(p.lengths, len(prefix)); !found {
		p.lengths = slices.Insert(p.lengths, i, len(prefix))
	}
}

// longest returns the longest prefix P of the set that name starts with
// as P_, or "".
func (p *prefixSet) longest(name string) string {
	i, _ := slices.BinarySearch(p.lengths, len(name))
	for i--; i >= 0; i-- {
		n := p.lengths[i]
		if name[n] == '_' && p.names[name[:n]] {
			return name[:n]
		}
	}
	return ""
}

// compareEnvelopes compares breakeven.csv of the two sides, matching
// envelopes by the columns of key.
func compareEnvelopes(old, new *Side, key []string) (Envelopes, error) {
	out := Envelopes{Changed: []EnvelopeChange{}, OnlyOld: []Key{}, OnlyNew: []Key{}}
	oe, err := envelopes(old, key)
	if err != nil {
		return out, err
	}
	ne, err := envelopes(new, key)
	if err != nil {
		return out, err
	}
	olds := map[string]envelope{}
	for _, e := range oe {
		olds[e.text] = e
	}
	seen := map[string]bool{}
	for _, e := range ne {
		seen[e.text] = true
		o, ok := olds[e.text]
		switch {
		case !ok:
			out.OnlyNew = append(out.OnlyNew, e.key)
		case !slices.Equal(o.pieces, e.pieces):
			out.Changed = append(out.Changed, EnvelopeChange{Key: e.key, Old: o.pieces, New: e.pieces})
		}
	}
	for _, e := range oe {
		if !seen[e.text] {
			out.OnlyOld = append(out.OnlyOld, e.key)
		}
	}
	return out, nil
}

// envelope is the pieces of one key of breakeven.csv.
type envelope struct {
	key    Key
	text   string
	pieces []Piece
}

// envelopes reads breakeven.csv of a side into its envelopes, in order.
func envelopes(s *Side, key []string) ([]envelope, error) {
	t, err := readTable(s, breakevenTable)
	if err != nil {
		return nil, err
	}
	ki, err := columns(t.header, key, s.Label, breakevenTable)
	if err != nil {
		return nil, err
	}
	pi, err := columns(t.header, pieceColumns, s.Label, breakevenTable)
	if err != nil {
		return nil, err
	}
	var out []envelope
	for _, row := range t.rows {
		key, text := keyOf(t.header, ki, row)
		if len(out) == 0 || out[len(out)-1].text != text {
			out = append(out, envelope{key: key, text: text})
		}
		e := &out[len(out)-1]
		e.pieces = append(e.pieces, Piece{Interval: row[pi[0]], From: row[pi[1]], To: row[pi[2]]})
	}
	return out, nil
}

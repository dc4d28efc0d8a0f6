package experiment

import (
	"cmp"
	"slices"
	"strconv"

	"gopkg.in/yaml.v3"

	"ckptlab/internal/words"
	"ckptlab/model"
)

// Safety caps of cases and exclude (docs/experiments.md#cases-and-exclusions): the checks of cases against each other
// are quadratic in their number, and exclusions are counted as bits of a
// 64-bit mask.
const (
	maxCases   = 1000
	maxExclude = 64
)

// axisKeys are the keys a case may set and an exclude entry may name: the
// axes of the grid, in the order of grid.csv's columns.
var axisKeys = func() []string {
	out := make([]string, len(gridAxes))
	for i, a := range gridAxes {
		out[i] = a.Key
	}
	return out
}()

// columnNames are the columns of grid.csv that exclude takes for an axis
// key of another name: interval for intervals.
var columnNames = func() map[string]string {
	out := map[string]string{}
	for _, a := range gridAxes {
		if a.Column != a.Key {
			out[a.Column] = a.Key
		}
	}
	return out
}()

// excludeNames are the names an exclude entry takes, the column first.
var excludeNames = func() []string {
	var out []string
	for _, a := range gridAxes {
		if a.Column != a.Key {
			out = append(out, a.Column)
		}
		out = append(out, a.Key)
	}
	return out
}()

// mapItem is one mapping of a list of cases or exclude entries, as read:
// where it was written and the checked value of each key it names, by
// axis key. A value with errors is missing from values.
type mapItem struct {
	node   *yaml.Node
	index  int
	keys   []string // as written, in order
	nodes  map[string]*yaml.Node
	values map[string]*parsed
	// shadowed lists the overrides that replaced keys the case sets, such
	// as "--set subscribers": the case takes the override's value instead.
	shadowed []string
}

// suffix is the item's path below the list's key: "[1]".
func (it *mapItem) suffix() string { return "[" + strconv.Itoa(it.index) + "]" }

// fileFrame is what the cases are checked against: the frame of the
// file's values, the file's intervals, and whether a layer sets
// failure_period.
type fileFrame struct {
	frame
	intervals        []model.Interval // nil for intervals: all or an interval with errors
	failurePeriodSet bool
	// overrides names, for each axis key an override sets, that override
	// ("--set subscribers", "CKPTLAB_SUBSCRIBERS"): the command line wins
	// over every case, so a case's value of such a key is left out.
	overrides map[string]string
}

// readItems reads the list of mappings at n, the value of key d. It reports
// a value that is not a list, an empty list, a list longer than limit and
// an item that is not a mapping.
func (c *checker) readItems(d *keyDef, n *yaml.Node, limit int) []*mapItem {
	if n.Kind != yaml.SequenceNode {
		c.fail(n, "", "%s is not a list (want %s)", kindName(n), d.want())
		return nil
	}
	if len(n.Content) == 0 {
		c.fail(n, "", "empty list (want at least one %s, or no %s key)", d.Noun, d.Name)
		return nil
	}
	if len(n.Content) > limit {
		c.fail(n, "", "%d items (want at most %d %s, a safety cap)", len(n.Content), limit, words.Plural(limit, d.Noun, pluralNoun(d.Noun)))
		return nil
	}
	var items []*mapItem
	for i, m := range n.Content {
		it := &mapItem{node: m, index: i, nodes: map[string]*yaml.Node{}, values: map[string]*parsed{}}
		if m.Kind != yaml.MappingNode {
			c.fail(m, it.suffix(), "%s is not %s (want a mapping of axis keys, such as {workers: 8})",
				kindName(m), article(d.Noun))
			continue
		}
		items = append(items, it)
	}
	return items
}

// readKeys reads the keys of an item's mapping. name returns the axis key
// a written key stands for, or "" and the reason it is refused. Keys that
// are not scalars, refused keys and two keys for one axis are reported.
func (c *checker) readKeys(it *mapItem, name func(k string) (string, string)) {
	firsts := map[string]*yaml.Node{}
	for i := 0; i+1 < len(it.node.Content); i += 2 {
		k, v := it.node.Content[i], it.node.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			c.fail(k, it.suffix(), "%s is not a key (want an axis key)", kindName(k))
			continue
		}
		suffix := it.suffix() + "." + k.Value
		key, why := name(k.Value)
		if key == "" {
			c.fail(k, suffix, "%s", why)
			continue
		}
		if first := firsts[key]; first != nil {
			c.fail(k, suffix, "duplicate key (want %s once%s)", sameAxis(key), firstAt(c.p, first))
			continue
		}
		firsts[key] = k
		it.keys = append(it.keys, k.Value)
		it.nodes[key] = v
	}
}

// sameAxis names the keys an exclude entry takes for one axis.
func sameAxis(key string) string {
	for col, k := range columnNames {
		if k == key {
			return "one of " + col + " and " + key
		}
	}
	return "it"
}

// caseKey names the axis key k of a case, or says why a case cannot
// have it.
func caseKey(k string) (string, string) {
	switch d := keyNamed(k); {
	case d != nil && isAxis(k):
		return k, ""
	case d != nil:
		return "", k + " is not an axis: it is no column of the grid, so it cannot tell two points apart " +
			"(want it at the top level; a case sets only " + words.Or(axisKeys) + ")"
	case columnNames[k] != "":
		return "", "unknown key in a case (did you mean " + columnNames[k] + "?)"
	}
	return "", "unknown key in a case (" + suggestAmong(k, axisKeys) + ")"
}

// axisOf returns the axis key of a key of an exclude entry.
func axisOf(key string) string { return cmp.Or(columnNames[key], key) }

// isAxis reports whether key is an axis of the grid.
func isAxis(key string) bool { return slices.Contains(axisKeys, key) }

// suggestAmong says which of names an unknown one may have meant, or
// lists them.
func suggestAmong(name string, names []string) string {
	if near := nearest(name, names); near != nil {
		return "did you mean " + words.Or(near) + "?"
	}
	return "want " + words.Or(names)
}

// sub returns a checker for the value of key below item it.
func (c *checker) sub(it *mapItem, key string) *checker {
	p := c.p
	p.Name += it.suffix() + "." + key
	return &checker{p: p}
}

// readCases reads and checks the cases at n. Each case's values are
// checked against the case's own periods, or the file's where it sets
// none: its intervals, and the file's intervals and the default
// failure_period where it leaves them to the file.
func (c *checker) readCases(n *yaml.Node, ff fileFrame) []*mapItem {
	items := c.readItems(keyNamed("cases"), n, maxCases)
	for _, it := range items {
		c.readKeys(it, caseKey)
		c.shadow(it, ff.overrides)
		fr := ff.frame
		if pn := it.nodes["periods"]; pn != nil {
			sc := c.sub(it, "periods")
			if v, ok := sc.values(keyNamed("periods"), pn, frame{}); ok {
				it.values["periods"] = &v
				fr.minP = slices.Min(toInts[int](v.Ints))
				sc.casePeriods(it, &v, ff)
			}
			c.errs = append(c.errs, sc.errs...)
		}
		for _, key := range axisKeys {
			if vn := it.nodes[key]; vn != nil && key != "periods" {
				sc := c.sub(it, key)
				if v, ok := sc.values(keyNamed(key), vn, fr); ok {
					it.values[key] = &v
				}
				c.errs = append(c.errs, sc.errs...)
			}
		}
	}
	return items
}

// shadow leaves out of a case the keys an override sets, after checking
// their values on their own: the override's value is the one that takes
// effect, in every case, as it does for the file's value.
func (c *checker) shadow(it *mapItem, overrides map[string]string) {
	for _, key := range axisKeys {
		vn := it.nodes[key]
		by := overrides[key]
		if vn == nil || by == "" {
			continue
		}
		sc := c.sub(it, key)
		sc.values(keyNamed(key), vn, frame{})
		c.errs = append(c.errs, sc.errs...)
		delete(it.nodes, key)
		it.keys = slices.DeleteFunc(it.keys, func(k string) bool { return k == key })
		it.shadowed = append(it.shadowed, by)
	}
}

// caseOverrides returns the axis keys whose winning value is an override
// of a layer above that of the cases, each with the name of the override:
// those values replace the cases' own. Within one layer a case's value is
// the more specific and wins, as it does in the file.
func caseOverrides(win map[string]*setting) map[string]string {
	out := map[string]string{}
	cases := layerRank(win["cases"])
	for _, key := range axisKeys {
		s := win[key]
		if r := layerRank(s); r > cases {
			out[key] = s.Place.overrideName()
		}
	}
	return out
}

// layerRank orders the layers a setting may come from: 0 for the file (or
// no setting), 1 for the environment, 2 for --set.
func layerRank(s *setting) int {
	switch {
	case s == nil:
		return 0
	case s.Place.File == OriginEnv:
		return 1
	case s.Place.File == OriginSet:
		return 2
	}
	return 0
}

// casePeriods checks a case's periods v against what the case leaves to
// the file: the calendar of start, the file's intervals and the default
// failure_period. Errors are at the periods value that does not fit.
func (c *checker) casePeriods(it *mapItem, v *parsed, ff fileFrame) {
	minP, maxP := slices.Min(v.Ints), slices.Max(v.Ints)
	at := func(p int64) valueAt { return v.at(slices.Index(v.Ints, p)) }
	if ff.startOK && ff.start+model.Month(maxP-1) > lastMonth {
		a := at(maxP)
		c.fail(a.Node, a.Suffix, "%s and %d periods end after %s (want a start by %s)",
			ff.start, maxP, lastMonth, lastMonth-model.Month(maxP-1))
		return
	}
	if _, own := it.nodes["intervals"]; !own && len(ff.intervals) > 0 {
		if most := slices.Max(ff.intervals); int64(most) > minP {
			a := at(minP)
			c.fail(a.Node, a.Suffix, "%d leaves the file's intervals %s beyond 1..%d (want intervals set in the case, such as intervals: all)",
				minP, joinIntervals(ff.intervals), minP)
		}
	}
	if ff.startOK && !ff.failurePeriodSet {
		f := Lesson("").FailurePeriod
		if last := ff.start + model.Month(minP-1); f > last || f <= ff.start {
			a := at(minP)
			c.fail(a.Node, a.Suffix, "%d leaves the default failure_period %s outside %s..%s (want failure_period set within them)",
				minP, f, ff.start+1, last)
		}
	}
}

// stateRowsTwice is the message for a state_rows list whose word
// subscribers comes to a number it lists too.
const stateRowsTwice = "subscribers is %d for subscribers %d, which the list holds too " +
	"(want each state row count once for every subscribers value)"

// stateRowsTwice returns a subscribers value for which the word subscribers
// of state_rows comes to a number the list holds already: every point of
// that source would be in the grid twice.
func (g *Grid) stateRowsTwice() (n int, twice bool) {
	if !slices.Contains(g.StateRows, subscriberState) {
		return 0, false
	}
	listed := setOf(g.StateRows)
	for _, n := range g.Subscribers {
		if listed[n] {
			return n, true
		}
	}
	return 0, false
}

// caseGrid returns the grid of a case: the case's values over the file's.
func caseGrid(e *Experiment, it *mapItem, lines bool) Grid {
	g := e.fileGrid()
	g.Keys = slices.Clone(it.keys)
	if lines {
		g.Line = it.node.Line
	}
	if g.set(it.values) {
		g.IntervalsAll = true
	} else if _, ok := it.values["intervals"]; ok {
		g.IntervalsAll = false
	}
	return g
}

// partitionKeys converts checked words to partition keys.
func partitionKeys(words []string) []model.PartitionKey {
	out := make([]model.PartitionKey, len(words))
	for i, w := range words {
		out[i], _ = model.ParsePartitionKey(w)
	}
	return out
}

// readGrid reads every value of cases and exclude, of every layer, and
// returns the items of the values that take effect, and the frame the
// failure labels are checked in: that of the smallest periods value of any
// case. The cases are checked against fr and the file's intervals iv (ok
// false when they have errors, iv nil when they are the lesson's).
func (l *loader) readGrid(win map[string]*setting, fr frame, iv *parsed, ok bool, done []bool) (cases, exclude []*mapItem, labels frame) {
	ff := fileFrame{frame: fr, failurePeriodSet: win["failure_period"] != nil, overrides: caseOverrides(win)}
	switch {
	case ok && iv == nil:
		ff.intervals = Lesson("").Intervals
	case ok && !iv.All:
		ff.intervals = toInts[model.Interval](iv.Ints)
	}
	cases, exclude = l.readGridKeys(win, ff, done)
	labels = fr
	if cases != nil {
		labels.minP = casesMinP(cases, fr.minP)
	}
	return cases, exclude, labels
}

// readGridKeys reads every value of cases and exclude, of every layer, and
// returns the items of the values that take effect. The cases are checked
// against ff; a value an override replaces is checked on its own.
func (l *loader) readGridKeys(win map[string]*setting, ff fileFrame, done []bool) (cases, exclude []*mapItem) {
	for _, s := range l.settings {
		if s.Key != "cases" && s.Key != "exclude" {
			continue
		}
		done[s.ID] = true
		if s.Node == nil {
			continue
		}
		c := checker{p: s.Place}
		var items []*mapItem
		switch {
		case s.Key == "exclude":
			items = c.readExclude(s.Node)
		case win[s.Key] == s:
			items = c.readCases(s.Node, ff)
		default:
			items = c.readCases(s.Node, fileFrame{})
		}
		l.errs = append(l.errs, c.errs...)
		if win[s.Key] == s && s.Key == "cases" {
			cases = items
		} else if win[s.Key] == s {
			exclude = items
		}
	}
	return cases, exclude
}

// casesMinP is the smallest periods value of any case: a case's own, or
// fileMinP for a case that sets none. A periods value with errors is left
// out; 0 means none is known.
func casesMinP(cases []*mapItem, fileMinP int) int {
	minP := 0
	for _, it := range cases {
		p := fileMinP
		if v := it.values["periods"]; v != nil {
			p = int(slices.Min(v.Ints))
		} else if it.nodes["periods"] != nil {
			continue
		}
		if p > 0 && (minP == 0 || p < minP) {
			minP = p
		}
	}
	return minP
}

// fillGrid puts the cases and the exclusions that take effect into e,
// whose other keys are filled, and checks them against each other. It
// reports whether e is free of errors.
func (l *loader) fillGrid(e *Experiment, win map[string]*setting, cases, exclude []*mapItem) bool {
	if s := win["state_rows"]; s != nil && s.Node != nil {
		g := e.fileGrid()
		if n, twice := g.stateRowsTwice(); twice {
			l.errs = append(l.errs, s.Place.errorAt(s.Node, "", stateRowsTwice, n, n))
		}
	}
	if s := win["cases"]; s != nil {
		for i, it := range cases {
			e.Cases = append(e.Cases, caseGrid(e, it, s.Place.Lines))
			if n, twice := e.Cases[i].stateRowsTwice(); twice {
				l.errs = append(l.errs, s.Place.errorAt(it.node, it.suffix(), "state_rows: "+stateRowsTwice, n, n))
			}
		}
		l.errs = append(l.errs, checkCases(e, cases, s.Place)...)
	}
	if s := win["exclude"]; s != nil {
		for _, it := range exclude {
			e.Exclude = append(e.Exclude, exclusion(it, s.Place.Lines))
		}
		if len(l.errs) == 0 {
			l.errs = append(l.errs, checkExclude(e, exclude, s.Place, s)...)
		}
	}
	return len(l.errs) == 0
}

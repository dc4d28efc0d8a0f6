package experiment

import (
	"slices"
	"strings"

	"ckptlab/model"
)

// lastMonth is the last period a label can name: labels have four-digit
// years.
var lastMonth = model.NewMonth(9999, 12)

// resolve checks every value of every layer and builds the experiment of
// the merged values. The values that take effect are checked against
// each other too: intervals and failure labels against periods and start.
// It returns nil when any error was found. A base, which no layer names,
// is checked key by key (see resolveBase).
func (l *loader) resolve() *Experiment {
	win := l.winners()
	if l.named = win["name"] != nil; !l.named {
		return l.resolveBase(win)
	}
	got := make([]*parsed, len(l.settings)) // nil for a value with errors
	done := make([]bool, len(l.settings))
	check := func(s *setting, fr frame) {
		done[s.ID] = true
		if s.Node == nil {
			return
		}
		c := checker{p: s.Place}
		v, ok := c.values(keyNamed(s.Key), s.Node, fr)
		l.errs = append(l.errs, c.errs...)
		if ok {
			got[s.ID] = &v
		}
	}
	value := func(key string) (v *parsed, given, ok bool) {
		s := win[key]
		if s == nil {
			return nil, false, true
		}
		return got[s.ID], true, got[s.ID] != nil
	}

	// periods and start frame the other values.
	for _, key := range []string{"periods", "start"} {
		if s := win[key]; s != nil {
			check(s, frame{})
		}
	}
	e := Lesson("")
	e.File = l.path
	fr := frame{}
	if v, given, ok := value("periods"); ok {
		if given {
			e.Periods = toInts[int](v.Ints)
		}
		fr.minP = slices.Min(e.Periods)
	}
	if v, given, ok := value("start"); ok {
		if given {
			e.Start = v.Months[0]
		}
		fr.start, fr.startOK = e.Start, l.checkCalendar(v, win["start"], e, fr)
	}
	// intervals next: the cases are checked against them, and the labels
	// against the cases' periods.
	if s := win["intervals"]; s != nil {
		check(s, fr)
	}
	iv, _, ivOK := value("intervals")
	cases, exclude, labels := l.readGrid(win, fr, iv, ivOK, done)
	for _, s := range l.settings {
		switch {
		case done[s.ID]:
		case win[s.Key] != s:
			check(s, frame{}) // replaced by an override: checked on its own
		case keyNamed(s.Key).Label:
			check(s, labels)
		default:
			check(s, fr)
		}
	}
	l.checkDefaults(win, got, fr, e)
	l.checkTime(win, got)
	if len(l.errs) > 0 {
		return nil
	}
	l.fill(&e, func(key string) *parsed { v, _, _ := value(key); return v })
	e.Origins = l.origins(win)
	l.fillTime(&e, func(key string) *parsed { v, _, _ := value(key); return v })
	if !l.fillGrid(&e, win, cases, exclude) {
		return nil
	}
	if v, _, _ := value("failure_weights"); v != nil {
		if l.checkWeights(&e, win["failure_weights"], v); len(l.errs) > 0 {
			return nil
		}
	}
	return &e
}

// resolveBase checks each value of a base on its own: its known keys,
// types and ranges. How the values fit each other and the defaults (a
// failure_period within periods) is checked in each experiment that
// extends the base, where the keys it leaves out are known. A base
// resolves to its values without name, cases or exclusions: nothing runs
// it.
func (l *loader) resolveBase(win map[string]*setting) *Experiment {
	got := map[string]*parsed{}
	for _, s := range l.settings {
		if s.Node == nil {
			continue
		}
		c := checker{p: s.Place}
		switch s.Key {
		case "cases":
			c.readCases(s.Node, fileFrame{})
		case "exclude":
			c.readExclude(s.Node)
		default:
			if v, ok := c.values(keyNamed(s.Key), s.Node, frame{}); ok && win[s.Key] == s {
				got[s.Key] = &v
			}
		}
		l.errs = append(l.errs, c.errs...)
	}
	if len(l.errs) > 0 {
		return nil
	}
	e := Lesson("")
	e.File = l.path
	if v := got["periods"]; v != nil {
		e.Periods = toInts[int](v.Ints)
	}
	if v := got["start"]; v != nil {
		e.Start = v.Months[0]
	}
	l.fill(&e, func(key string) *parsed { return got[key] })
	e.Origins = l.origins(win)
	return &e
}

// checkDefaults checks the lesson's values of the keys no layer sets
// against the values given for the others: a file of periods: 6 leaves
// the default intervals and failure_period out of range. The error is at
// the value that does not fit them.
func (l *loader) checkDefaults(win map[string]*setting, got []*parsed, fr frame, e Experiment) {
	given := func(key string) (*setting, *parsed) {
		if s := win[key]; s != nil && got[s.ID] != nil {
			return s, got[s.ID]
		}
		return nil, nil
	}
	ps, pv := given("periods")
	ss, sv := given("start")
	def := Lesson("")
	if win["intervals"] == nil && ps != nil {
		most := slices.Max(def.Intervals)
		if i := slices.Index(pv.Ints, int64(fr.minP)); fr.minP < int(most) {
			a := pv.at(i)
			l.errs = append(l.errs, ps.Place.errorAt(a.Node, a.Suffix,
				"%d leaves the default intervals %s beyond 1..%d (want intervals set, such as intervals: all)",
				fr.minP, joinIntervals(def.Intervals), fr.minP))
		}
	}
	if first, last, ok := fr.failures(); ok && win["failure_period"] == nil {
		f := def.FailurePeriod
		if f < first || f > last {
			msg := "leaves the default failure_period %s outside %s..%s (want failure_period set within them)"
			if f > last && ps != nil {
				i := slices.Index(pv.Ints, int64(fr.minP))
				a := pv.at(i)
				l.errs = append(l.errs, ps.Place.errorAt(a.Node, a.Suffix, "%d "+msg, fr.minP, f, first, last))
			} else if ss != nil {
				a := sv.at(0)
				l.errs = append(l.errs, ss.Place.errorAt(a.Node, a.Suffix, "%s "+msg, e.Start, f, first, last))
			}
		}
	}
}

// checkCalendar reports a start whose periods run past the last label,
// 9999-12, and returns whether the start is usable. v and s are the
// start's value and setting, nil when it is the default.
func (l *loader) checkCalendar(v *parsed, s *setting, e Experiment, fr frame) bool {
	if fr.minP == 0 {
		return true // periods has errors of its own
	}
	maxP := slices.Max(e.Periods)
	if end := e.Start + model.Month(maxP-1); end <= lastMonth {
		return true
	}
	if s != nil {
		a := v.at(0)
		l.errs = append(l.errs, s.Place.errorAt(a.Node, a.Suffix,
			"%s and %d periods end after %s (want a start by %s)",
			e.Start, maxP, lastMonth, lastMonth-model.Month(maxP-1)))
	}
	return false
}

// fill puts the merged values into e, whose other keys keep the lesson's
// values.
func (l *loader) fill(e *Experiment, value func(key string) *parsed) {
	if v := value("version"); v != nil {
		e.Version = int(v.Ints[0])
	}
	if v := value("name"); v != nil {
		e.Name = v.Text
	}
	if v := value("description"); v != nil {
		e.Description = v.Text
	}
	if v := value("seeds"); v != nil {
		e.Seeds = toInts[uint32](v.Ints)
	}
	if v := value("subscribers"); v != nil {
		e.Subscribers = toInts[int](v.Ints)
	}
	if v := value("partition_key"); v != nil {
		e.PartitionKeys = make([]model.PartitionKey, len(v.Words))
		for i, w := range v.Words {
			e.PartitionKeys[i], _ = model.ParsePartitionKey(w)
		}
	}
	if v := value("workers"); v != nil {
		e.Workers = toInts[int](v.Ints)
	}
	if v := value("state_rows"); v != nil {
		e.StateRows = toInts[int](v.Ints)
	}
	if v := value("risk_level"); v != nil {
		e.RiskLevel = v.Floats[0]
	}
	if v := value("probabilities"); v != nil {
		e.Probabilities = v.Floats
	}
	if v := value("intervals"); v != nil {
		e.Intervals, e.IntervalsAll = toInts[model.Interval](v.Ints), v.All
		if v.All {
			e.Intervals = nil
		}
	}
	if v := value("missing"); v != nil {
		e.Missing = int(v.Ints[0])
	}
	if v := value("duplicates"); v != nil {
		e.Duplicates = int(v.Ints[0])
	}
	if v := value("failure_period"); v != nil {
		e.FailurePeriod = v.Months[0]
	}
	if v := value("failure_periods"); v != nil && !v.All {
		e.FailurePeriods = v.Months
	}
	if v := value("failure_weights"); v != nil {
		for i, m := range v.Months {
			if v.Ints[i] == 1 {
				continue // the default: a weight of 1 changes nothing
			}
			if e.FailureWeights == nil {
				e.FailureWeights = map[model.Month]int64{}
			}
			e.FailureWeights[m] = v.Ints[i]
		}
	}
}

// toInts converts checked whole numbers to the integer type of a field.
func toInts[T ~int | ~uint32](v []int64) []T {
	out := make([]T, len(v))
	for i, x := range v {
		out[i] = T(x)
	}
	return out
}

// joinIntervals writes intervals as a list: "none, 6, 4".
func joinIntervals(v []model.Interval) string {
	s := make([]string, len(v))
	for i, k := range v {
		s[i] = k.String()
	}
	return strings.Join(s, ", ")
}

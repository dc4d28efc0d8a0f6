package experiment

import (
	"fmt"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"ckptlab/model"
)

// weights reads failure_weights: a mapping of period labels, each a period
// after the first of every periods value, to whole numbers within the
// key's bounds. The labels go to v.Months, the weights to v.Ints, and each
// label's node to v.Where, where the errors about it point.
func (c *checker) weights(d *keyDef, n *yaml.Node, fr frame) parsed {
	v := parsed{Where: []valueAt{}}
	if n.Kind != yaml.MappingNode {
		what := "a list"
		if n.Kind == yaml.ScalarNode {
			what = shown(n)
		}
		c.fail(n, "", "%s is not a mapping of period labels to weights (want %s)", what, d.want())
		return v
	}
	seen := map[model.Month]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, w := n.Content[i], n.Content[i+1]
		suffix := "[" + k.Value + "]"
		m, ok := c.month(k, suffix, "a period label")
		if ok && !c.labelWithin(k, suffix, m, fr) {
			ok = false
		}
		if ok && seen[m] {
			c.fail(k, suffix, "%s is listed twice (want each period label once)", m)
			ok = false
		}
		x, wok := c.wholeNumber(w, suffix, article(d.Noun), "a whole number >= 0")
		switch {
		case wok && x < d.Min:
			c.fail(w, suffix, "%d is not %s (want a whole number >= %d)", x, article(d.Noun), d.Min)
			wok = false
		case wok && x > d.Max:
			c.fail(w, suffix, "%d is not %s (want <= %d, a safety cap)", x, article(d.Noun), d.Max)
			wok = false
		}
		if ok && wok {
			seen[m] = true
			v.Months, v.Ints, v.Where = append(v.Months, m), append(v.Ints, x), append(v.Where, valueAt{k, suffix})
		}
	}
	return v
}

// maxWeightedRows bounds the weighted sums of a source, Σ w_f·y_f ≤
// W × rows, so that every sum and product of them fits an int64.
const maxWeightedRows = 1 << 62

// checkWeights checks failure_weights against the failure set of every
// source: each label must be a failure of it, some failure must weigh more
// than 0, and the weighted sums must fit exact integer arithmetic. s and v
// are the key's winning setting and value.
func (l *loader) checkWeights(e *Experiment, s *setting, v *parsed) {
	if s == nil || v == nil {
		return
	}
	if e.FailurePeriods != nil {
		for i, m := range v.Months {
			if !slices.Contains(e.FailurePeriods, m) {
				a := v.at(i)
				l.errs = append(l.errs, s.Place.errorAt(a.Node, a.Suffix,
					"%s is not in failure_periods (want one of %s)", m, joinMonths(e.FailurePeriods)))
			}
		}
	}
	most := map[int]int{} // periods → the most subscribers of a source of them
	for _, src := range e.SourceList() {
		most[src.Periods] = max(most[src.Periods], src.Subscribers)
	}
	periods := make([]int, 0, len(most))
	for p := range most {
		periods = append(periods, p)
	}
	slices.Sort(periods)
	for _, p := range periods {
		w := e.FailureSetFor(p).Total()
		switch {
		case w == 0:
			l.errs = append(l.errs, s.Place.errorAt(s.Node, "",
				"every failure of the failure set of %d periods weighs 0 (want a positive weight for at least one)", p))
			return
		case w > maxWeightedRows/int64(p)/int64(most[p]):
			l.errs = append(l.errs, s.Place.errorAt(s.Node, "",
				"a total weight of %d over %d subscribers and %d periods is too large to weigh exactly (want weights summing to at most %d)",
				w, most[p], p, maxWeightedRows/int64(p)/int64(most[p])))
			return
		}
	}
}

// joinMonths writes labels as a list: "2026-03, 2026-12".
func joinMonths(v []model.Month) string {
	s := make([]string, len(v))
	for i, m := range v {
		s[i] = m.String()
	}
	return strings.Join(s, ", ")
}

// weightsText writes failure weights as the resolved experiment shows
// them, in YAML flow syntax, labels ascending: "{2026-06: 3, 2026-12: 0}".
func weightsText(w map[model.Month]int64) string {
	labels := make([]model.Month, 0, len(w))
	for m := range w {
		labels = append(labels, m)
	}
	slices.Sort(labels)
	parts := make([]string, len(labels))
	for i, m := range labels {
		parts[i] = fmt.Sprintf("%s: %d", m, w[m])
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

package report

import (
	"fmt"
	"strconv"
	"strings"

	"ckptlab/answer"
	"ckptlab/model"
	"ckptlab/model/process"
	"ckptlab/results"
)

// maxTimeLines bounds the headline's lines of the time model: a line per
// group up to it, then one that counts the rest.
const maxTimeLines = 6

// timeHeadline returns the headline's lines of the time model, one per
// group in units: "at MTBF 24 h: every 117 periods (1 h 57 min), 9.6 % of
// the time lost; Young 120, Daly 116.7". None without the model.
func (r *result) timeHeadline() []string {
	groups := r.timeGroups()
	var out []string
	for i, g := range groups {
		if i == maxTimeLines-1 && len(groups) > maxTimeLines {
			out = append(out, fmt.Sprintf("and %d more failure processes in process_decisions.csv", len(groups)-i))
			break
		}
		out = append(out, r.groupLabel(g)+": "+timeAnswer(g))
	}
	return out
}

// groupLabel names a group by what sets it apart from the others: the
// source when there are several, the MTBF, and the checkpoint, restart and
// shape when they vary.
func (r *result) groupLabel(g *answer.Time) string {
	t := r.Exp.Time
	var parts []string
	if groups := r.timeGroups(); groups[0].Index != groups[len(groups)-1].Index {
		s := g.Source
		parts = append(parts, fmt.Sprintf("seed %d, %s subscribers, %d periods", s.Seed,
			results.Count.Format(float64(s.Subscribers)), s.Periods))
	}
	parts = append(parts, "at MTBF "+results.Duration(g.Group.MTBF))
	if len(t.Checkpoints) > 1 {
		parts = append(parts, "checkpoint "+results.Duration(g.Group.Checkpoint))
	}
	if len(t.Restarts) > 1 {
		parts = append(parts, "restart "+results.Duration(g.Group.Restart))
	}
	if g.Distribution == process.Weibull {
		parts = append(parts, "Weibull k = "+strconv.FormatFloat(g.Group.Shape, 'g', -1, 64))
	}
	return strings.Join(parts, ", ")
}

// timeAnswer says the group's best declared interval in periods and time, the
// share of time it loses, what beats it undeclared, and the textbook optima.
func timeAnswer(g *answer.Time) string {
	if g.Best < 0 {
		return "no interval could be simulated (too many failures per run)"
	}
	v, _ := g.Figure(g.Best)
	lost, _ := process.LostFraction(v, g.Work.Seconds())
	out := timeEvery(g, g.Rows[g.Best].Interval) + ", " + results.Percent(lost) + " of the time lost"
	if !g.Exact {
		out += " (simulated)"
	}
	if g.Exact && g.OptimalExpected < v && !g.Declared(g.Optimal) {
		// said only where it shows: a share that rounds alike is no gain
		lo, _ := process.LostFraction(g.OptimalExpected, g.Work.Seconds())
		if results.Percent(lo) != results.Percent(lost) {
			out += "; " + timeEvery(g, g.Optimal) + ", not declared, " + results.Percent(lo)
		}
	}
	if g.TextbookOK {
		out += "; Young " + results.Figure(g.Textbook.Young) + ", Daly " + results.Figure(g.Textbook.Daly)
	}
	return out
}

// timeEvery says an interval in periods and in the time of their mean work.
func timeEvery(g *answer.Time, k model.Interval) string {
	if k == model.None {
		return "no checkpoint"
	}
	n := "every " + strconv.Itoa(int(k)) + " periods"
	if k == 1 {
		n = "every period"
	}
	if mean, ok := g.Work.Mean(); ok {
		n += " (" + results.Duration(float64(k)*mean) + ")"
	}
	return n
}

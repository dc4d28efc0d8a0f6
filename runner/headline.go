package runner

import (
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"ckptlab/decide"
	"ckptlab/runner/experiment"
)

// maxHeadline is the most lines a headline has; a larger grid is
// summarized.
const maxHeadline = 12

// maxPiecesShown is the most break-even pieces one headline line names.
const maxPiecesShown = 4

// Headline returns the run's answer in words (SPEC §6), at most a dozen
// lines: for each source and state size, which declared interval is best
// for which failure probabilities, and at each probability what the
// expected, worst-case and tail criteria pick and whether an interval not
// declared beats every declared one. A grid too large for that is
// summarized: the tables stay the record.
func (r *Result) Headline() []string {
	out := r.headline()
	if len(out) > 0 {
		out[0] = r.Exp.Name + ": " + out[0]
	}
	return out
}

// headline holds at most maxHeadline envelopes and, for a small grid, its
// few decisions: a large grid's decisions are counted as they stream by,
// so the headline's memory does not grow with the grid.
func (r *Result) headline() []string {
	ngroups, probs := 0, 0
	for range r.envelopeGroups {
		ngroups++
	}
	for _, sr := range r.Sources {
		probs = max(probs, len(sr.Grid.Probabilities))
	}
	titled := ngroups > 1
	perGroup := 1 + probs
	if titled {
		perGroup++
	}
	if ngroups*perGroup <= maxHeadline {
		var groups []*breakeven
		for b := range r.breakevens {
			groups = append(groups, b)
		}
		var ds []*decision
		for d := range r.decisions {
			ds = append(ds, d)
		}
		var out []string
		for _, b := range groups {
			if titled {
				out = append(out, groupTitle(b.sr, b.stateRows)+":")
			}
			out = append(out, "best declared interval by failure probability: "+pieceList(b))
			for _, d := range ds {
				if d.sr.Grid == b.sr.Grid && d.sr.Source == b.sr.Source && d.stateRows == b.stateRows {
					out = append(out, decisionLine(d, r.Exp.RiskLevel))
				}
			}
		}
		if line, ok := workersLine(ds); ok && len(out) < maxHeadline {
			out = append(out, line)
		}
		return out
	}
	return r.summary(ngroups)
}

// summary is the headline of a large grid: counts over every decision, the
// largest gain of an undeclared interval, and the ngroups envelopes, those
// alike on one line.
func (r *Result) summary(ngroups int) []string {
	alpha := experiment.ShortFloat(r.Exp.RiskLevel)
	var n, sameWorst, sameTail, beaten int
	var gain *decision
	var picks [3]tally // expected, worst case, tail
	for d := range r.decisions {
		n++
		ks := d.sr.Intervals
		picks[0].add(ks[d.best].String())
		picks[1].add(ks[d.worst].String())
		picks[2].add(ks[d.tail].String())
		if d.worst == d.best {
			sameWorst++
		}
		if d.tail == d.best {
			sameTail++
		}
		if d.optimalTotal < d.bestTotal {
			beaten++
			if gain == nil || d.bestTotal-d.optimalTotal > gain.bestTotal-gain.optimalTotal {
				gain = d
			}
		}
	}
	out := []string{
		fmt.Sprintf("%s (sources × state rows × probabilities) in decisions.csv, %s in breakeven.csv",
			countNoun(int64(n), "decision"), countNoun(int64(ngroups), "envelope")),
		fmt.Sprintf("the worst case picks the interval the expected total picks in %d of %d decisions; the tail at risk level %s in %d", sameWorst, n, alpha, sameTail),
		fmt.Sprintf("picked most often: by expected total %s, by worst case %s, by the tail %s", picks[0], picks[1], picks[2]),
	}
	if gain == nil {
		out = append(out, "the optimum over every interval is a declared interval in every decision")
	} else {
		ks := gain.sr.Intervals
		out = append(out,
			fmt.Sprintf("an interval not declared beats every declared one in %d of %d decisions; the most at %s, probability %s:",
				beaten, n, groupTitle(gain.sr, gain.stateRows), experiment.ShortFloat(gain.prob)),
			fmt.Sprintf("  interval %s at %s against %s's %s", gain.optimal, total(gain.optimalTotal), ks[gain.best], total(gain.bestTotal)))
	}
	return append(out, r.envelopeLines(maxHeadline-len(out))...)
}

// envelopeLines writes the break-even envelopes in at most room lines,
// one line for all the envelopes that read alike: without faults the
// stream of a source does not depend on its seed, so a sweep over seeds
// has the same envelope for every one. It keeps at most room lines in
// memory, whatever the number of envelopes.
func (r *Result) envelopeLines(room int) []string {
	type alike struct {
		title, pieces string
		n             int
	}
	var lines []alike
	other := 0
	for b := range r.breakevens {
		pieces := pieceList(b)
		if i := slices.IndexFunc(lines, func(l alike) bool { return l.pieces == pieces }); i >= 0 {
			lines[i].n++
		} else if len(lines) < room-1 {
			lines = append(lines, alike{groupTitle(b.sr, b.stateRows), pieces, 1})
		} else {
			other++
		}
	}
	var out []string
	for _, l := range lines {
		title := l.title
		if l.n > 1 {
			title += fmt.Sprintf(" and %d more alike", l.n-1)
		}
		out = append(out, title+": "+l.pieces)
	}
	if other > 0 {
		out = append(out, fmt.Sprintf("… and %d more %s in breakeven.csv", other, experiment.Plural(other, "envelope", "envelopes")))
	}
	return out
}

// maxWorkersShown is the most worker counts the workers line names.
const maxWorkersShown = 6

// workersLine answers a worker sweep's question, what the one failed
// worker asks to have back as the stream is spread over more workers: the
// busiest worker's recovery over every failure (busiest_worker_worst) for
// each worker count of the first source's first partition key, at the
// interval the first decision picks. ok is false without a sweep.
func workersLine(ds []*decision) (string, bool) {
	if len(ds) == 0 {
		return "", false
	}
	d := ds[0]
	var parts []*PartResult
	for _, pr := range d.sr.Parts {
		if pr.Key == d.sr.Parts[0].Key {
			parts = append(parts, pr)
		}
	}
	if len(parts) < 2 {
		return "", false
	}
	var each []string
	for i, pr := range parts {
		if len(parts) > maxWorkersShown && i == maxWorkersShown-1 {
			each = append(each, "…")
			pr = parts[len(parts)-1]
		} else if len(parts) > maxWorkersShown && i > maxWorkersShown-1 {
			break
		}
		each = append(each, fmt.Sprintf("%d at %s", pr.Costs[d.best].BusiestWorst, countNoun(int64(pr.Partitioning.Workers), "worker")))
	}
	return fmt.Sprintf("the busiest worker recovers at most %s (interval %s, by %s, over every failure)",
		strings.Join(each, ", "), d.sr.Intervals[d.best], parts[0].Key), true
}

// groupTitle names a source and state size.
func groupTitle(sr *SourceResult, stateRows int) string {
	s := sr.Source
	return fmt.Sprintf("seed %d, %d subscribers, %d periods, state rows %d", s.Seed, s.Subscribers, s.Periods, stateRows)
}

// pieceList writes the break-even pieces: "none on [0, 11/18] (0 to
// 0.6111), 6 on ...", the first few when there are many.
func pieceList(b *breakeven) string {
	var parts []string
	for _, pc := range b.pieces[:min(len(b.pieces), maxPiecesShown)] {
		parts = append(parts, fmt.Sprintf("%s on [%s, %s] (%s to %s)", b.sr.Intervals[pc.Line],
			decide.Fraction(pc.From), decide.Fraction(pc.To), decimal(pc.From), decimal(pc.To)))
	}
	s := strings.Join(parts, ", ")
	if more := len(b.pieces) - maxPiecesShown; more > 0 {
		s += fmt.Sprintf(", and %d more %s", more, experiment.Plural(more, "piece", "pieces"))
	}
	return s
}

// decisionLine writes one decision: "at probability 1: expected total
// picks 4 (927.3), worst case 4 (1200), ...".
func decisionLine(d *decision, alpha float64) string {
	ks := d.sr.Intervals
	s := fmt.Sprintf("at probability %s: expected total picks %s (%s), worst case %s (%d), tail at %s %s (%s)",
		experiment.ShortFloat(d.prob), ks[d.best], total(d.bestTotal), ks[d.worst], d.worstTotal,
		experiment.ShortFloat(alpha), ks[d.tail], total(d.tailTotal))
	switch {
	case d.optimalTotal < d.bestTotal && !slices.Contains(ks, d.optimal):
		s += fmt.Sprintf("; interval %s, not declared, beats them all at %s", d.optimal, total(d.optimalTotal))
	default:
		s += "; no interval beats the declared ones"
	}
	if d.youngOK {
		s += fmt.Sprintf("; Young %s, Daly %s", strconv.FormatFloat(d.young, 'f', 3, 64), strconv.FormatFloat(d.daly, 'f', 3, 64))
	}
	return s
}

// total writes an expected or tail total as the lesson prints it, with
// one decimal.
func total(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }

// decimal writes a breakpoint with four decimals, or as a whole number.
func decimal(r *big.Rat) string {
	f, _ := r.Float64()
	if r.IsInt() {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	return strconv.FormatFloat(f, 'f', 4, 64)
}

// tally counts how often each interval is picked, in order of first pick.
type tally struct {
	names  []string
	counts []int
}

func (t *tally) add(name string) {
	if i := slices.Index(t.names, name); i >= 0 {
		t.counts[i]++
		return
	}
	t.names, t.counts = append(t.names, name), append(t.counts, 1)
}

// String writes the interval picked most often, the first picked on ties,
// and how often: "4 (21 of 21)".
func (t tally) String() string {
	best, total := 0, 0
	for i, c := range t.counts {
		total += c
		if c > t.counts[best] {
			best = i
		}
	}
	if total == 0 {
		return "nothing"
	}
	return fmt.Sprintf("%s (%d of %d)", t.names[best], t.counts[best], total)
}

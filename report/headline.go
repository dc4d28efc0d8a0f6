package report

import (
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"ckptlab/answer"
	"ckptlab/criteria"
	"ckptlab/internal/words"
	"ckptlab/model"
	"ckptlab/results"
	"ckptlab/runner"
)

// maxHeadline is the most lines a headline has; a larger grid is
// summarized.
const maxHeadline = 12

// headline returns the run's answer in words (docs/decisions.md), at most a dozen
// lines, for a reader who has not read the lesson: first what to do (for
// each source, state size and probability, "checkpoint every 4 periods",
// with its expected cost in rows), then why (the break-even probabilities
// where the cheapest interval changes), then what the other criteria pick.
// Where the lines do not allow every detail, the details fold into fewer,
// longer lines; a grid too large for that is summarized, and the tables
// stay the record.
func (r *result) headline() []string {
	out := r.headlineBody()
	if len(out) > 0 {
		out[0] = r.Exp.Name + ": " + out[0]
	}
	return out
}

// block is a part of the headline: its lines in full, and the fewer lines
// they fold into, one fold after another, when the headline has no room
// for them all.
type block struct {
	lines []string
	folds [][]string // at most maxFolds
	order int        // blocks of a lower order fold first; 0 never folds
}

// foldAfter returns lines folded after the first: the first as it is, the
// others joined into one detail line below it, so that a folded block
// still leads with a short line.
func foldAfter(lines []string) []string {
	if len(lines) <= 2 {
		return lines
	}
	rest := make([]string, len(lines)-1)
	for i, l := range lines[1:] {
		rest[i] = strings.TrimPrefix(l, "  ")
	}
	return []string{lines[0], "  " + strings.Join(rest, "; ")}
}

// fit folds blocks, lower orders first and the last of an order first,
// each fold of a block shorter than the one before, until their lines fit
// in room; ok is false if they cannot.
func fit(blocks []block, room int) (lines []string, ok bool) {
	n := 0
	for _, b := range blocks {
		n += len(b.lines)
	}
	for order := 1; n > room && order <= 3; order++ {
		for stage := 0; n > room && stage < maxFolds; stage++ {
			for i := len(blocks) - 1; i >= 0 && n > room; i-- {
				b := &blocks[i]
				if b.order != order || stage >= len(b.folds) || len(b.folds[stage]) >= len(b.lines) {
					continue
				}
				n -= len(b.lines) - len(b.folds[stage])
				b.lines = b.folds[stage]
			}
		}
	}
	for _, b := range blocks {
		lines = append(lines, b.lines...)
	}
	return lines, n <= room
}

// maxFolds is the most folds a block has.
const maxFolds = 2

// headline holds, for a small grid, its few envelopes and decisions; a
// large grid's decisions are counted as they stream by, so the headline's
// memory does not grow with the grid.
func (r *result) headlineBody() []string {
	ngroups, probs := 0, 0
	for g := range r.answerGroups {
		if !g.Repeat {
			ngroups++
		}
	}
	for _, sr := range r.Sources {
		probs = max(probs, len(sr.Grid.Probabilities))
	}
	titled := ngroups > 1
	perGroup := 1 + probs
	if titled {
		perGroup++
	}
	perGroup-- // the lead line says the break-evens, no line of why
	if ngroups*perGroup > maxHeadline {
		return r.summary(ngroups)
	}
	var ds []*decision
	for d := range r.decisions {
		ds = append(ds, d)
	}
	var blocks []block
	if titled {
		blocks = append(blocks, block{lines: []string{fmt.Sprintf("%s; the cheapest interval by failure probability p (%s in breakeven.csv):",
			countOf(len(ds), "decision"), countOf(ngroups, "envelope"))}})
	} else {
		for e := range r.answer().Unique {
			blocks = append(blocks, block{lines: append([]string{envelopeText(e)}, notDeclared(ds)...)})
		}
	}
	for b := range r.answer().Unique {
		sr := r.Sources[b.Index]
		if titled {
			blocks = append(blocks, block{lines: []string{groupTitle(sr, b.StateRows) + ": " + envelopeText(b)}})
		}
		for _, d := range ds {
			if d.sr.Grid == sr.Grid && d.sr.Source == sr.Source && d.stateRows == b.StateRows {
				blocks = append(blocks, decisionBlock(d, r.Exp.RiskLevel))
			}
		}
	}
	if wb, ok := r.workersBlock(ds); ok {
		blocks = append(blocks, wb)
	}
	if lines, ok := fit(blocks, maxHeadline); ok {
		return lines
	}
	return r.summary(ngroups)
}

// maxLeadPieces is the most pieces of an envelope a headline's lead line
// names; the rest are counted.
const maxLeadPieces = 3

// envelopeText states an envelope in units, its pieces in increasing
// probability and the least expected total at the top of the range: "no
// checkpoint below p = 11/18, every 6 periods up to 11/12, every 4 above
// (927.3 rows at p = 1)".
func envelopeText(e *answer.Envelope) string {
	pcs := e.Pieces
	if len(pcs) == 0 {
		return "no interval left"
	}
	lo, hi := e.Range()
	unitSaid := false
	say := func(k model.Interval) string {
		switch {
		case k == model.None:
			return "no checkpoint"
		case k == 1:
			return "every period"
		case unitSaid:
			return "every " + strconv.Itoa(int(k))
		}
		unitSaid = true
		return "every " + strconv.Itoa(int(k)) + " periods"
	}
	shown := pcs[:min(len(pcs), maxLeadPieces)]
	var parts []string
	for i, pc := range shown {
		k := say(pc.Interval)
		switch {
		case len(pcs) == 1 && lo == hi:
			parts = append(parts, k)
		case len(pcs) == 1:
			parts = append(parts, k+" for p from "+shortBreak(pc.From)+" to "+shortBreak(pc.To))
		case i == 0:
			parts = append(parts, k+" below p = "+shortBreak(pc.To))
		case i == len(pcs)-1:
			parts = append(parts, k+" above")
		default:
			parts = append(parts, k+" up to "+shortBreak(pc.To))
		}
	}
	text := strings.Join(parts, ", ")
	if more := len(pcs) - len(shown); more > 0 {
		text += ", and " + results.Count.FormatInt(int64(more)) + " more"
	}
	last := pcs[len(pcs)-1]
	return text + fmt.Sprintf(" (%s rows at p = %s)", total(last.ToTotal), shortProb(hi))
}

// shortBreak writes a break-even probability in few characters: its
// fraction when short ("11/18"), else its four decimals.
func shortBreak(r *big.Rat) string {
	if r.IsInt() {
		return r.Num().String()
	}
	if f := criteria.Fraction(r); len(f) <= len("11/180") {
		return f
	}
	return probText(criteria.Probability(r))
}

// shortProb writes a declared probability: a whole one as "0" or "1",
// any other in the number style.
func shortProb(p float64) string {
	if p == 0 || p == 1 {
		return strconv.Itoa(int(p))
	}
	return probText(p)
}

// notDeclared says what beats every declared interval, the most over the
// decisions: an interval not declared and the best schedule, "not
// declared: every 7 periods, 763.6 rows at p = 1 against 927.3; a schedule
// of 2 checkpoints, after 2026-05 and 2026-09, 727.3 at p = 1". It is no
// line when nothing beats them.
func notDeclared(ds []*decision) []string {
	top := -1.0
	for _, d := range ds {
		top = max(top, d.prob)
	}
	var atTop []*decision // said at the probability the lead line's figure is at, when they beat there
	for _, d := range ds {
		if d.prob == top && (d.scheduleBeats || d.optimalTotal < d.bestTotal && !slices.Contains(d.sr.Intervals, d.optimal)) {
			atTop = append(atTop, d)
		}
	}
	if len(atTop) > 0 {
		ds = atTop
	}
	var gain, sched *decision
	for _, d := range ds {
		if d.optimalTotal < d.bestTotal && !slices.Contains(d.sr.Intervals, d.optimal) &&
			(gain == nil || d.bestTotal-d.optimalTotal > gain.bestTotal-gain.optimalTotal) {
			gain = d
		}
		if d.scheduleBeats && (sched == nil || d.optimalTotal-d.scheduleTotal > sched.optimalTotal-sched.scheduleTotal) {
			sched = d
		}
	}
	var said []string
	if gain != nil {
		said = append(said, fmt.Sprintf("%s, %s rows at p = %s against %s", everyShort(gain.optimal),
			total(gain.optimalTotal), shortProb(gain.prob), total(gain.bestTotal)))
	}
	if sched != nil {
		said = append(said, scheduleText(sched)+" at p = "+shortProb(sched.prob))
	}
	if len(said) == 0 {
		return nil
	}
	return []string{"  not declared: " + strings.Join(said, "; ")}
}

// summary is the headline of a large grid: what the least expected cost
// picks by probability (the ngroups envelopes, those alike once), then
// counts over every decision of what the other criteria pick and of the
// largest gain of an undeclared interval.
func (r *result) summary(ngroups int) []string {
	var n, sameWorst, sameTail, beaten, scheduled int
	var gain, schedGain *decision
	var picks [3]tally // expected, worst case, tail
	for d := range r.decisions {
		n++
		ks := d.sr.Intervals
		picks[0].add(everyShort(ks[d.best]))
		picks[1].add(everyShort(ks[d.worst]))
		picks[2].add(everyShort(ks[d.tail]))
		if d.worst == d.best {
			sameWorst++
		}
		if d.tail == d.best {
			sameTail++
		}
		if d.scheduleBeats {
			scheduled++
			if schedGain == nil || d.optimalTotal-d.scheduleTotal > schedGain.optimalTotal-schedGain.scheduleTotal {
				schedGain = d
			}
		}
		if d.optimalTotal < d.bestTotal {
			beaten++
			if gain == nil || d.bestTotal-d.optimalTotal > gain.bestTotal-gain.optimalTotal {
				gain = d
			}
		}
	}
	tail := tailName(r.Exp.RiskLevel)
	c := func(n int) string { return results.Count.FormatInt(int64(n)) }
	stats := []string{
		fmt.Sprintf("the worst case picks what the expected cost picks in %s of %s decisions; the %s in %s", c(sameWorst), c(n), tail, c(sameTail)),
		fmt.Sprintf("picked most often: by expected cost %s; by the worst case %s; by the %s %s", picks[0], picks[1], tail, picks[2]),
	}
	if gain == nil {
		stats = append(stats, "no interval that is not declared beats the declared ones in any decision")
	} else {
		ks := gain.sr.Intervals
		stats = append(stats,
			fmt.Sprintf("an interval not declared beats every declared one in %s of %s decisions; the most at %s, failure probability %s:",
				c(beaten), c(n), groupTitle(gain.sr, gain.stateRows), probText(gain.prob)),
			fmt.Sprintf("  checkpointing %s costs %s rows against %s for %s",
				everyShort(gain.optimal), total(gain.optimalTotal), total(gain.bestTotal), everyShort(ks[gain.best])))
	}
	if schedGain != nil {
		stats = append(stats,
			fmt.Sprintf("a schedule beats every interval in %s of %s decisions; the most at %s, failure probability %s:",
				c(scheduled), c(n), groupTitle(schedGain.sr, schedGain.stateRows), probText(schedGain.prob)),
			"  "+scheduleText(schedGain)+", "+scheduleGain(schedGain))
	}
	head := fmt.Sprintf("%s; the cheapest interval by failure probability p (%s in breakeven.csv):",
		countOf(n, "decision"), countOf(ngroups, "envelope"))
	out := append([]string{head}, r.envelopeLines(maxHeadline-1-len(stats))...)
	return append(out, stats...)
}

// envelopeLines writes the envelopes in at most room lines, a line each in
// units (envelopeText), once for all the envelopes that read alike: without
// faults the stream of a source does not depend on its seed, so a sweep
// over seeds has the same envelope for every one. It keeps at most room
// envelopes in memory, whatever their number.
func (r *result) envelopeLines(room int) []string {
	var lines []*alikeGroups
	other := 0
	for e := range r.envelopes {
		if e.Repeat {
			continue
		}
		text := envelopeText(e)
		sr := r.Sources[e.Index]
		if i := slices.IndexFunc(lines, func(l *alikeGroups) bool { return l.text == text }); i >= 0 {
			lines[i].add(sr, e.StateRows)
		} else if len(lines) < room-1 {
			l := &alikeGroups{text: text}
			l.add(sr, e.StateRows)
			lines = append(lines, l)
		} else {
			other++
		}
	}
	var out []string
	for _, l := range lines {
		out = append(out, l.title()+": "+l.text)
	}
	if other > 0 {
		out = append(out, "… and "+countOf(other, "more envelope")+" in breakeven.csv")
	}
	return out
}

// alikeGroups are the sources and state sizes whose envelopes read alike,
// held as the range of each of their axes: as few values as one group's,
// whatever their number.
type alikeGroups struct {
	text string
	n    int
	// the least and greatest seed, subscribers, periods and state rows
	lo, hi [4]int64
}

func (a *alikeGroups) add(sr *runner.SourceResult, stateRows int) {
	s := sr.Source
	v := [4]int64{int64(s.Seed), int64(s.Subscribers), int64(s.Periods), int64(stateRows)}
	if a.n == 0 {
		a.lo, a.hi = v, v
	}
	for i := range v {
		a.lo[i], a.hi[i] = min(a.lo[i], v[i]), max(a.hi[i], v[i])
	}
	a.n++
}

// title names the groups as groupTitle does one, each axis that differs
// among them as its range, and then how many they are: "seed 1, 200
// subscribers, 12 periods, a checkpoint writes 100 to 1,000 rows (10 state
// sizes alike)".
func (a *alikeGroups) title() string {
	span := func(i int, one, many string) string {
		if a.lo[i] == a.hi[i] {
			return fmt.Sprintf(one, results.Count.FormatInt(a.lo[i]))
		}
		return fmt.Sprintf(many, results.Count.FormatInt(a.lo[i]), results.Count.FormatInt(a.hi[i]))
	}
	seed := "seed " + strconv.FormatInt(a.lo[0], 10)
	if a.lo[0] != a.hi[0] {
		seed = fmt.Sprintf("seeds %d to %d", a.lo[0], a.hi[0])
	}
	title := seed + ", " + span(1, "%s subscribers", "%s to %s subscribers") + ", " + span(2, "%s periods", "%s to %s periods") +
		", " + span(3, "a checkpoint writes %s rows", "a checkpoint writes %s to %s rows")
	if a.n == 1 {
		return title
	}
	var what string
	switch {
	case a.lo[0] != a.hi[0] && a.lo[1] == a.hi[1] && a.lo[2] == a.hi[2] && a.lo[3] == a.hi[3]:
		what = "seeds"
	case a.lo[1] == a.hi[1] && a.lo[2] == a.hi[2] && a.lo[0] == a.hi[0]:
		what = "state sizes"
	case a.lo[3] == a.hi[3]:
		what = "sources"
	default:
		what = "sources and state sizes"
	}
	return fmt.Sprintf("%s (%s %s alike)", title, results.Count.FormatInt(int64(a.n)), what)
}

// maxWorkersShown is the most worker counts the workers line names one by
// one; a longer sweep is shown at its powers of two.
const maxWorkersShown = 16

// maxStepsShown is the most steps where recovery stops falling that the
// workers block names.
const maxStepsShown = 3

// workersBlock answers a worker sweep's question, what the one failed
// worker asks to have back as the stream is spread over more workers, and
// where that stops falling: the busiest worker's recovery over every
// failure (busiest_worker_worst) for each worker count of the first
// source's first partition key, at the source's first recommended
// interval, the one its charts draw first. ok is false without a sweep.
func (r *result) workersBlock(ds []*decision) (block, bool) {
	if len(ds) == 0 {
		return block{}, false
	}
	d := *ds[0]
	if rec := r.answer().Recommended(slices.Index(r.Sources, d.sr)); len(rec) > 0 {
		d.best = max(0, slices.Index(d.sr.Intervals, rec[0]))
	}
	var workers []int
	var worst []int64
	for _, pr := range d.sr.Parts {
		if pr.Key == d.sr.Parts[0].Key {
			workers = append(workers, pr.Partitioning.Workers)
			worst = append(worst, pr.Costs[d.best].BusiestWorst)
		}
	}
	if len(workers) < 2 {
		return block{}, false
	}
	var each []string
	gap := false
	for i, w := range workers {
		if len(workers) > maxWorkersShown && i > 0 && i < len(workers)-1 && w&(w-1) != 0 {
			if !gap {
				each = append(each, "…")
			}
			gap = true
			continue
		}
		gap = false
		unit := ""
		if i == 0 {
			unit = " rows at " + words.Plural(w, "1 worker", "")
			if w != 1 {
				unit = " rows at " + strconv.Itoa(w) + " workers"
			}
			each = append(each, results.Count.FormatInt(worst[i])+unit)
			continue
		}
		each = append(each, results.Count.FormatInt(worst[i])+" at "+results.Count.FormatInt(int64(w)))
	}
	line := answer.NewWorkerLine(d.sr.Intervals[d.best], workers, worst)
	first := fmt.Sprintf("the busiest worker recovers at most, over every failure (%s, partitioned by %s), by workers",
		every(line.Interval), d.sr.Parts[0].Key)
	figures := strings.Join(each, ", ")
	var steps []string
	for _, i := range line.Steps[:min(len(line.Steps), maxStepsShown)] {
		change := "rises from " + results.Count.FormatInt(worst[i-1]) + " to " + results.Count.FormatInt(worst[i])
		if worst[i] == worst[i-1] {
			change = "stays at " + results.Count.FormatInt(worst[i])
		}
		steps = append(steps, fmt.Sprintf("%s from %s to %s workers", change,
			results.Count.FormatInt(int64(workers[i-1])), results.Count.FormatInt(int64(workers[i]))))
	}
	least := line.Least
	var second string
	switch {
	case len(line.Steps) == 0:
		second = fmt.Sprintf("it falls at every added worker, to %s at %s", results.Count.FormatInt(worst[least]), countNoun(int64(workers[least]), "worker"))
	default:
		second = fmt.Sprintf("it stops falling at %d of %d added workers: it %s", len(line.Steps), len(worst)-1, strings.Join(steps, ", it "))
		if len(line.Steps) > len(steps) {
			second += ", …"
		}
		second += fmt.Sprintf("; least %s at %s", results.Count.FormatInt(worst[least]), countNoun(int64(workers[least]), "worker"))
	}
	return block{lines: []string{first, "  " + figures, "  " + second},
		folds: [][]string{{first + ": " + figures, "  " + second}, {first + ": " + figures + "; " + second}}, order: 3}, true
}

// groupTitle names a source and state size.
func groupTitle(sr *runner.SourceResult, stateRows int) string {
	s := sr.Source
	return fmt.Sprintf("seed %d, %s subscribers, %s periods, a checkpoint writes %s rows", s.Seed,
		results.Count.FormatInt(int64(s.Subscribers)), results.Count.FormatInt(int64(s.Periods)),
		results.Count.FormatInt(int64(stateRows)))
}

// every says an interval as advice: "no checkpoint", "checkpoint every 4
// periods".
func every(k model.Interval) string {
	if k == model.None {
		return "no checkpoint"
	}
	return "checkpoint " + everyShort(k)
}

// everyShort says an interval in few words: "none", "every period",
// "every 4 periods".
func everyShort(k model.Interval) string {
	switch k {
	case model.None:
		return "no checkpoint"
	case 1:
		return "every period"
	}
	return "every " + strconv.Itoa(int(k)) + " periods"
}

// tailName says the tail criterion at risk level alpha: "worst 5% of
// runs".
func tailName(alpha float64) string {
	return "worst " + strconv.FormatFloat(100*(1-alpha), 'g', 4, 64) + "% of runs"
}

// decisionBlock says one decision: what to do and its expected cost, on
// a short line of its own; below it what does better than every declared
// interval (an interval not declared, a schedule), and what the other
// criteria pick. Folded, the details share one line below the first, and
// then the first line keeps only what does better.
func decisionBlock(d *decision, alpha float64) block {
	ks := d.sr.Intervals
	main := fmt.Sprintf("at failure probability %s, %s (expected cost %s rows)", probText(d.prob), every(ks[d.best]), total(d.bestTotal))
	var better []string
	if d.optimalTotal < d.bestTotal && !slices.Contains(ks, d.optimal) {
		better = append(better, fmt.Sprintf("checkpointing %s, not declared, would cost %s", everyShort(d.optimal), total(d.optimalTotal)))
	}
	if d.scheduleBeats {
		better = append(better, "better than every interval: "+scheduleText(d))
	}
	// The worst case is a whole number of rows, and said as one.
	others := fmt.Sprintf("by other criteria: worst case least at %s (%s rows), %s at %s (%s on average)",
		everyShort(ks[d.worst]), results.Count.FormatInt(d.worstTotal), tailName(alpha), everyShort(ks[d.tail]), total(d.tailTotal))
	if d.youngOK {
		others += fmt.Sprintf("; textbook every %s (Young) or %s (Daly) periods", results.Estimate.Format(d.young), results.Estimate.Format(d.daly))
	}
	lines := []string{main}
	if len(better) > 0 {
		lines = append(lines, "  "+strings.Join(better, "; "))
	}
	lines = append(lines, "  "+others)
	short := main
	if len(better) > 0 {
		short += "; " + strings.Join(better, "; ")
	}
	return block{lines: lines, folds: [][]string{foldAfter(lines), {short}}, order: 2}
}

// maxPointsShown is the most checkpoint points a headline names; a longer
// schedule is named by its first and last points (decisions.csv has all).
const maxPointsShown = 6

// scheduleText says the best schedule of a decision: "a schedule of 2
// checkpoints, after 2026-05 and 2026-09, costs 727.3".
func scheduleText(d *decision) string {
	labels := make([]string, len(d.schedule.Points))
	for i, t := range d.schedule.Points {
		labels[i] = d.sr.Source.Label(t)
	}
	if len(labels) == 0 {
		return fmt.Sprintf("no checkpoint (costs %s)", total(d.scheduleTotal))
	}
	after := words.And(labels)
	if len(labels) > maxPointsShown {
		after = strings.Join(labels[:maxPointsShown-2], ", ") + ", … and " + labels[len(labels)-1]
	}
	return fmt.Sprintf("a schedule of %s, after %s, costs %s", countNoun(int64(len(labels)), "checkpoint"), after, total(d.scheduleTotal))
}

// scheduleGain says how much the best schedule saves against the best
// interval: "36.4 below checkpointing every 7 periods".
func scheduleGain(d *decision) string {
	return fmt.Sprintf("%s below checkpointing %s", total(d.optimalTotal-d.scheduleTotal), everyShort(d.optimal))
}

// countOf writes a count of things in the number style: "1 envelope",
// "2,000 decisions".
func countOf(n int, noun string) string {
	return results.Count.FormatInt(int64(n)) + " " + words.Plural(n, noun, noun+"s")
}

// countNoun writes a count and its noun, without separators: "1 worker",
// "1000 workers".
func countNoun(n int64, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.FormatInt(n, 10) + " " + noun + "s"
}

// probText writes a failure probability in the number style.
func probText(p float64) string { return results.Probability.Format(p) }

// total writes a total in rows in the number style: one decimal,
// thousands separated.
func total(v float64) string { return results.Total.Format(v) }

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
// and how often: "every 4 periods (21 of 21)".
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
	return fmt.Sprintf("%s (%s of %s)", t.names[best], results.Count.FormatInt(int64(t.counts[best])), results.Count.FormatInt(int64(total)))
}

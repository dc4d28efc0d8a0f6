package report

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"ckptlab/model"
)

// bruteCost is a schedule's expected total, exactly, straight from its
// definition: checkpoints × stateRows + p × Σ_f w_f·y(f) / W, y(f) the
// stream rows of the periods after the last point at or before f, up to f.
func bruteCost(stream model.Recovery, fs model.FailureSet, points []int, p float64, stateRows int) *big.Rat {
	var rows int64
	for i, f := range fs.Periods {
		last := -1
		for _, t := range points {
			if t <= f {
				last = t
			}
		}
		y := stream.Recomputed(model.None, f)
		if last >= 0 {
			y -= stream.Recomputed(model.None, last)
		}
		rows += fs.Weight(i) * y
	}
	v := new(big.Rat).SetFrac64(rows, fs.Total())
	v.Mul(v, new(big.Rat).SetFloat64(p))
	return v.Add(v, new(big.Rat).SetInt64(int64(len(points))*int64(stateRows)))
}

// TestScheduleOfRandomExperiments evaluates random experiments, sources
// with faults, failure subsets and weights included, and holds every
// decision's schedule to a brute force over all 2^(P−1) schedules: the
// least exact cost, then fewer checkpoints, then earlier points; and
// scheduleBeats to an exact comparison with every interval.
func TestScheduleOfRandomExperiments(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for trial := range 60 {
		periods := 2 + rng.IntN(9)
		var src strings.Builder
		fmt.Fprintf(&src, "name: random\nseeds: %d\nsubscribers: %d\nperiods: %d\nintervals: all\n",
			rng.Uint32(), 1+rng.IntN(40), periods)
		fmt.Fprintf(&src, "missing: %d\nduplicates: %d\nstate_rows: [0, %d, subscribers]\nprobabilities: [0, 0.25, 1, %v]\n",
			rng.IntN(30), rng.IntN(30), 41+rng.IntN(60), rng.Float64()) // 41+: never the subscribers
		start := model.NewMonth(2026, 1)
		var labels []string
		for f := 1; f < periods; f++ {
			if rng.IntN(3) > 0 {
				labels = append(labels, (start + model.Month(f)).String())
			}
		}
		if len(labels) > 0 && rng.IntN(2) == 0 {
			fmt.Fprintf(&src, "failure_periods: [%s]\n", strings.Join(labels, ", "))
		} else {
			labels = nil
			for f := 1; f < periods; f++ {
				labels = append(labels, (start + model.Month(f)).String())
			}
		}
		fmt.Fprintf(&src, "failure_period: %s\n", labels[0])
		if rng.IntN(3) > 0 {
			var ws []string
			for i, l := range labels {
				w := rng.IntN(5) // 0 too
				if i == 0 {
					w = 1 + rng.IntN(5) // never every weight 0
				}
				if rng.IntN(2) == 0 || i == 0 {
					ws = append(ws, fmt.Sprintf("%s: %d", l, w))
				}
			}
			fmt.Fprintf(&src, "failure_weights: {%s}\n", strings.Join(ws, ", "))
		}
		r := evaluateYAML(t, src.String())
		for d := range r.decisions {
			sr := d.sr
			var best []int
			var least *big.Rat
			for mask := 0; mask < 1<<(periods-1); mask++ {
				var points []int
				for p := 1; p < periods; p++ {
					if mask&(1<<(p-1)) != 0 {
						points = append(points, p)
					}
				}
				c := bruteCost(sr.Stream, sr.Failures, points, d.prob, d.stateRows)
				better := least == nil
				if !better {
					switch v := c.Cmp(least); {
					case v < 0:
						better = true
					case v == 0 && len(points) < len(best):
						better = true
					case v == 0 && len(points) == len(best):
						better = slices.Compare(points, best) < 0
					}
				}
				if better {
					best, least = points, c
				}
			}
			name := fmt.Sprintf("trial %d (%s), state %d, p %v", trial, strings.ReplaceAll(src.String(), "\n", "; "), d.stateRows, d.prob)
			if !slices.Equal(d.schedule.Points, best) {
				t.Fatalf("%s: schedule %v, brute force %v", name, d.schedule.Points, best)
			}
			beats := true
			for k := 0; k <= periods; k++ {
				var rows int64
				for i, f := range sr.Failures.Periods {
					rows += sr.Failures.Weight(i) * sr.Stream.Recomputed(model.Interval(k), f)
				}
				e := new(big.Rat).SetFrac64(rows, sr.Failures.Total())
				e.Mul(e, new(big.Rat).SetFloat64(d.prob))
				e.Add(e, new(big.Rat).SetInt64(int64(model.Interval(k).Checkpoints(periods))*int64(d.stateRows)))
				if least.Cmp(e) > 0 {
					t.Fatalf("%s: schedule %v costs %s, above interval %d's %s", name, best, least.FloatString(3), k, e.FloatString(3))
				}
				if least.Cmp(e) == 0 {
					beats = false
				}
			}
			if d.scheduleBeats != beats {
				t.Fatalf("%s: scheduleBeats = %v, want %v", name, d.scheduleBeats, beats)
			}
		}
	}
}

package runner

import (
	"fmt"
	"io"
	"strings"
	"testing"

	"ckptlab/runner/experiment"
)

// largeFiles are experiment files whose axes or exclusions hold up to a
// million values: what validate, plan and the guards must answer for in
// time that grows with the values, not with their square.
func largeFiles(n int) map[string]string {
	var x strings.Builder
	x.WriteString("exclude:\n")
	per := min(n/128, 3000) // a file holds at most 250,000 values
	for i := range 64 {
		x.WriteString("  - {state_rows: [")
		for j := range per {
			if j > 0 {
				x.WriteString(", ")
			}
			fmt.Fprintf(&x, "%d", (i*per+j*7)%(n/2)*2)
		}
		x.WriteString("]}\n")
	}
	return map[string]string{
		"workers":    fmt.Sprintf("name: w\nworkers: {from: 1, to: %d}\n", n),
		"axis":       fmt.Sprintf("name: a\nstate_rows: {from: 0, to: %d}\n", n-1),
		"probs":      fmt.Sprintf("name: p\nprobabilities: {from: 0, to: %g, step: %g}\n", 1-1/float64(n), 1/float64(n)),
		"exclusions": fmt.Sprintf("name: x\nstate_rows: {from: 0, to: %d}\n%s", n-1, x.String()),
	}
}

// BenchmarkPlanLarge loads, plans and checks the guards of experiment
// files of n values, for n of 10^5 and 10^6: the time per n must stay
// about linear.
func BenchmarkPlanLarge(b *testing.B) {
	for _, n := range []int{100_000, 1_000_000} {
		files := largeFiles(n)
		for _, name := range []string{"workers", "axis", "probs", "exclusions"} {
			b.Run(fmt.Sprintf("%s/%d", name, n), func(b *testing.B) {
				for b.Loop() {
					e, err := experiment.LoadBytes(name+".yaml", []byte(files[name]), experiment.Overrides{})
					if err != nil {
						b.Fatal(err)
					}
					if err := WritePlan(io.Discard, e, "out", []string{"csv", "xlsx"}, Limits{MaxPoints: 1 << 62, MaxMemoryMiB: 1 << 40, Formats: []string{"csv", "xlsx"}}); err != nil {
						b.Fatal(err)
					}
					_ = Limits{MaxPoints: 1 << 62, MaxMemoryMiB: 1 << 40, Formats: []string{"csv", "xlsx"}}.Exceeded(e)
				}
			})
		}
	}
}

// TestLargeFilesAnswer loads, plans and checks the guards of the files of
// a million values that BenchmarkPlanLarge times, and checks the sizes
// they count: with a step quadratic in the values this takes minutes
// instead of a second, and the benchmark shows by how much.
func TestLargeFilesAnswer(t *testing.T) {
	t.Parallel()
	if testing.Short() || raceDetector {
		t.Skip("a million values")
	}
	const n = 1_000_000
	files := largeFiles(n)
	// 4 probabilities × 6 intervals per state_rows value left.
	excluded := map[int]bool{}
	for i := range 64 {
		for j := range 3000 {
			excluded[(i*3000+j*7)%(n/2)*2] = true
		}
	}
	want := map[string]int64{"workers": n * 24, "axis": n * 24, "probs": n * 6, "exclusions": (n - int64(len(excluded))) * 24}
	for name, rows := range want {
		e, err := experiment.LoadBytes(name+".yaml", []byte(files[name]), experiment.Overrides{})
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		if err := WritePlan(&b, e, "out", []string{"csv", "xlsx"}, Limits{}); err != nil {
			t.Fatal(err)
		}
		if got := e.GridRows(); got != rows {
			t.Errorf("%s: %d grid rows, want %d", name, got, rows)
		}
		if !strings.Contains(b.String(), fmt.Sprintf("grid rows        %d\n", rows)) {
			t.Errorf("%s: the plan does not say %d grid rows:\n%s", name, rows, b.String())
		}
		if why := (Limits{MaxPoints: 1000, MaxMemoryMiB: 1 << 40}).Exceeded(e); !strings.Contains(why, "--max-points") {
			t.Errorf("%s: the guard says %q, want the grid refused by --max-points", name, why)
		}
	}
}

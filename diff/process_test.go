package diff

import (
	"bytes"
	"strings"
	"testing"
)

// timed is the lesson's stream under failures in time, its checkpoint
// taking 5 minutes.
const timed = "name: t\nprobabilities: 1\nintervals: all\nthroughput: 0.3\ncheckpoint_time: 5m\nrestart_time: 10m\nmtbf: [6h, 24h]\n"

func TestDiffTime(t *testing.T) {
	// A cheaper checkpoint pays more often: at 6 h the least time moves
	// from every 6 periods to every 4.
	e := pair(t, timed, timed, "checkpoint_time=2m")
	if e.Time == nil || e.Status != StatusChanged {
		t.Fatalf("time %+v, status %s", e.Time, e.Status)
	}
	var text bytes.Buffer
	if err := Write(&text, &Report{Experiments: []Experiment{e}}, "text"); err != nil {
		t.Fatal(err)
	}
	want := "mtbf 6 h, restart 10 min, distribution exponential: least time picks 6 → 4 (2 h 23 min → 2 h 18 min, 17 % → 13 %)"
	if !strings.Contains(text.String(), want) {
		t.Errorf("report:\n%s\nwant a line with %q", text.String(), want)
	}
	if same := pair(t, timed, timed); same.Status != StatusSame || same.Time.timeDiffers() {
		t.Errorf("the same experiment: status %s, time %+v", same.Status, same.Time)
	}
}

// TestDiffTimeOff: without the time model the report has no time part,
// in text or in JSON.
func TestDiffTimeOff(t *testing.T) {
	e := pair(t, lesson, lesson, "workers=3")
	if e.Time != nil {
		t.Fatalf("time %+v without throughput", e.Time)
	}
	for _, format := range []string{"text", "json"} {
		var b bytes.Buffer
		if err := Write(&b, &Report{Experiments: []Experiment{e}}, format); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(b.String(), "failures in time") || strings.Contains(b.String(), `"time"`) {
			t.Errorf("%s report speaks of time:\n%s", format, b.String())
		}
	}
	// one side on, the other off: the on side's processes are its own
	on := pair(t, lesson, timed)
	if on.Time == nil || len(on.Time.OnlyNew) != 2 || on.Status != StatusChanged {
		t.Errorf("time %+v, status %s: want two processes of the new side", on.Time, on.Status)
	}
}

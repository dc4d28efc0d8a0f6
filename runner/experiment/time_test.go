package experiment

import (
	"slices"
	"strings"
	"testing"

	"ckptlab/model/process"
)

func TestTimeKeys(t *testing.T) {
	e, err := LoadBytes("x.yaml", []byte("name: x\nthroughput: 0.5\ncheckpoint_time: [90s, 5m, 300.5]\n"+
		"restart_time: {from: 0s, to: 1h, step: 30m}\nmtbf: [1.5h, 2d, 15m]\n"), Overrides{})
	if err != nil {
		t.Fatal(err)
	}
	want := &Time{Throughput: 0.5, Checkpoints: []float64{90, 300, 300.5}, Restarts: []float64{0, 1800, 3600},
		MTBFs: []float64{5400, 172800, 900}, Shapes: []float64{0.7}}
	if got := e.Time; got.Throughput != want.Throughput || !slices.Equal(got.Checkpoints, want.Checkpoints) ||
		!slices.Equal(got.Restarts, want.Restarts) || !slices.Equal(got.MTBFs, want.MTBFs) ||
		got.Distribution != process.Exponential || got.Replications != 0 {
		t.Errorf("time model %+v, want %+v", got, want)
	}
	if n := len(e.Time.Groups()); n != 27 {
		t.Errorf("%d groups, want 3 × 3 × 3", n)
	}
	var keys []string
	for _, s := range e.Settings() {
		keys = append(keys, s.Key+": "+s.Flow())
	}
	text := strings.Join(keys, "\n") + "\n"
	for _, line := range []string{"throughput: 0.5", "checkpoint_time: [90, 300, 300.5]", "restart_time: [0, 1800, 3600]",
		"mtbf: [5400, 172800, 900]", "failure_distribution: exponential", "replications: 0"} {
		if !strings.Contains(text, line+"\n") {
			t.Errorf("settings lack %q:\n%s", line, text)
		}
	}
	if strings.Contains(text, "weibull_shape") {
		t.Errorf("settings of an exponential model hold weibull_shape:\n%s", text)
	}
	if e.Origins["failure_distribution"] != OriginDefault || e.Origins["restart_time"] != "" || e.Origins["weibull_shape"] != "" {
		t.Errorf("origins %v: want failure_distribution's the default, restart_time's the file, no weibull_shape", e.Origins)
	}
}

// TestTimeOff: without throughput no key of the time model is set, written
// or given an origin.
func TestTimeOff(t *testing.T) {
	e, err := LoadBytes("x.yaml", []byte("name: x\n"), Overrides{})
	if err != nil {
		t.Fatal(err)
	}
	if e.Time != nil {
		t.Errorf("time model %+v without throughput", e.Time)
	}
	for _, s := range e.Settings() {
		if slices.Contains(timeKeys, s.Key) {
			t.Errorf("setting %s without throughput", s.Key)
		}
	}
	for _, key := range timeKeys {
		if _, ok := e.Origins[key]; ok {
			t.Errorf("origin of %s without throughput", key)
		}
	}
	if rows, dec := e.ProcessRows(); rows != 0 || dec != 0 {
		t.Errorf("process rows %d and %d without throughput", rows, dec)
	}
}

func TestTimeOverrides(t *testing.T) {
	e, err := LoadBytes("x.yaml", []byte("name: x\nthroughput: 1\ncheckpoint_time: 5m\nmtbf: 1h\n"),
		Overrides{Env: []string{"CKPTLAB_MTBF=[6h, 24h]"}, Sets: []string{"failure_distribution=weibull", "replications=100", "weibull_shape=[0.5, 1]"}})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(e.Time.MTBFs, []float64{21600, 86400}) || e.Time.Distribution != process.Weibull ||
		!slices.Equal(e.Time.Shapes, []float64{0.5, 1}) || e.Time.Replications != 100 {
		t.Errorf("time model %+v", e.Time)
	}
	if e.Origins["mtbf"] != "CKPTLAB_MTBF" || e.Origins["replications"] != OriginSet {
		t.Errorf("origins %v", e.Origins)
	}
}

func TestTimeErrors(t *testing.T) {
	const on = "throughput: 1\ncheckpoint_time: 5m\nmtbf: 1h\n"
	for _, c := range []struct {
		file string
		want []string
	}{
		{"throughput: 1\ncheckpoint_time: -5m\nmtbf: 1h\n",
			[]string{"x.yaml:3:18: checkpoint_time: -5m is a negative duration, not a checkpoint time (want a duration >= 0"}},
		{"throughput: 1\ncheckpoint_time: 5m\nmtbf: [1h, -3]\nrestart_time: -1s\n",
			[]string{"x.yaml:4:12: mtbf[1]: -3 is a negative duration", "x.yaml:5:15: restart_time: -1s is a negative duration"}},
		{"throughput: 1\ncheckpoint_time: 5m\nmtbf: 0s\n",
			[]string{"x.yaml:4:7: mtbf: 0s is not a mean time between failures (want a duration > 0"}},
		{"throughput: 0\ncheckpoint_time: 5m\nmtbf: 1h\n",
			[]string{"x.yaml:2:13: throughput: 0 is not a throughput (want a number > 0)"}},
		{"mtbf: 1h\n",
			[]string{"x.yaml:2:7: mtbf: has no effect without throughput"}},
		{"throughput: 2\n",
			[]string{"x.yaml:2:13: throughput: turns on the time model, which needs mtbf", "x.yaml:2:13: throughput: turns on the time model, which needs checkpoint_time"}},
		{on + "failure_distribution: weibull\n",
			[]string{"x.yaml:5:23: failure_distribution: weibull is simulated, not evaluated exactly: it needs replications > 0"}},
		{on + "failure_distribution: weibull\nreplications: 0\n",
			[]string{"x.yaml:5:23: failure_distribution: weibull is simulated"}},
		{on + "replications: 1000001\n",
			[]string{"x.yaml:5:15: replications: 1000001 is not a replication count (want <= 1000000, a safety cap)"}},
		{on + "weibull_shape: 2\n",
			[]string{"x.yaml:5:16: weibull_shape: applies to failure_distribution: weibull only"}},
		{on + "failure_distribution: normal\n",
			[]string{"x.yaml:5:23: failure_distribution: normal is not a failure distribution (want exponential or weibull)"}},
		{"throughput: 1\ncheckpoint_time: 5 minutes\nmtbf: 1h\n",
			[]string{"x.yaml:3:18: checkpoint_time: 5 minutes is not a checkpoint time"}},
		{"throughput: 1\ncheckpoint_time: 0s\nrestart_time: 0\nmtbf: 1h\n", nil},
	} {
		_, err := LoadBytes("x.yaml", []byte("name: x\n"+c.file), Overrides{})
		if c.want == nil {
			if err != nil {
				t.Errorf("%q: %v", c.file, err)
			}
			continue
		}
		if err == nil {
			t.Errorf("%q: no error, want %q", c.file, c.want)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%q:\n%v\nwant %q", c.file, err, w)
			}
		}
	}
}

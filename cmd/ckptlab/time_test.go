package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunTimeBadInput: a mistake in the keys of the time model is a located
// error, exit 2, and nothing is written.
func TestRunTimeBadInput(t *testing.T) {
	const on = "throughput: 1\ncheckpoint_time: 5m\nmtbf: 1h\n"
	for _, c := range []struct{ name, src, want string }{
		{"negative", "throughput: 1\ncheckpoint_time: -5m\nmtbf: 1h\n", ":3:18: checkpoint_time: -5m is a negative duration"},
		{"zero-mtbf", "throughput: 1\ncheckpoint_time: 5m\nmtbf: 0\n", ":4:7: mtbf: 0 is not a mean time between failures"},
		{"zero-throughput", "throughput: 0\ncheckpoint_time: 5m\nmtbf: 1h\n", ":2:13: throughput: 0 is not a throughput"},
		{"no-throughput", "mtbf: 1h\n", ":2:7: mtbf: has no effect without throughput"},
		{"weibull", on + "failure_distribution: weibull\n", ":5:23: failure_distribution: weibull is simulated"},
		{"replications", on + "replications: 2000000\n", ":5:15: replications: 2000000 is not a replication count (want <= 1000000, a safety cap)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := writeExperiment(t, "x.yaml", "name: x\n"+c.src)
			out := filepath.Join(t.TempDir(), "out")
			code, stdout, stderr := ckptlab("run", "-q", "-o", out, path)
			if code != exitBadUser || stdout != "" || !strings.Contains(stderr, path+c.want) {
				t.Errorf("run = %d\nstdout %q\nstderr %s\nwant %s%s", code, stdout, stderr, path, c.want)
			}
			if _, err := os.Stat(out); !os.IsNotExist(err) {
				t.Errorf("%s written: %v", out, err)
			}
		})
	}
}

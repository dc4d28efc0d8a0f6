package experiment

import (
	"slices"

	"ckptlab/model/process"
)

// checkTime checks the keys of the time model against each other: every
// other key needs throughput, throughput needs mtbf and checkpoint_time,
// weibull needs replications and weibull_shape needs weibull. A base
// (without name) is checked key by key only; the experiments extending it
// join its keys.
func (l *loader) checkTime(win map[string]*setting, got []*parsed) {
	if win["name"] == nil {
		return
	}
	val := func(key string) (*setting, *parsed) {
		if s := win[key]; s != nil && got[s.ID] != nil {
			return s, got[s.ID]
		}
		return nil, nil
	}
	fail := func(s *setting, format string, args ...any) {
		l.errs = append(l.errs, s.Place.errorAt(s.Node, "", format, args...))
	}
	tp := win["throughput"]
	if tp == nil {
		for _, key := range timeKeys[1:] {
			if s := win[key]; s != nil {
				fail(s, "has no effect without throughput (want throughput set, the rows per second the job processes, or %s removed)", key)
			}
		}
		return
	}
	for _, key := range []string{"mtbf", "checkpoint_time"} {
		if win[key] == nil {
			fail(tp, "turns on the time model, which needs %s (want %s set, such as %s: %s)", key, key, key,
				map[string]string{"mtbf": "24h", "checkpoint_time": "5m"}[key])
		}
	}
	ds, dv := val("failure_distribution")
	weibull := dv != nil && dv.Words[0] == process.Weibull.String()
	distKnown := win["failure_distribution"] == nil || ds != nil
	if s := win["weibull_shape"]; s != nil && distKnown && !weibull {
		fail(s, "applies to failure_distribution: weibull only (want failure_distribution: weibull, or weibull_shape removed)")
	}
	rs, rv := val("replications")
	if weibull && (win["replications"] == nil || rs != nil && rv.Ints[0] == 0) {
		fail(ds, "weibull is simulated, not evaluated exactly: it needs replications > 0 (want replications set, such as replications: 10000)")
	}
}

// fillTime puts the time model's values into e, when throughput is set;
// without it the keys have no origin either.
func (l *loader) fillTime(e *Experiment, value func(key string) *parsed) {
	v := value("throughput")
	if v == nil {
		for _, key := range timeKeys {
			delete(e.Origins, key)
		}
		return
	}
	t := &Time{Throughput: v.Floats[0], Restarts: []float64{0}, Shapes: []float64{0.7}}
	if v := value("checkpoint_time"); v != nil {
		t.Checkpoints = slices.Clone(v.Floats)
	}
	if v := value("restart_time"); v != nil {
		t.Restarts = slices.Clone(v.Floats)
	}
	if v := value("mtbf"); v != nil {
		t.MTBFs = slices.Clone(v.Floats)
	}
	if v := value("failure_distribution"); v != nil && v.Words[0] == process.Weibull.String() {
		t.Distribution = process.Weibull
	}
	if v := value("weibull_shape"); v != nil {
		t.Shapes = slices.Clone(v.Floats)
	}
	if v := value("replications"); v != nil {
		t.Replications = int(v.Ints[0])
	}
	if t.Distribution != process.Weibull {
		delete(e.Origins, "weibull_shape")
	}
	e.Time = t
}

package runner

import (
	"strconv"
	"strings"

	"ckptlab/model"
	"ckptlab/results"
)

// Config returns the resolved configuration, every key of the experiment
// file with its value after defaults and overrides, in YAML flow syntax.
func (e *Experiment) Config() [][2]string {
	intervals := "all"
	if !e.IntervalsAll {
		intervals = list(e.Intervals, func(k model.Interval) string { return k.String() })
	}
	failures := "all"
	if e.FailurePeriods != nil {
		failures = list(e.FailurePeriods, func(m model.Month) string { return m.String() })
	}
	itoa := strconv.Itoa
	return [][2]string{
		{"version", itoa(e.Version)},
		{"name", e.Name},
		{"description", strconv.Quote(e.Description)},
		{"seeds", list(e.Seeds, func(s uint32) string { return strconv.FormatUint(uint64(s), 10) })},
		{"subscribers", list(e.Subscribers, itoa)},
		{"periods", list(e.Periods, itoa)},
		{"start", e.Start.String()},
		{"missing", itoa(e.Missing)},
		{"duplicates", itoa(e.Duplicates)},
		{"partition_key", list(e.PartitionKeys, func(k model.PartitionKey) string { return k.String() })},
		{"workers", list(e.Workers, itoa)},
		{"state_rows", list(e.StateRows, itoa)},
		{"probabilities", list(e.Probabilities, func(p float64) string { return results.FloatValue(p).String() })},
		{"intervals", intervals},
		{"failure_period", e.FailurePeriod.String()},
		{"failure_periods", failures},
	}
}

func list[T any](values []T, format func(T) string) string {
	parts := make([]string, len(values))
	for i, v := range values {
		parts[i] = format(v)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// Set returns everything a run writes for the evaluated experiment in the
// given formats. The lesson's views are built only when a format shows them:
// a CSV-only run of a long sweep need not hold them in memory.
func (r *Result) Set(formats []string) results.Set {
	set := results.Set{
		Name:     r.Exp.Name,
		Grid:     r.GridTable(),
		Failures: r.FailuresTable(),
		Config:   r.Exp.Config(),
		Version:  Version,
	}
	if results.ShowsViews(formats) {
		set.Views = r.Views()
	}
	return set
}

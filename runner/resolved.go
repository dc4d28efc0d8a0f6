package runner

import (
	"strconv"
	"strings"

	"ckptlab/model"
	"ckptlab/results"
	"ckptlab/runner/experiment"
)

// Config returns the resolved configuration, every key of the experiment
// file with its value after defaults and overrides, in YAML flow syntax.
func Config(e *experiment.Experiment) []results.Setting {
	intervals := "all"
	if !e.IntervalsAll {
		intervals = list(e.Intervals, func(k model.Interval) string { return k.String() })
	}
	failures := "all"
	if e.FailurePeriods != nil {
		failures = list(e.FailurePeriods, func(m model.Month) string { return m.String() })
	}
	itoa := strconv.Itoa
	config := []results.Setting{
		{Key: "version", Value: itoa(e.Version)},
		{Key: "name", Value: e.Name},
		{Key: "description", Value: strconv.Quote(e.Description)},
		{Key: "seeds", Value: list(e.Seeds, func(s uint32) string { return strconv.FormatUint(uint64(s), 10) })},
		{Key: "subscribers", Value: list(e.Subscribers, itoa)},
		{Key: "periods", Value: list(e.Periods, itoa)},
		{Key: "start", Value: e.Start.String()},
		{Key: "missing", Value: itoa(e.Missing)},
		{Key: "duplicates", Value: itoa(e.Duplicates)},
		{Key: "partition_key", Value: list(e.PartitionKeys, func(k model.PartitionKey) string { return k.String() })},
		{Key: "workers", Value: list(e.Workers, itoa)},
		{Key: "state_rows", Value: list(e.StateRows, experiment.StateRowsText)},
		{Key: "risk_level", Value: results.FloatValue(e.RiskLevel).String()},
		{Key: "probabilities", Value: list(e.Probabilities, func(p float64) string { return results.FloatValue(p).String() })},
		{Key: "intervals", Value: intervals},
		{Key: "failure_period", Value: e.FailurePeriod.String()},
		{Key: "failure_periods", Value: failures},
	}
	if e.FailureWeights != nil {
		// only when set: with every failure of weight 1, the lesson's, the
		// configuration and its hash stay those of a file without the key
		config = append(config, results.Setting{Key: "failure_weights", Value: e.WeightsText()})
	}
	flow := func(v []string) string { return "[" + strings.Join(v, ", ") + "]" }
	float := func(p float64) string { return results.FloatValue(p).String() }
	if e.Cases != nil {
		cases := make([]string, len(e.Cases))
		for i, g := range e.Cases {
			cases[i] = "{" + g.Describe(flow, float) + "}"
		}
		config = append(config, results.Setting{Key: "cases", Value: "[" + strings.Join(cases, ", ") + "]"})
	}
	if e.Exclude != nil {
		entries := make([]string, len(e.Exclude))
		for i, x := range e.Exclude {
			entries[i] = "{" + x.Describe(flow, float) + "}"
		}
		config = append(config, results.Setting{Key: "exclude", Value: "[" + strings.Join(entries, ", ") + "]"})
	}
	for i := range config {
		config[i].Origin = e.Origins[config[i].Key]
	}
	return config
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
		Name:        r.Exp.Name,
		Description: r.Exp.Description,
		Grid:        r.GridTable(),
		Failures:    r.FailuresTable(),
		Decisions:   r.DecisionsTable(),
		Breakeven:   r.BreakevenTable(),
		Headline:    r.Headline(),
		Config:      Config(r.Exp),
		Version:     Version,
		Inputs:      r.Exp.Inputs(),
	}
	if results.ShowsViews(formats) {
		set.Views = r.Views()
		set.Charts = r.Charts()
		set.WhatIf = r.WhatIf()
	}
	return set
}

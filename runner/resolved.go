package runner

import (
	"ckptlab/results"
	"ckptlab/runner/experiment"
)

// Config returns the resolved configuration, every key of the experiment
// file with its value after defaults and overrides, in YAML flow syntax,
// in the order of the key table (experiment.Settings).
func Config(e *experiment.Experiment) []results.Setting {
	settings := e.Settings()
	config := make([]results.Setting, len(settings))
	for i, s := range settings {
		config[i] = results.Setting{Key: s.Key, Value: s.Flow(), Origin: e.Origins[s.Key]}
	}
	return config
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
		// the summary's decision maps read the best intervals alone, so
		// that a workbook makes its decisions once
		BestIntervals: r.BestIntervalsTable(),
		Breakeven:     r.BreakevenTable(),
		Answer:        r.answer(),
		Headline:      r.Headline(),
		Config:        Config(r.Exp),
		Version:       Version,
		Inputs:        r.Exp.Inputs(),
	}
	set.Process, set.ProcessDecisions = r.ProcessTables()
	set.Headline = append(set.Headline, r.timeHeadline()...)
	if results.ShowsViews(formats) {
		set.Views = r.Views()
		set.Charts = r.Charts()
		set.WhatIf = r.WhatIf()
		set.KeyFigures = r.KeyFigures()
		set.TimeCharts = r.TimeCharts()
	}
	return set
}

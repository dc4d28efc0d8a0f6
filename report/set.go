package report

import (
	"context"
	"sync"

	"ckptlab/answer"
	"ckptlab/results"
	"ckptlab/runner"
	"ckptlab/runner/experiment"
)

// result is an evaluated run as the presentation reads it: the result and
// what its tables, views and lines share, each made on first use.
type result struct {
	*runner.Evaluation

	excluderOnce sync.Once
	excl         *experiment.Excluder

	schedules scheduleMemo // the best schedules found, for the tables read again

	answerOnce sync.Once
	ans        *answer.Answer

	timeOnce sync.Once
	time     []*answer.Time // the time model's answer (process.go)
}

// newResult returns the presentation of an evaluated run.
func newResult(r *runner.Evaluation) *result { return &result{Evaluation: r} }

// excluder returns the index of the experiment's exclude entries, made on
// first use and shared by the writers of every table.
func (r *result) excluder() *experiment.Excluder {
	r.excluderOnce.Do(func() { r.excl = r.Exp.Excluder() })
	return r.excl
}

// Set returns everything a run writes for the evaluated run r in the given
// formats, or the cause of ctx as soon as ctx is done. The views take time
// to build for a long sweep and do not look at ctx: they are left to the
// exiting process.
func Set(ctx context.Context, r *runner.Evaluation, formats []string) (results.Set, error) {
	done := make(chan results.Set, 1)
	go func() { done <- newResult(r).set(formats) }()
	select {
	case set := <-done:
		return set, nil
	case <-ctx.Done():
		return results.Set{}, context.Cause(ctx)
	}
}

// set returns everything a run writes in the given formats. The lesson's
// views are built only when a format shows them: a CSV-only run of a long
// sweep need not hold them in memory.
func (r *result) set(formats []string) results.Set {
	set := results.Set{
		Name:        r.Exp.Name,
		Description: r.Exp.Description,
		Grid:        r.gridTable(),
		Failures:    r.failuresTable(),
		Decisions:   r.decisionsTable(),
		// the summary's decision maps read the best intervals alone, so
		// that a workbook makes its decisions once
		BestIntervals: r.bestIntervalsTable(),
		Breakeven:     r.breakevenTable(),
		Answer:        r.answer(),
		Headline:      r.headline(),
		Config:        runner.Config(r.Exp),
		Version:       runner.Version,
		Inputs:        r.Exp.Inputs(),
	}
	set.Process, set.ProcessDecisions = r.processTables()
	set.Headline = append(set.Headline, r.timeHeadline()...)
	if results.ShowsViews(formats) {
		set.Views = r.views()
		set.Charts = r.charts()
		set.WhatIf = r.whatIf()
		set.KeyFigures = r.keyFigures()
		set.TimeCharts = r.timeCharts()
	}
	return set
}

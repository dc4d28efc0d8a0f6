package folder_test

import (
	"context"
	"testing"

	"ckptlab/report"
	"ckptlab/results"
	"ckptlab/runner"
	"ckptlab/runner/experiment"
)

// lessonSet returns the set of the lesson's experiment.
func lessonSet(t testing.TB) results.Set {
	t.Helper()
	e := experiment.Lesson("lesson")
	res, err := runner.Evaluate(context.Background(), &e, runner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	set, err := report.Set(context.Background(), res, []string{results.FormatCSV, results.FormatXLSX, results.FormatMD})
	if err != nil {
		t.Fatal(err)
	}
	return set
}

package runner

import (
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"ckptlab/model"
	"ckptlab/results"
	"ckptlab/runner/experiment"
)

// WritePlan writes what a run of e would do, without doing it: every key
// with its values (long axes shortened), the number of sources, grid rows
// and failures rows, and the files it would write under outDir in the
// given formats (csv, xlsx, md), as results.Files names them. A value that
// is not the file's is followed by where it came from, as experiment.yaml
// records it: # default, # CKPTLAB_<KEY>, # --set. The memory figure is
// that of limits.Jobs goroutines; when a run would pass one of the limits,
// a line "refused" says which and how to run it anyway. A zero Limits
// checks nothing.
func WritePlan(w io.Writer, e *experiment.Experiment, outDir string, formats []string, limits Limits) error {
	known := []string{results.FormatCSV, results.FormatXLSX, results.FormatMD, results.FormatJSON}
	for _, f := range formats {
		if !slices.Contains(known, f) {
			return fmt.Errorf("%q is not a format (want %s)", f, experiment.OrList(known))
		}
	}
	var b strings.Builder
	line := func(key, value string) {
		if origin := e.Origins[key]; origin != "" {
			value += "  # " + origin
		}
		fmt.Fprintf(&b, "  %-16s %s\n", key, value)
	}
	fmt.Fprintf(&b, "%s  %s\n", e.Name, e.File)
	if e.Description != "" {
		line("description", e.Description)
	}
	line("version", strconv.Itoa(e.Version))
	line("seeds", planList(e.Seeds, func(s uint32) string { return strconv.FormatUint(uint64(s), 10) }))
	line("subscribers", planList(e.Subscribers, strconv.Itoa))
	line("periods", planList(e.Periods, strconv.Itoa))
	line("partition_key", planList(e.PartitionKeys, model.PartitionKey.String))
	line("workers", planList(e.Workers, strconv.Itoa))
	line("state_rows", planList(e.StateRows, experiment.StateRowsText))
	line("risk_level", experiment.ShortFloat(e.RiskLevel))
	line("probabilities", planList(e.Probabilities, experiment.ShortFloat))
	if e.IntervalsAll {
		line("intervals", "all (none and 1..P for each periods value P)")
	} else {
		line("intervals", planList(e.Intervals, model.Interval.String))
	}
	line("start", e.Start.String())
	line("missing", strconv.Itoa(e.Missing))
	line("duplicates", strconv.Itoa(e.Duplicates))
	line("failure_period", e.FailurePeriod.String())
	if e.FailurePeriods == nil {
		line("failure_periods", "all (every period but the first)")
	} else {
		line("failure_periods", planList(e.FailurePeriods, model.Month.String))
	}
	if e.FailureWeights != nil {
		line("failure_weights", e.WeightsText()+" (every other failure 1)")
	}
	writeCases(line, e)
	sizes := e.Sizes()
	line("sources", CountText(sizes.Sources))
	line("grid rows", CountText(sizes.GridRows))
	line("failures rows", CountText(sizes.FailureRows))
	line("memory", "at most "+MiB(MemoryBytes(e, limits.Jobs, formats)))
	if limits.MaxPoints > 0 {
		limits.Formats = formats
		if why := limits.Exceeded(e); why != "" {
			line("refused", "a run would be refused: "+why)
		}
	}
	key := "writes"
	for _, name := range results.Files(e.Name, formats) {
		line(key, filepath.Join(outDir, e.Name, name))
		key = ""
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeCases writes a line per case, with its sizes, and per exclude entry.
func writeCases(line func(key, value string), e *experiment.Experiment) {
	for i, g := range e.Cases {
		what := g.Describe(planValues, experiment.ShortFloat)
		if len(g.Keys) == 0 {
			what = "the file's axes"
		}
		sz := e.GridSizes(&g)
		line(firstOnly(i, "cases"), fmt.Sprintf("[%d] %s: %s, %s grid rows, %s failures rows",
			i, what, countNoun(sz.Sources, "source"), CountText(sz.GridRows), CountText(sz.FailureRows)))
	}
	for i, x := range e.Exclude {
		line(firstOnly(i, "exclude"),
			fmt.Sprintf("[%d] %s", i, x.Describe(planValues, experiment.ShortFloat)))
	}
}

// firstOnly returns key for the first of a list's lines (i is 0), and ""
// for the others, which go on below it.
func firstOnly(i int, key string) string {
	if i > 0 {
		return ""
	}
	return key
}

// countNoun writes a count and its noun.
func countNoun(n int64, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return CountText(n) + " " + noun + "s"
}

// planValues writes the values of one key of a case or an exclude entry:
// one value bare, several in brackets, many shortened.
func planValues(v []string) string {
	if len(v) == 1 {
		return v[0]
	}
	if len(v) > experiment.LongAxis {
		return fmt.Sprintf("[%s, … %s] (%d values)", strings.Join(v[:experiment.ShownOfLong], ", "), v[len(v)-1], len(v))
	}
	return "[" + strings.Join(v, ", ") + "]"
}

// planList writes the values of an axis, shortening a long one to its
// first values, an ellipsis and its last value: "0, 0.05, 0.1, … 1 (21 values)".
func planList[T any](values []T, format func(T) string) string {
	if len(values) <= experiment.LongAxis {
		s := make([]string, len(values))
		for i, v := range values {
			s[i] = format(v)
		}
		return strings.Join(s, ", ")
	}
	s := make([]string, experiment.ShownOfLong)
	for i := range s {
		s[i] = format(values[i])
	}
	return fmt.Sprintf("%s, … %s (%d values)", strings.Join(s, ", "), format(values[len(values)-1]), len(values))
}

// CountText writes a count of the experiment's sizes, saying so when it
// saturated.
func CountText(n int64) string {
	if n == math.MaxInt64 {
		return "more than " + strconv.FormatInt(n-1, 10)
	}
	return strconv.FormatInt(n, 10)
}

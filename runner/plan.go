package runner

import (
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"ckptlab/internal/words"
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
			return fmt.Errorf("%q is not a format (want %s)", f, words.Or(known))
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
	writeSettings(line, e)
	sizes := e.Sizes()
	line("sources", countText(sizes.Sources))
	line("grid rows", countText(sizes.GridRows))
	line("failures rows", countText(sizes.FailureRows))
	if e.Time != nil {
		rows, decisions := e.ProcessRows()
		line("process rows", countText(rows))
		line("process decisions", countText(decisions)+" rows")
	}
	line("memory", "at most "+MiB(MemoryBytes(e, limits.Jobs, formats)))
	if limits.MaxPoints > 0 {
		limits.Formats = formats
		if why := limits.Exceeded(e); why != "" {
			line("refused", "a run would be refused: "+why)
		}
	}
	key := "writes"
	for _, name := range results.FilesOf(e.Name, formats, e.Time != nil) {
		line(key, filepath.Join(outDir, e.Name, name))
		key = ""
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeSettings writes a line per key the experiment sets, in the order of
// the key table (experiment.Settings), the name aside: it heads the plan.
// An axis is shortened when long, a case or an exclude entry has a line of
// its own.
func writeSettings(line func(key, value string), e *experiment.Experiment) {
	for _, s := range e.Settings() {
		switch {
		case s.Key == "name": // the heading
		case s.Key == "description" && e.Description == "":
		case s.Key == "cases":
			writeCases(line, e)
		case s.Key == "exclude":
			writeExclude(line, e)
		case s.Key == "replications":
			line(s.Key, s.Values[0]+" per point (at most "+countText(experiment.MaxReplications)+")")
		case s.Key == "failure_weights":
			line(s.Key, s.Values[0]+" (every other failure 1)")
		case s.All:
			line(s.Key, "all ("+allMeans[s.Key]+")")
		case s.List:
			line(s.Key, planList(s.Values))
		default:
			line(s.Key, s.Values[0])
		}
	}
}

// allMeans says what the word all stands for, by key.
var allMeans = map[string]string{
	"intervals":       "none and 1..P for each periods value P",
	"failure_periods": "every period but the first",
}

// writeCases writes a line per case, with its sizes.
func writeCases(line func(key, value string), e *experiment.Experiment) {
	for i, g := range e.Cases {
		what := g.Describe(planValues, words.Float)
		if len(g.Keys) == 0 {
			what = "the file's axes"
		}
		sz := e.GridSizes(&g)
		line(firstOnly(i, "cases"), fmt.Sprintf("[%d] %s: %s, %s grid rows, %s failures rows",
			i, what, countNoun(sz.Sources, "source"), countText(sz.GridRows), countText(sz.FailureRows)))
	}
}

// writeExclude writes a line per exclude entry.
func writeExclude(line func(key, value string), e *experiment.Experiment) {
	for i, x := range e.Exclude {
		line(firstOnly(i, "exclude"),
			fmt.Sprintf("[%d] %s", i, x.Describe(planValues, words.Float)))
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
	return countText(n) + " " + noun + "s"
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
func planList(values []string) string {
	if len(values) <= experiment.LongAxis {
		return strings.Join(values, ", ")
	}
	return fmt.Sprintf("%s, … %s (%d values)", strings.Join(values[:experiment.ShownOfLong], ", "), values[len(values)-1], len(values))
}

// countText writes a count of the experiment's sizes, saying so when it
// saturated.
func countText(n int64) string {
	if n == math.MaxInt64 {
		return "more than " + strconv.FormatInt(n-1, 10)
	}
	return strconv.FormatInt(n, 10)
}

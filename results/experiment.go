package results

import (
	"bufio"
	"io"
	"strconv"
	"strings"
)

// ExperimentFile is the file of a set that records the resolved experiment
// the run evaluated (docs/outputs.md#the-output-folder).
const ExperimentFile = "experiment.yaml"

// ExperimentHeader starts every experiment.yaml ckptlab writes.
const ExperimentHeader = "# The resolved experiment of the run that wrote this folder"

// RerunCommand runs the experiment.yaml of a set again from the set's
// folder: it replaces that folder, OUT/<name>/, with a fresh set.
const RerunCommand = "ckptlab run -o .. " + ExperimentFile

// WriteExperiment writes experiment.yaml: the resolved configuration as an
// experiment file a user can run again, every key with the value that took
// effect and, for a value that did not come from the experiment file, a
// comment saying where it came from (# default, # CKPTLAB_STATE_ROWS,
// # --set). It answers, for a folder of results, which settings made them.
func (s Set) WriteExperiment(w io.Writer) error {
	bw := bufio.NewWriter(w)
	bw.WriteString(ExperimentHeader)
	if s.Version != "" {
		bw.WriteString(", ckptlab " + s.Version)
	}
	bw.WriteString(".\n# A comment names where a value that is not the experiment file's came from.\n")
	bw.WriteString("# Run it again, from this folder, with: " + RerunCommand + "\n")
	bw.WriteString("# (it replaces this folder whole: cd . to see the new one)\n")
	for _, kv := range s.Config {
		bw.WriteString(kv.Key + ": " + kv.Value)
		if kv.Origin != "" {
			bw.WriteString("  # " + strings.ReplaceAll(kv.Origin, "\n", " "))
		}
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

// PlainValue returns a value of the resolved configuration, in YAML flow
// syntax, as a reader writes it: a quoted string without its quotes, a
// list without its brackets.
func PlainValue(v string) string {
	if strings.HasPrefix(v, `"`) {
		if u, err := strconv.Unquote(v); err == nil {
			return u
		}
	}
	if strings.HasPrefix(v, "[") && strings.HasSuffix(v, "]") {
		return v[1 : len(v)-1]
	}
	return v
}

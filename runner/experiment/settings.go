package experiment

import (
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"ckptlab/internal/words"
	"ckptlab/model"
)

// A Setting is one key of a resolved experiment with its value, each value
// written as an experiment file writes it.
type Setting struct {
	Key string
	// Values holds the one value of a scalar, or the values of a list.
	Values []string
	// List marks an axis or another list (cases, exclude): its values are
	// written in brackets.
	List bool
	// All marks the word all (intervals, failure_periods), which stands
	// for a list that depends on the periods; Values is then empty.
	All bool
	// Quoted marks free text (description), which flow syntax quotes.
	Quoted bool
}

// Flow writes the setting's value in YAML flow syntax, as experiment.yaml
// holds it: a scalar as it is, a list in brackets, the word all bare.
func (s Setting) Flow() string {
	switch {
	case s.All:
		return "all"
	case s.List:
		return "[" + strings.Join(s.Values, ", ") + "]"
	case s.Quoted:
		return strconv.Quote(s.Values[0])
	}
	return s.Values[0]
}

// Settings returns every key the resolved experiment sets, in the order of
// the key table, which the JSON Schema has too: experiment.yaml and the
// plan of a run list them so. extends is none of them (a resolved
// experiment has its bases' values and no bases), nor are failure_weights,
// cases and exclude when the experiment leaves them out.
func (e *Experiment) Settings() []Setting {
	out := make([]Setting, 0, len(keyTable))
	for _, d := range keyTable {
		value := settingOf[d.Name]
		if value == nil {
			continue
		}
		if s, ok := value(e); ok {
			s.Key = d.Name
			out = append(out, s)
		}
	}
	return out
}

// settingOf gives, by key, the setting of a resolved experiment and
// whether it sets the key. Every key of the key table but extends has one
// (TestEveryKeyHasASetting).
var settingOf = map[string]func(e *Experiment) (Setting, bool){
	"version": func(e *Experiment) (Setting, bool) { return scalar(strconv.Itoa(e.Version)), true },
	"name": func(e *Experiment) (Setting, bool) {
		return Setting{Values: []string{e.Name}, Quoted: !readsAsText(e.Name)}, true
	},
	"description": func(e *Experiment) (Setting, bool) {
		return Setting{Values: []string{e.Description}, Quoted: true}, true
	},
	"seeds": func(e *Experiment) (Setting, bool) {
		return list(e.Seeds, func(s uint32) string { return strconv.FormatUint(uint64(s), 10) }), true
	},
	"subscribers": func(e *Experiment) (Setting, bool) { return list(e.Subscribers, strconv.Itoa), true },
	"periods":     func(e *Experiment) (Setting, bool) { return list(e.Periods, strconv.Itoa), true },
	"start":       func(e *Experiment) (Setting, bool) { return scalar(e.Start.String()), true },
	"missing":     func(e *Experiment) (Setting, bool) { return scalar(strconv.Itoa(e.Missing)), true },
	"duplicates":  func(e *Experiment) (Setting, bool) { return scalar(strconv.Itoa(e.Duplicates)), true },
	"partition_key": func(e *Experiment) (Setting, bool) {
		return list(e.PartitionKeys, model.PartitionKey.String), true
	},
	"workers":       func(e *Experiment) (Setting, bool) { return list(e.Workers, strconv.Itoa), true },
	"state_rows":    func(e *Experiment) (Setting, bool) { return list(e.StateRows, stateRowsText), true },
	"risk_level":    func(e *Experiment) (Setting, bool) { return scalar(words.Float(e.RiskLevel)), true },
	"probabilities": func(e *Experiment) (Setting, bool) { return list(e.Probabilities, words.Float), true },
	"intervals": func(e *Experiment) (Setting, bool) {
		if e.IntervalsAll {
			return Setting{All: true}, true
		}
		return list(e.Intervals, model.Interval.String), true
	},
	"failure_period": func(e *Experiment) (Setting, bool) { return scalar(e.FailurePeriod.String()), true },
	"failure_periods": func(e *Experiment) (Setting, bool) {
		if e.FailurePeriods == nil {
			return Setting{All: true}, true
		}
		return list(e.FailurePeriods, model.Month.String), true
	},
	// only when set: with every failure of weight 1, the lesson's, the
	// resolved experiment and its hash stay those of a file without the key
	"failure_weights": func(e *Experiment) (Setting, bool) {
		return scalar(e.WeightsText()), e.FailureWeights != nil
	},
	"throughput":           timeSetting("throughput"),
	"checkpoint_time":      timeSetting("checkpoint_time"),
	"restart_time":         timeSetting("restart_time"),
	"mtbf":                 timeSetting("mtbf"),
	"failure_distribution": timeSetting("failure_distribution"),
	"weibull_shape":        timeSetting("weibull_shape"),
	"replications":         timeSetting("replications"),
	"cases": func(e *Experiment) (Setting, bool) {
		return list(e.Cases, func(g Grid) string { return "{" + g.Describe(flowList, words.Float) + "}" }), e.Cases != nil
	},
	"exclude": func(e *Experiment) (Setting, bool) {
		return list(e.Exclude, func(x Exclusion) string { return "{" + x.Describe(flowList, words.Float) + "}" }), e.Exclude != nil
	},
}

func scalar(v string) Setting { return Setting{Values: []string{v}} }

// readsAsText reports whether YAML reads s, written bare, as the text s: a
// name such as 2026 or true is quoted, so that experiment.yaml and JSON
// read it back as a name.
func readsAsText(s string) bool {
	var v any
	err := yaml.Unmarshal([]byte(s), &v)
	text, ok := v.(string)
	return err == nil && ok && text == s
}

func list[T any](values []T, format func(T) string) Setting {
	return Setting{Values: words.Format(values, format), List: true}
}

// flowList writes values as a YAML flow sequence.
func flowList(values []string) string { return "[" + strings.Join(values, ", ") + "]" }

package diff

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"ckptlab/internal/words"
	"ckptlab/results"
	"ckptlab/runner/experiment"
)

// The time model's decisions (SPEC 15): the table and the columns that name
// a row, the source's keys and the failure process.
const processDecisionsTable = "process_decisions"

var processKey = func() []string {
	key := experiment.Columns(experiment.SourceLevel, experiment.ProcessLevel)
	return slices.Insert(key, slices.Index(key, "shape"), "distribution")
}()

// figureSuffixes end the names of the columns that are a choice's figures,
// not the choice: a choice changed when one of its other columns did.
var figureSuffixes = []string{"_seconds", "_fraction", "_periods"}

func isFigure(name string) bool {
	return slices.ContainsFunc(figureSuffixes, func(s string) bool { return strings.HasSuffix(name, s) })
}

// hasTime reports whether a side's experiment has the time model on.
func hasTime(s *Side) bool { return settingValue(s.Settings, "throughput") != "" }

// compareTime compares process_decisions.csv of two sides with the time
// model: for each failure process in both, each choice that changed (the
// best declared interval, the optimum over every interval, the schedule),
// and the processes of one side only. It is nil when neither side has the
// model.
func compareTime(old, new *Side) (*Decisions, error) {
	out := &Decisions{Changed: []DecisionChange{}, OnlyOld: []Key{}, OnlyNew: []Key{}}
	oh, nh := hasTime(old), hasTime(new)
	if !oh && !nh {
		return nil, nil
	}
	read := func(s *Side, has bool) (*table, error) {
		if !has {
			return &table{header: processKey}, nil
		}
		t, err := readTable(s, processDecisionsTable)
		if err != nil {
			return nil, err
		}
		_, err = columns(t.header, processKey, s.Label, processDecisionsTable)
		return t, err
	}
	ot, err := read(old, oh)
	if err != nil {
		return out, err
	}
	nt, err := read(new, nh)
	if err != nil {
		return out, err
	}
	// A key of one value in each side, another one, moved: its rows pair
	// up across the move (checkpoint_time 5m → 4m).
	moved := map[string]bool{}
	for _, name := range processKey {
		ov, ook := single(ot, name)
		nv, nok := single(nt, name)
		moved[name] = ook && nok && ov != nv
	}
	key := without(processKey, moved)
	oi, _ := columns(ot.header, key, old.Label, processDecisionsTable)
	ni, _ := columns(nt.header, key, new.Label, processDecisionsTable)
	d := pairRows(ot, nt, oi, ni, criteria(nt.header, ni), isFigure)
	return &d, nil
}

// timeDiffers reports whether the time model's decisions differ.
func (d *Decisions) timeDiffers() bool {
	return d != nil && len(d.Changed)+len(d.OnlyOld)+len(d.OnlyNew) > 0
}

// timePart is the report's part on the time model, when a side has it.
func timePart(e *Experiment) part {
	d := e.Time
	p := part{title: "failures in time"}
	if !d.timeDiffers() {
		p.head = "unchanged"
		return p
	}
	p.head = fmt.Sprintf("%d %s changed", len(d.Changed), words.Plural(len(d.Changed), "choice", "choices"))
	p.head += onlyText(len(d.OnlyOld), len(d.OnlyNew), "failure process", "failure processes")
	for _, c := range d.Changed {
		p.lines = append(p.lines, processKeyText(c.Key)+": "+timeChoiceText(c))
	}
	for _, k := range d.OnlyOld {
		p.lines = append(p.lines, "only in the old side: "+processKeyText(k))
	}
	for _, k := range d.OnlyNew {
		p.lines = append(p.lines, "only in the new side: "+processKeyText(k))
	}
	return p
}

// timeCriteria names the choices of process_decisions.csv.
var timeCriteria = map[string]string{"best": "least time", "optimal": "optimum over every interval", "schedule": "schedule"}

// timeChoiceText writes a changed choice with its figures in units:
// least time picks 6 → 4 (2 h 23 min → 2 h 20 min, 17 % → 15 %).
func timeChoiceText(c DecisionChange) string {
	name := timeCriteria[c.Criterion]
	if name == "" {
		name = strings.ReplaceAll(c.Criterion, "_", " ")
	}
	var choice, figures []string
	for i := range c.New {
		o, n := c.Old[i], c.New[i]
		switch {
		case isFigure(n.Column):
			figures = append(figures, figureText(n.Column, o.Value)+" → "+figureText(n.Column, n.Value))
		case o.Value != n.Value || len(c.New) <= 3:
			choice = append(choice, orEmpty(o.Value)+" → "+orEmpty(n.Value))
		}
	}
	out := name + " picks " + strings.Join(choice, ", ")
	if len(figures) > 0 {
		out += " (" + strings.Join(figures, ", ") + ")"
	}
	return out
}

// figureText writes a figure of process_decisions.csv as a person reads it.
func figureText(column, v string) string {
	f, err := strconv.ParseFloat(v, 64)
	switch {
	case err != nil:
		return orEmpty(v)
	case strings.HasSuffix(column, "_seconds"):
		return results.Duration(f)
	case strings.HasSuffix(column, "_fraction"):
		return results.Percent(f)
	}
	return results.Figure(f)
}

// processKeyText names a failure process by its key, durations in units
// and the shape only for Weibull.
func processKeyText(k Key) string {
	var parts []string
	for _, c := range k {
		switch {
		case c.Value == "":
		case strings.HasSuffix(c.Column, "_seconds"):
			parts = append(parts, strings.TrimSuffix(c.Column, "_seconds")+" "+figureText(c.Column, c.Value))
		default:
			parts = append(parts, c.Column+" "+c.Value)
		}
	}
	return strings.Join(parts, ", ")
}

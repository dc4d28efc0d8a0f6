package experiment

import (
	"ckptlab/internal/words"
	"math"
	"regexp"
	"strconv"
)

// Safety caps. They keep the month arithmetic, the counts of the plan and
// the memory of one experiment within bounds; every message that refuses a
// value above a cap says so.
const (
	maxSubscribers = 1_000_000_000
	maxPeriods     = 12 * 1000 // a thousand years of months
	maxWorkers     = 1_000_000
	maxStateRows   = 1_000_000_000_000
	maxFaults      = 1_000_000_000
	maxAxisValues  = 1_000_000 // values one range may expand to
	maxSeed        = 1<<32 - 1
	maxWeight      = 1_000_000 // of one failure period (failure_weights)
	// MaxReplications bounds the Monte Carlo runs of one point of the time
	// model (replications); plan states it.
	MaxReplications = 1_000_000
)

// namePattern is what a name must match: it names the output folder, so it
// must not climb out of it, hold a separator or start a hidden file.
var namePattern = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,63}$`)

// valueType is the type of one value of a key.
type valueType int

const (
	typeInt      valueType = iota // a whole number within Min..Max
	typeFloat                     // a number within FMin..FMax
	typeText                      // any text
	typeName                      // text matching namePattern
	typeMonth                     // a period label YYYY-MM
	typeEnum                      // one of Enum
	typeInterval                  // none or a whole number within Min..Max
	typeCases                     // a list of cases, mappings of axis keys (docs/experiments.md#cases-and-exclusions)
	typeExclude                   // a list of exclude entries (docs/experiments.md#cases-and-exclusions)
	typePaths                     // paths of files, one or a list (extends)
	typeWeights                   // a mapping of period labels to whole numbers within Min..Max
	typeDuration                  // seconds within FMin..FMax: a number, or a number with a unit s, m, h, d
)

// keyDef defines one key of an experiment file. The table of keyDefs
// drives both the validator and the JSON Schema, so the two cannot drift.
type keyDef struct {
	Name     string
	Doc      string    // one sentence for the schema
	Type     valueType //
	Many     bool      // takes a list of values as well as a single one
	Range    bool      // takes a range {from, to, step}
	All      bool      // takes the word all, meaning every value
	Label    bool      // a period label in the 2nd..last period of every periods value
	Required bool      //
	Min, Max int64     // bounds of typeInt and typeInterval, inclusive
	Cap      bool      // Max is a safety cap, not a property of the value
	FMin     float64   // bounds of typeFloat, inclusive
	FMax     float64   //
	Enum     []string  // the words of typeEnum
	Word     string    // typeInt: a word that stands for a value (state_rows: subscribers)
	Below    bool      // typeFloat: FMax itself is excluded
	Above    bool      // typeFloat, typeDuration: FMin itself is excluded
	Noun     string    // what one value is, for messages: "worker count"
	Default  any       // the lesson's value, for the schema
}

// keyTable lists every key of an experiment file, in the order of the
// README's example file. It is the one list of the keys: the JSON Schema,
// the resolved experiment (Settings: experiment.yaml, its hash, the plan)
// and the messages take their names and order from it.
var keyTable = []*keyDef{
	{Name: "version", Doc: "Schema version of the file; 1 is the only one so far.",
		Type: typeInt, Min: 1, Max: 1, Noun: "supported version", Default: 1},
	{Name: extendsKey, Doc: "Bases of the file: the path of an experiment file without name, relative to this file, or a list of them applied in order; the file's own keys replace theirs.",
		Type: typePaths, Noun: "path"},
	{Name: "name", Doc: "Name of the experiment; names the output folder OUT/<name>. A file without name is a base, which other files extend.",
		Type: typeName, Noun: "name"},
	{Name: "description", Doc: "What the experiment is for, in a sentence.",
		Type: typeText, Noun: "description", Default: ""},
	{Name: "seeds", Doc: "Seeds of the generated source: an axis of whole numbers 0..4294967295.",
		Type: typeInt, Many: true, Range: true, Min: 0, Max: maxSeed, Noun: "seed", Default: 20260218},
	{Name: "subscribers", Doc: "Subscribers N of the generated source: an axis of whole numbers >= 1.",
		Type: typeInt, Many: true, Range: true, Min: 1, Max: maxSubscribers, Cap: true,
		Noun: "subscriber count", Default: 200},
	{Name: "periods", Doc: "Periods P of the generated source: an axis of whole numbers >= 2.",
		Type: typeInt, Many: true, Range: true, Min: 2, Max: maxPeriods, Cap: true,
		Noun: "period count", Default: 12},
	{Name: "start", Doc: "Label of the first period, YYYY-MM.",
		Type: typeMonth, Noun: "month", Default: "2026-01"},
	{Name: "missing", Doc: "Records whose index field a fault removes: a whole number >= 0.",
		Type: typeInt, Min: 0, Max: maxFaults, Cap: true, Noun: "count of missing records", Default: 0},
	{Name: "duplicates", Doc: "Records a fault duplicates: a whole number >= 0.",
		Type: typeInt, Min: 0, Max: maxFaults, Cap: true, Noun: "count of duplicates", Default: 0},
	{Name: "partition_key", Doc: "Field of a stream row that distributes rows over workers: an axis.",
		Type: typeEnum, Many: true, Enum: []string{"subscriber", "region", "type"},
		Noun: "partition key", Default: "subscriber"},
	{Name: "workers", Doc: "Workers the stream is partitioned over: an axis of whole numbers >= 1.",
		Type: typeInt, Many: true, Range: true, Min: 1, Max: maxWorkers, Cap: true,
		Noun: "worker count", Default: 4},
	{Name: "state_rows", Doc: "Rows of state one checkpoint makes durable: an axis of whole numbers >= 0 or the word subscribers (= N, one state row per subscriber).",
		Type: typeInt, Many: true, Range: true, Min: 0, Max: maxStateRows, Cap: true, Word: "subscribers",
		Noun: "state row count", Default: "subscribers"},
	{Name: "risk_level", Doc: "Risk level alpha of the tail criterion: tail_total is the mean cost of the worst 1-alpha share of runs; a number in [0, 1).",
		Type: typeFloat, FMin: 0, FMax: 1, Below: true, Noun: "risk level", Default: 0.95},
	{Name: "probabilities", Doc: "Probabilities that a failure occurs in a run: an axis of numbers in 0..1.",
		Type: typeFloat, Many: true, Range: true, FMin: 0, FMax: 1,
		Noun: "probability", Default: []any{1.0, 0.75, 0.5, 0.25}},
	{Name: "intervals", Doc: "Checkpoint intervals in periods: an axis of none and 1..P, or all (none, 1..P).",
		Type: typeInterval, Many: true, Range: true, All: true, Min: 1, Max: maxPeriods,
		Noun: "interval", Default: []any{"none", 6, 4, 3, 2, 1}},
	{Name: "failure_period", Doc: "The one named failure, a period label in the 2nd..last period of every periods value.",
		Type: typeMonth, Label: true, Noun: "period label", Default: "2026-09"},
	{Name: "failure_periods", Doc: "Failures averaged over: all (every period but the first) or a list of period labels.",
		Type: typeMonth, Many: true, All: true, Label: true, Noun: "period label", Default: "all"},
	{Name: "failure_weights", Doc: "Weights of the failures of the failure set: a mapping of period labels to whole numbers >= 0; a failure not listed weighs 1. Failure f counts w_f/W of the failures in every criterion, W the total weight.",
		Type: typeWeights, Label: true, Min: 0, Max: maxWeight, Cap: true, Noun: "failure weight", Default: map[string]any{}},
	{Name: "throughput", Doc: "Rows per second the job processes, and replays after a failure: a number > 0. Setting it turns on the time model of failures (mtbf, checkpoint_time, restart_time).",
		Type: typeFloat, FMin: 0, Above: true, FMax: math.Inf(1), Noun: "throughput"},
	{Name: "checkpoint_time", Doc: "Duration of one checkpoint: an axis of durations >= 0, seconds or a number with a unit (90s, 5m, 1.5h, 2d); required with throughput.",
		Type: typeDuration, Many: true, Range: true, FMin: 0, FMax: math.Inf(1), Noun: "checkpoint time"},
	{Name: "restart_time", Doc: "Duration of a restart before the replay begins: an axis of durations >= 0.",
		Type: typeDuration, Many: true, Range: true, FMin: 0, FMax: math.Inf(1), Noun: "restart time", Default: "0s"},
	{Name: "mtbf", Doc: "Mean time between failures: an axis of durations > 0; required with throughput.",
		Type: typeDuration, Many: true, Range: true, FMin: 0, Above: true, FMax: math.Inf(1), Noun: "mean time between failures"},
	{Name: "failure_distribution", Doc: "Distribution of the times between failures: exponential, or weibull (simulated only: needs replications).",
		Type: typeEnum, Enum: []string{"exponential", "weibull"}, Noun: "failure distribution", Default: "exponential"},
	{Name: "weibull_shape", Doc: "Shape k of the Weibull distribution (k = 1 is exponential, k < 1 failures that cluster): an axis of numbers in 0.01..100.",
		Type: typeFloat, Many: true, Range: true, FMin: 0.01, FMax: 100, Noun: "Weibull shape", Default: 0.7},
	{Name: "replications", Doc: "Monte Carlo runs of each point of the time model; 0 evaluates the exact expectation only.",
		Type: typeInt, Min: 0, Max: MaxReplications, Cap: true, Noun: "replication count", Default: 0},
	{Name: "cases", Doc: "Grids whose union is the experiment's grid, in order: each a mapping of axis keys over the file's values.",
		Type: typeCases, Noun: "case"},
	{Name: "exclude", Doc: "Points dropped from the grid: each entry maps axis keys or column names to a value or a list, and drops the points it matches in every key.",
		Type: typeExclude, Noun: "exclude entry"},
}

// keyNamed returns the definition of the key with exactly the given name,
// or nil.
func keyNamed(name string) *keyDef {
	for _, d := range keyTable {
		if d.Name == name {
			return d
		}
	}
	return nil
}

// want describes the values the key takes, for the parenthesis of a
// message about one value.
func (d *keyDef) want() string {
	switch d.Type {
	case typeInt:
		switch {
		case d.Min == d.Max:
			return strconv.FormatInt(d.Min, 10)
		case d.Cap:
			return ">= " + strconv.FormatInt(d.Min, 10)
		}
		return strconv.FormatInt(d.Min, 10) + ".." + strconv.FormatInt(d.Max, 10)
	case typeFloat, typeDuration:
		if math.IsInf(d.FMax, 1) {
			op := ">= "
			if d.Above {
				op = "> "
			}
			if d.Type == typeDuration {
				return "a duration " + op + words.Float(d.FMin) + ": seconds, or a number with a unit s, m, h or d, such as 90s, 5m, 1.5h"
			}
			return "a number " + op + words.Float(d.FMin)
		}
		if d.Below {
			return "a number >= " + words.Float(d.FMin) + " and < " + words.Float(d.FMax)
		}
		return "a number in " + words.Float(d.FMin) + ".." + words.Float(d.FMax)
	case typeText:
		return "text"
	case typeName:
		return namePattern.String()[1:len(namePattern.String())-1] + ", it names the output folder"
	case typeMonth:
		return "YYYY-MM"
	case typeEnum:
		return words.Or(d.Enum)
	case typeInterval:
		return "none, all, or 1..P"
	case typeCases:
		return "a list of mappings of axis keys, such as [{subscribers: 200, periods: 12}]"
	case typeExclude:
		return "a list of mappings of axis keys to values, such as [{partition_key: type, workers: 16}]"
	case typePaths:
		return "a path relative to this file, or a list of them"
	case typeWeights:
		return "a mapping of period labels to whole numbers >= 0, such as {2026-06: 3}"
	}
	return ""
}

// keyNames lists the names of every key, for messages about unknown keys.
func keyNames() []string {
	out := make([]string, len(keyTable))
	for i, d := range keyTable {
		out[i] = d.Name
	}
	return out
}

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

package experiment

import (
	"path/filepath"
	"slices"
	"strings"
)

// Inputs returns the files the experiment was read from: its file and the
// bases any of its values came from (as its origins name them). A run's
// output folder must not hold one of them: replacing it would remove the
// experiment being run.
func (e *Experiment) Inputs() []string {
	out := []string{e.File}
	for _, origin := range e.Origins {
		rel, ok := strings.CutPrefix(origin, "from ")
		if !ok {
			continue
		}
		path := filepath.Join(baseDir(e.File), filepath.FromSlash(rel))
		if !slices.Contains(out, path) {
			out = append(out, path)
		}
	}
	slices.Sort(out[1:])
	return out
}

package diff

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"ckptlab/results"
	"ckptlab/runner"
	"ckptlab/runner/experiment"
)

// experimentSide loads the experiment at path from files and returns its
// side, to be evaluated when compared.
func (o *Opener) experimentSide(files experiment.Files, path, label string) (*Side, error) {
	e, err := experiment.LoadFrom(files, path, o.Overrides)
	if err != nil {
		return nil, err
	}
	return o.evaluated(e, label)
}

// evaluated returns the side of e, evaluated when compared with the jobs
// of o.Limits, or an error, as run gives it, when a run of e would pass
// them. A zero Limits checks nothing.
func (o *Opener) evaluated(e *experiment.Experiment, label string) (*Side, error) {
	l := o.Limits
	if l.MaxPoints > 0 {
		l.Formats = []string{results.FormatCSV} // what a side is read as
		if why := l.Exceeded(e); why != "" {
			return nil, fmt.Errorf("%s: %s", label, why)
		}
	}
	return EvaluatedSide(o.Ctx, e, label, runner.Options{Jobs: l.Jobs}), nil
}

// folderSide reads the output folder dir, refusing --set: a folder holds
// what a run wrote, which no override changes.
func (o *Opener) folderSide(dir string) (*Side, error) {
	if len(o.Overrides.Sets) > 0 {
		return nil, fmt.Errorf("%s: --set applies to experiment files, and %s is an output folder, read as a run wrote it (drop --set, or compare the experiment file it was run from)", dir, dir)
	}
	return FolderSide(dir)
}

// revPath returns the path on the command line that REV:PATH names: PATH
// from the repository's root, as git reads it, or from the current
// folder when it starts with ./ or ../.
func revPath(root, path string) string {
	if filepath.IsAbs(path) || path == "." || path == ".." || strings.HasPrefix(path, "./") || strings.HasPrefix(path, "../") {
		return path
	}
	abs := filepath.Join(root, filepath.FromSlash(path))
	cwd, err := os.Getwd()
	if err != nil {
		return abs
	}
	if r, err := filepath.EvalSymlinks(cwd); err == nil {
		cwd = r
	}
	if r, err := filepath.EvalSymlinks(root); err == nil {
		abs = filepath.Join(r, filepath.FromSlash(path))
	}
	if rel, err := filepath.Rel(cwd, abs); err == nil {
		return rel
	}
	return abs
}

// revLabel names the file at path (as on the command line) at rev as git
// would: REV:PATH from the repository's root.
func revLabel(rev, root, path string) string {
	abs, err := filepath.Abs(path)
	if err == nil {
		if r, err := filepath.EvalSymlinks(filepath.Dir(abs)); err == nil {
			abs = filepath.Join(r, filepath.Base(abs))
		}
		if r, err := filepath.EvalSymlinks(root); err == nil {
			root = r
		}
		if rel, err := filepath.Rel(root, abs); err == nil && rel != ".." && !strings.HasPrefix(rel, "../") {
			return rev + ":" + filepath.ToSlash(rel)
		}
	}
	return rev + ":./" + filepath.ToSlash(path)
}

// Close ends the git processes of the revisions read.
func (o *Opener) Close() error {
	var first error
	for _, t := range o.trees {
		if err := t.Close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

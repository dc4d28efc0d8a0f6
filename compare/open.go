package compare

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"ckptlab/internal/gitrev"
	"ckptlab/runner/experiment"
)

// Opener opens the sides a command line names.
type Opener struct {
	Ctx context.Context
	// Overrides apply to every experiment file evaluated, as --set does
	// for run; an output folder is read as it is.
	Overrides experiment.Overrides
	// Dir is the folder whose repository REV:PATH reads; "" is the
	// current folder.
	Dir   string
	trees map[string]*gitrev.Tree
}

// Side opens one side: an output folder (a folder with experiment.yaml),
// an experiment file, or REV:PATH, an experiment file at a git revision,
// read with its bases at that revision.
func (o *Opener) Side(arg string) (*Side, error) {
	if fi, err := os.Stat(arg); err == nil {
		if fi.IsDir() {
			return FolderSide(arg)
		}
		return ExperimentSide(o.Ctx, experiment.Disk, arg, arg, o.Overrides)
	}
	rev, path, ok := strings.Cut(arg, ":")
	if !ok || rev == "" || path == "" {
		return nil, fmt.Errorf("%s: no such file or folder (want an output folder, an experiment file, or REV:PATH such as main:experiments/lesson.yaml)", arg)
	}
	files, err := o.tree(rev)
	if err != nil {
		return nil, err
	}
	s, err := ExperimentSide(o.Ctx, files, path, arg, o.Overrides)
	if err != nil {
		return nil, fmt.Errorf("at %s:\n%w", rev, err)
	}
	return s, nil
}

// tree returns the files of a revision, opened once.
func (o *Opener) tree(rev string) (experiment.Files, error) {
	if o.trees == nil {
		o.trees = map[string]*gitrev.Tree{}
	}
	t := o.trees[rev]
	if t == nil {
		var err error
		t, err = gitrev.Open(o.dir(), rev)
		if err != nil {
			return nil, err
		}
		o.trees[rev] = t
	}
	return experiment.FS(t, t.Root), nil
}

func (o *Opener) dir() string {
	if o.Dir == "" {
		return "."
	}
	return o.Dir
}

// Pair compares the two sides named by old and new.
func (o *Opener) Pair(old, new string) (*Report, error) {
	os, err := o.Side(old)
	if err != nil {
		return nil, err
	}
	ns, err := o.Side(new)
	if err != nil {
		return nil, err
	}
	e, err := Pair(os, ns)
	if err != nil {
		return nil, err
	}
	r := newReport()
	r.Experiments = append(r.Experiments, e)
	return r, nil
}

// Revision compares each experiment file of args (a folder stands for its
// *.yaml and *.yml files, at the revision and now) as it is at rev with
// the file as it is now. A file new or deleted since rev is reported as
// added or removed; bases are skipped.
func (o *Opener) Revision(rev string, args []string) (*Report, error) {
	then, err := o.tree(rev)
	if err != nil {
		return nil, err
	}
	r := newReport()
	for _, arg := range args {
		paths, err := filesOf(arg, then)
		if err != nil {
			return nil, err
		}
		for _, path := range paths {
			old, err := o.load(then, path)
			if err != nil {
				return nil, fmt.Errorf("at %s:\n%w", rev, err)
			}
			new, err := o.load(experiment.Disk, path)
			if err != nil {
				return nil, err
			}
			label := rev + ":" + filepath.ToSlash(path)
			switch {
			case old == nil && new == nil:
				continue // a base, or absent, on both sides
			case old == nil:
				r.Experiments = append(r.Experiments, Experiment{Name: new.Name, New: path, Status: StatusAdded})
				continue
			case new == nil:
				r.Experiments = append(r.Experiments, Experiment{Name: old.Name, Old: label, Status: StatusRemoved})
				continue
			}
			os, err := EvaluatedSide(o.Ctx, old, label)
			if err != nil {
				return nil, err
			}
			ns, err := EvaluatedSide(o.Ctx, new, path)
			if err != nil {
				return nil, err
			}
			e, err := Pair(os, ns)
			if err != nil {
				return nil, err
			}
			r.Experiments = append(r.Experiments, e)
		}
	}
	return r, nil
}

// filesOf returns the experiment files arg names: itself, or for a folder
// its experiment files at the revision and now, in lexical order.
func filesOf(arg string, then experiment.Files) ([]string, error) {
	if !experiment.Disk.IsDir(arg) && !then.IsDir(arg) {
		return []string{arg}, nil
	}
	var names []string
	for _, f := range []experiment.Files{then, experiment.Disk} {
		if !f.IsDir(arg) {
			continue
		}
		list, err := f.ReadDir(arg)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", arg, err)
		}
		for _, n := range list {
			if experiment.IsExperimentFile(n) && !slices.Contains(names, n) {
				names = append(names, n)
			}
		}
	}
	slices.Sort(names)
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = filepath.Join(arg, n)
	}
	return out, nil
}

// load loads the experiment at path from files: nil for a file absent
// there, or a base.
func (o *Opener) load(files experiment.Files, path string) (*experiment.Experiment, error) {
	if _, err := files.ReadFile(path); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, nil
		}
		if files.IsDir(path) {
			return nil, fmt.Errorf("%s: is a folder", path)
		}
	}
	b, err := experiment.LoadArgs(files, []string{path}, o.Overrides, experiment.CheckBases)
	if err != nil {
		return nil, err
	}
	if len(b.Experiments) == 0 {
		return nil, nil
	}
	return b.Experiments[0], nil
}

// Pair compares two sides: their settings, decisions, envelopes and grids.
func Pair(old, new *Side) (Experiment, error) {
	e := Experiment{Name: new.Name, Old: old.Label, New: new.Label, Status: StatusSame}
	e.Settings = compareSettings(old.Settings, new.Settings)
	ot, err := readTable(old, decisionsTable)
	if err != nil {
		return e, err
	}
	nt, err := readTable(new, decisionsTable)
	if err != nil {
		return e, err
	}
	moved := movedColumns(ot, nt, old, new)
	if e.Decisions, err = compareDecisions(old, new, ot, nt, without(decisionKey, moved)); err != nil {
		return e, err
	}
	if e.Envelopes, err = compareEnvelopes(old, new, without(envelopeKey, moved)); err != nil {
		return e, err
	}
	if e.Grid, err = compareGrid(old, new, without(gridKey, moved)); err != nil {
		return e, err
	}
	if e.Time, err = compareTime(old, new); err != nil {
		return e, err
	}
	if e.differs() {
		e.Status = StatusChanged
	}
	return e, nil
}

// differs reports whether any part of the pair differs.
func (e *Experiment) differs() bool {
	d, v, g := e.Decisions, e.Envelopes, e.Grid
	if len(e.Settings) > 0 || len(d.Changed)+len(d.OnlyOld)+len(d.OnlyNew) > 0 || e.Time.timeDiffers() ||
		len(v.Changed)+len(v.OnlyOld)+len(v.OnlyNew) > 0 ||
		g.OnlyOld+g.OnlyNew > 0 || len(g.OnlyOldColumns)+len(g.OnlyNewColumns) > 0 {
		return true
	}
	for _, c := range g.Columns {
		if c.Changed > 0 {
			return true
		}
	}
	return false
}

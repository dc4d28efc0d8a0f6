package diff

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"ckptlab/internal/gitrev"
	"ckptlab/runner"
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
	Dir string
	// Limits are checked before an experiment file is evaluated, as run
	// checks them; their Jobs evaluate it.
	Limits runner.Limits
	// OutsideRoot reads the bases of an experiment file on the disk
	// wherever they lie, not only inside its root (experiment.RootOf).
	OutsideRoot bool
	trees       map[string]*gitrev.Tree
}

// Side opens one side: an output folder (a folder with experiment.yaml),
// an experiment file, or REV:PATH, an experiment file at a git revision,
// read with its bases at that revision.
func (o *Opener) Side(arg string) (*Side, error) {
	if fi, err := os.Stat(arg); err == nil {
		if fi.IsDir() {
			return o.folderSide(arg)
		}
		return o.experimentSide(experiment.DiskFiles(o.OutsideRoot), arg, arg)
	}
	rev, path, ok := strings.Cut(arg, ":")
	if !ok || rev == "" || path == "" {
		return nil, fmt.Errorf("%s: no such file or folder (want an output folder, an experiment file, or REV:PATH such as main:experiments/lesson.yaml)", arg)
	}
	files, err := o.tree(rev)
	if err != nil {
		return nil, err
	}
	s, err := o.experimentSide(files, revPath(o.trees[rev].Root, path), arg)
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
	var pairs []pending
	for _, arg := range args {
		paths, err := filesOf(arg, then)
		if err != nil {
			return nil, err
		}
		// A folder now holds no base that none of its experiments extends:
		// an experiment whose name was forgotten is an error, not skipped.
		if experiment.Disk.IsDir(arg) {
			if _, err := experiment.LoadArgs(experiment.DiskFiles(o.OutsideRoot), []string{arg}, o.Overrides, experiment.RunBases); err != nil {
				return nil, err
			}
		}
		olds, err := o.loadArg(then, arg)
		if err != nil {
			return nil, fmt.Errorf("at %s:\n%w", rev, err)
		}
		news, err := o.loadArg(experiment.Disk, arg)
		if err != nil {
			return nil, err
		}
		for _, path := range paths {
			old, new := olds[filepath.Clean(path)], news[filepath.Clean(path)]
			label := revLabel(rev, o.trees[rev].Root, path)
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
			os, err := o.evaluated(old, label)
			if err != nil {
				return nil, err
			}
			ns, err := o.evaluated(new, path)
			if err != nil {
				return nil, err
			}
			pairs = append(pairs, pending{len(r.Experiments), os, ns})
			r.Experiments = append(r.Experiments, Experiment{})
		}
	}
	// Every file is checked before any is evaluated.
	for i, p := range pairs {
		e, err := Pair(p.old, p.new)
		if err != nil {
			return nil, err
		}
		r.Experiments[p.at] = e
		pairs[i] = pending{} // its evaluations are done with
	}
	return r, nil
}

// pending is a pair of sides to compare, and where its report goes.
type pending struct {
	at       int
	old, new *Side
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

// loadArg loads the experiments of arg, a file or a folder, from files as
// run loads them: a folder's files together, each base checked in the
// experiments that extend it. A file or folder absent there has none;
// bases are left out. The experiments are keyed by their cleaned paths.
func (o *Opener) loadArg(files experiment.Files, arg string) (map[string]*experiment.Experiment, error) {
	out := map[string]*experiment.Experiment{}
	if files.IsDir(arg) {
		names, err := files.ReadDir(arg)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", arg, err)
		}
		if !slices.ContainsFunc(names, experiment.IsExperimentFile) {
			return out, nil
		}
	} else if _, err := files.ReadFile(arg); errors.Is(err, os.ErrNotExist) {
		return out, nil
	}
	b, err := experiment.LoadArgs(files, []string{arg}, o.Overrides, experiment.CheckBases)
	if err != nil {
		return nil, err
	}
	for _, e := range b.Experiments {
		out[filepath.Clean(e.File)] = e
	}
	return out, nil
}

// Pair compares two sides: their settings, decisions, envelopes and grids.
func Pair(old, new *Side) (Experiment, error) {
	e := Experiment{Name: new.Name, Old: old.Label, New: new.Label, Status: StatusSame}
	for _, s := range []*Side{old, new} {
		if err := s.ready(); err != nil {
			return e, err
		}
	}
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

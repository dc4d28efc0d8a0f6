package runner

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"ckptlab/folder"
	"ckptlab/model"
	"ckptlab/results"
	"ckptlab/runner/experiment"
)

// shardsDir returns the folder of an experiment's shard files,
// dir/<name>/shards: input to merge, not part of the output set.
func shardsDir(dir string, e *experiment.Experiment) string {
	return folder.Shards(dir, e.Name)
}

// configHash returns the hash of the resolved experiment that shard files carry:
// the results.Set.ConfigHash of its configuration. Shards of one run agree
// on it however the file was laid out or overridden.
func configHash(e *experiment.Experiment) string {
	return results.Set{Config: Config(e)}.ConfigHash()
}

// ShardRun says what RunShard did.
type ShardRun struct {
	// Path is the shard file.
	Path string
	// Kept is set when a matching shard file was already at Path: nothing
	// was recomputed.
	Kept bool
	// Replaced, when set, says why a file already at Path did not match
	// and was made again.
	Replaced error
}

// RunShard counts shard s of the experiment and writes its shard file into
// shardsDir(dir, e), atomically. A shard is idempotent: when a complete
// file of the same experiment and shard is already there, RunShard keeps it
// and counts nothing, so engines that retry a shard, and a user who reruns
// a partial run, redo only what is missing.
func RunShard(ctx context.Context, e *experiment.Experiment, opt Options, s Shard, dir string) (ShardRun, error) {
	if !s.Valid() {
		return ShardRun{}, fmt.Errorf("shard %d of %d does not exist (want 1 <= I <= N)", s.I, s.N)
	}
	run := ShardRun{Path: filepath.Join(shardsDir(dir, e), s.String())}
	hash, srcs, parts := configHash(e), e.SourceList(), e.Partitionings()
	if _, err := os.Lstat(run.Path); err == nil {
		f, err := ReadShardFile(run.Path, maxShardBytes(srcs, parts))
		if err == nil {
			_, err = checkShard(e, f, hash, srcs, parts)
		}
		if err == nil && len(opt.ShardKey) > 0 {
			err = f.checkSignature(opt.ShardKey)
		}
		if err == nil && f.Shard != s {
			err = fmt.Errorf("it holds shard %d of %d", f.Shard.I, f.Shard.N)
		}
		if err == nil {
			run.Kept = true
			return run, tidy(ctx, dir, e)
		}
		run.Replaced = err
	}

	part := partOf(srcs, s)
	f := &ShardFile{Tool: Version, Name: e.Name, Hash: hash, Shard: s, Pieces: part}
	ranges := rangesOf(part)
	tallies, err := tallyRanges(ctx, e, opt, ranges)
	if err != nil {
		return run, err
	}
	for i, r := range ranges {
		f.Tallies = append(f.Tallies, RangeTally{piece: r, Data: tallies[i]})
	}
	data := f.Bytes(opt.ShardKey)
	// Hold the output folder's lock while writing, so that a set swapped
	// in at the same time (a merge, a run) cannot move shards/ away from
	// under the rename.
	unlock, err := folder.Lock(ctx, dir, e.Name, e.Inputs())
	if err != nil {
		return run, err
	}
	defer unlock()
	if err := os.MkdirAll(filepath.Dir(run.Path), 0o755); err != nil {
		return run, err
	}
	return run, writeShardFile(run.Path, data)
}

// tidy removes, under the output folder's lock, what killed shards and
// runs left in dir/<name>/, as a shard that writes its file does: a shard
// that finds its file there and keeps it cleans up all the same.
func tidy(ctx context.Context, dir string, e *experiment.Experiment) error {
	unlock, err := folder.Lock(ctx, dir, e.Name, e.Inputs())
	if err != nil {
		return err
	}
	unlock()
	return nil
}

// checkShard reports whether f is a shard of this experiment, whose hash,
// sources and partitionings are given: the same name and hash, the pieces
// of its part, and a tally of the right shape for each of their ranges, in
// order, that counting them could give. It returns the sum of each piece's
// tallies, in the order of the pieces, decoding one range at a time.
func checkShard(e *experiment.Experiment, f *ShardFile, hash string, srcs []model.Source, parts []model.Partitioning) ([]*model.Tally, error) {
	if f.Tool != Version {
		return nil, fmt.Errorf("made by ckptlab %.40q, not by this ckptlab %s (make the shards again with one ckptlab)", f.Tool, Version)
	}
	if f.Name != e.Name || f.Hash != hash {
		return nil, fmt.Errorf("made from another experiment (%s, hash %.12s…; this one is %s, hash %.12s…)",
			f.Name, f.Hash, e.Name, hash)
	}
	if !f.Shard.Valid() {
		return nil, fmt.Errorf("shard %d of %d does not exist (want 1 <= I <= N <= %d)", f.Shard.I, f.Shard.N, maxShards)
	}
	if !slices.Equal(f.Pieces, partOf(srcs, f.Shard)) {
		return nil, fmt.Errorf("its pieces are not those of shard %d of %d of this experiment", f.Shard.I, f.Shard.N)
	}
	ranges := rangesOf(f.Pieces)
	sums := make([]*model.Tally, len(f.Pieces))
	k := 0 // the piece of the range
	if len(f.Tallies) != len(ranges) {
		return nil, fmt.Errorf("%d tallies for the %d ranges of its pieces", len(f.Tallies), len(ranges))
	}
	for i, t := range f.Tallies {
		if t.piece != ranges[i] {
			return nil, fmt.Errorf("tally %d is of source %d, subscribers %d to %d, not of the range %d of its pieces", i+1, t.Source, t.Lo+1, t.Hi, i+1)
		}
		tally, err := t.Tally()
		if err != nil {
			return nil, err
		}
		src := srcs[t.Source]
		if !fits(tally, src, parts) {
			return nil, fmt.Errorf("the tally of source %d, subscribers %d to %d, does not fit the experiment", t.Source, t.Lo+1, t.Hi)
		}
		if err := tally.Check(int64(t.Hi-t.Lo), src.Missing, src.Duplicates); err != nil {
			return nil, fmt.Errorf("the tally of source %d (subscribers %d to %d) cannot be a count of them: %w", t.Source, t.Lo+1, t.Hi, err)
		}
		for f.Pieces[k].Source != t.Source { // the ranges are those of the pieces, in order
			k++
		}
		if sums[k] == nil {
			sums[k] = tally
		} else if err := sums[k].Merge(tally); err != nil {
			return nil, fmt.Errorf("source %d: %w", t.Source, err)
		}
	}
	return sums, nil
}

// fits reports whether t has the periods and partitionings of a tally of
// src, so that merging it cannot fail.
func fits(t *model.Tally, src model.Source, parts []model.Partitioning) bool {
	return t.Periods() == src.Periods && slices.Equal(t.Partitionings(), parts)
}

// missingShardsError is Merge's error when shard files are missing.
type missingShardsError struct {
	Dir     string
	N       int
	Missing []int // 1-based shard indexes, increasing
}

func (m *missingShardsError) Error() string {
	const shown = 20 // indexes named; the count says how many more
	idx := make([]string, 0, min(len(m.Missing), shown)+1)
	for _, k := range m.Missing[:min(len(m.Missing), shown)] {
		idx = append(idx, fmt.Sprint(k))
	}
	if more := len(m.Missing) - shown; more > 0 {
		idx = append(idx, fmt.Sprintf("… and %d more", more))
	}
	return fmt.Sprintf("%s: %d of %d shard files missing: %s (run each with ckptlab run --shard I/%d)",
		m.Dir, len(m.Missing), m.N, strings.Join(idx, ", "), m.N)
}

// Merge reads the shard files of the experiment in shardsDir(dir, e) and
// returns the result an unsharded run gives, to the last count.
//
// It refuses, listing every problem at once: a folder without shard files,
// a file that is not a complete shard file, a shard of another experiment,
// shards of more than one N, a shard present twice, and missing shards
// (a *missingShardsError among the joined errors; a shard whose file is
// there but refused is reported once, as refused). With opt.ShardKey set,
// it refuses files not signed with it. It counts again the ranges of each
// file that opt.Verify picks, on opt.Jobs goroutines, and refuses a file
// whose count differs. Hidden files, the temporaries of shards still
// running or killed, are ignored. Files are read one at a time and their
// tallies summed: memory grows with the tallies, never with subscribers,
// and time with the tallies and the subscribers counted again. It waits
// for the output folder's lock (folder.Lock), which ctx may end.
func Merge(ctx context.Context, e *experiment.Experiment, dir string, opt Options) (*Evaluation, error) {
	shards := shardsDir(dir, e)
	noShards := fmt.Errorf("%s: no shard files; make them with ckptlab run --shard I/N first", shards)
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		return nil, noShards
	}
	// Read under the output folder's lock: no shard is renamed in, and no
	// set swapped in, while the files are read. A run killed while it
	// swapped its set in may have left the shards in its staging folder:
	// they are moved back first.
	unlock, err := folder.Lock(ctx, dir, e.Name, e.Inputs())
	if err != nil {
		return nil, err
	}
	defer unlock()
	entries, err := os.ReadDir(shards)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, noShards
	}
	if err != nil {
		return nil, err
	}
	m := merger{ctx: ctx, e: e, opt: opt, hash: configHash(e), srcs: e.SourceList(), parts: e.Partitionings(),
		seen: map[Shard]string{}, bad: map[string]bool{}}
	m.limit = maxShardBytes(m.srcs, m.parts)
	m.tallies = make([]*model.Tally, len(m.srcs))
	for _, entry := range entries {
		if name := entry.Name(); !strings.HasPrefix(name, ".") && !entry.IsDir() {
			m.add(shards, name)
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	}
	switch len(m.ns) {
	case 0:
		if len(m.problems) == 0 {
			return nil, noShards
		}
	case 1:
		m.missing(shards)
	default:
		slices.Sort(m.ns)
		m.problems = append(m.problems, fmt.Errorf("%s: shard files of runs in %s parts side by side; keep the files of one run and remove the others",
			shards, strings.Trim(strings.Join(strings.Fields(fmt.Sprint(m.ns)), ", "), "[]")))
	}
	if len(m.problems) == 0 {
		m.checkSums(shards)
	}
	if len(m.problems) > 0 {
		return nil, errors.Join(m.problems...)
	}
	return assemble(e, m.tallies), nil
}

// merger sums the tallies of shard files one at a time and collects every
// problem it meets.
type merger struct {
	ctx      context.Context
	e        *experiment.Experiment
	opt      Options // the ranges counted again, the key
	hash     string
	srcs     []model.Source
	parts    []model.Partitioning
	limit    int64          // the largest shard file of the experiment
	tallies  []*model.Tally // per source, summed so far
	problems []error
	bad      map[string]bool  // names of the files refused
	seen     map[Shard]string // the file each shard came from
	ns       []int            // the Ns met, in order
}

// add reads one file and adds its tallies, or records why it cannot.
func (m *merger) add(folder, name string) {
	path := filepath.Join(folder, name)
	f, err := ReadShardFile(path, m.limit)
	var sums []*model.Tally
	if err == nil {
		if sums, err = m.prove(f); err != nil {
			err = fmt.Errorf("%s: %w", path, err)
		}
	}
	if err != nil {
		m.problems = append(m.problems, err)
		m.bad[name] = true
		return
	}
	if !slices.Contains(m.ns, f.Shard.N) {
		m.ns = append(m.ns, f.Shard.N)
	}
	if other, ok := m.seen[f.Shard]; ok {
		m.problems = append(m.problems, fmt.Errorf("%s: shard %d of %d twice, also in %s; remove one",
			path, f.Shard.I, f.Shard.N, other))
		return
	}
	m.seen[f.Shard] = path
	for i, p := range f.Pieces {
		if m.tallies[p.Source] == nil {
			m.tallies[p.Source] = model.NewTally(m.srcs[p.Source].Periods, m.parts)
		}
		if err := m.tallies[p.Source].Merge(sums[i]); err != nil {
			m.problems = append(m.problems, fmt.Errorf("%s: source %d: %w", path, p.Source, err))
			return
		}
	}
}

// prove returns the sums of f's pieces (checkShard), or why f cannot be
// merged: not signed with the key, if one is set; not a shard of this
// experiment; or a range counted again that differs (recount).
func (m *merger) prove(f *ShardFile) ([]*model.Tally, error) {
	if len(m.opt.ShardKey) > 0 {
		if err := f.checkSignature(m.opt.ShardKey); err != nil {
			return nil, err
		}
	}
	sums, err := checkShard(m.e, f, m.hash, m.srcs, m.parts)
	if err != nil {
		return nil, err
	}
	return sums, recount(m.ctx, m.e, m.opt, f)
}

// missing records the shards of the one N met that no file holds, leaving
// out those whose file is there but was refused: that is reported already.
func (m *merger) missing(folder string) {
	n := m.ns[0]
	var missing []int
	for i := 1; i <= n; i++ {
		s := Shard{i, n}
		if _, ok := m.seen[s]; !ok && !m.bad[s.String()] {
			missing = append(missing, i)
		}
	}
	if len(missing) > 0 {
		m.problems = append(m.problems, &missingShardsError{Dir: folder, N: n, Missing: missing})
	}
}

// checkSums holds each source's tally, summed over every shard, to what
// counting the whole source can give (model.Tally.Check): a shard's
// ranges may each be possible and their sum not.
func (m *merger) checkSums(folder string) {
	for k, t := range m.tallies {
		src := m.srcs[k]
		if t == nil {
			continue
		}
		if err := t.Check(int64(src.Subscribers), src.Missing, src.Duplicates); err != nil {
			m.problems = append(m.problems, fmt.Errorf("%s: the tallies of source %d, summed over the shards, cannot be a count of it: %w", folder, k, err))
		}
	}
}

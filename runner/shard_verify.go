package runner

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"

	"ckptlab/model"
	"ckptlab/runner/experiment"
)

// Verify says which ranges of each shard file Merge counts again and
// compares with the file's tallies.
type Verify int

const (
	// VerifySample counts again one range in sampleShare of each shard
	// file, at least one, drawn as sample draws them.
	VerifySample Verify = iota
	// VerifyAll counts every range again: the whole run's work once more.
	VerifyAll
	// VerifyNone counts nothing again.
	VerifyNone
)

// sampleShare is the share of a shard file's ranges VerifySample counts
// again: one in sampleShare, rounded up.
const sampleShare = 32

// verifyNames are the values of ParseVerify, in Verify order.
var verifyNames = []string{"sample", "all", "none"}

// String returns the value of merge's --verify that names v.
func (v Verify) String() string { return verifyNames[v] }

// ParseVerify reads the value of merge's --verify: sample, all or none.
func ParseVerify(s string) (Verify, error) {
	if i := slices.Index(verifyNames, s); i >= 0 {
		return Verify(i), nil
	}
	return 0, fmt.Errorf("--verify %q: want sample (one range in %d of each shard, the default), all or none", s, sampleShare)
}

// picks returns the indexes, increasing, of the ranges of f that v counts
// again.
func (v Verify) picks(f *ShardFile) []int {
	n := len(f.Tallies)
	switch v {
	case VerifyAll:
		all := make([]int, n)
		for i := range all {
			all[i] = i
		}
		return all
	case VerifyNone:
		return nil
	}
	return sample(f.Hash, f.Shard, n, (n+sampleShare-1)/sampleShare)
}

// sample returns k distinct indexes of n, increasing, drawn by Floyd's
// algorithm from a PCG generator seeded with the SHA-256 of the
// experiment's hash and the shard: every merge of one experiment's shards
// draws the same ranges.
func sample(hash string, s Shard, n, k int) []int {
	sum := sha256.Sum256(fmt.Appendf(nil, "%s %s", hash, s))
	rng := rand.NewPCG(binary.LittleEndian.Uint64(sum[:8]), binary.LittleEndian.Uint64(sum[8:16]))
	picked := make(map[int]bool, k)
	for j := n - k; j < n; j++ {
		t := int(rng.Uint64() % uint64(j+1))
		if picked[t] {
			t = j
		}
		picked[t] = true
	}
	return slices.Sorted(maps.Keys(picked))
}

// tallyRanges counts each range apart and returns the encoding of each
// one's tally, in order.
func tallyRanges(ctx context.Context, e *experiment.Experiment, opt Options, ranges []piece) ([][]byte, error) {
	out := make([][]byte, len(ranges))
	var failed error
	err := countEach(ctx, e, opt, ranges, func(i int, t *model.Tally) {
		data, err := t.MarshalBinary()
		if err != nil && failed == nil {
			failed = err
		}
		out[i] = data
	})
	if err == nil {
		err = failed
	}
	if err != nil {
		return nil, err
	}
	srcs := e.SourceList()
	for i, r := range ranges {
		if out[i] == nil { // a range of no subscriber, counted by no task
			out[i], _ = model.NewTally(srcs[r.Source].Periods, e.Partitionings()).MarshalBinary()
		}
	}
	return out, nil
}

// recount counts again the ranges of f that opt.Verify picks and reports
// the first whose tally differs from the file's.
func recount(ctx context.Context, e *experiment.Experiment, opt Options, f *ShardFile) error {
	picks := opt.Verify.picks(f)
	ranges := make([]piece, len(picks))
	for i, k := range picks {
		ranges[i] = f.Tallies[k].piece
	}
	opt.Progress = nil
	counted, err := tallyRanges(ctx, e, opt, ranges)
	if err != nil {
		return err
	}
	for i, k := range picks {
		if t := f.Tallies[k]; !bytes.Equal(t.Data, counted[i]) {
			return fmt.Errorf("the tally of source %d, subscribers %d to %d (range %d of %d), differs from a count of them: "+
				"a forged file, or one made by a faulty machine; make the shard again", t.Source, t.Lo+1, t.Hi, k+1, len(f.Tallies))
		}
	}
	return nil
}

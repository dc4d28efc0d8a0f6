package runner

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestRangesOf checks that the ranges of pieces cover each piece once, in
// order, in shardRanges ranges, or one per minRange subscribers and at
// least one for a smaller piece.
func TestRangesOf(t *testing.T) {
	tests := []struct {
		p    piece
		want int
	}{
		{piece{0, 0, 1}, 1},
		{piece{1, 5, 5 + minRange - 1}, 1},
		{piece{1, 5, 5 + 2*minRange - 1}, 1},
		{piece{1, 5, 5 + 2*minRange}, 2},
		{piece{2, 7, 7 + shardRanges*minRange - 1}, shardRanges - 1},
		{piece{2, 7, 7 + shardRanges*minRange}, shardRanges},
		{piece{3, 0, 1_000_000_007}, shardRanges},
	}
	for _, tt := range tests {
		got := rangesOf([]piece{tt.p})
		if len(got) != tt.want {
			t.Errorf("rangesOf(%v): %d ranges, want %d", tt.p, len(got), tt.want)
		}
		next := tt.p.Lo
		for _, r := range got {
			if r.Source != tt.p.Source || r.Lo != next || r.Hi <= r.Lo || (len(got) > 1 && r.Hi-r.Lo < minRange) {
				t.Fatalf("rangesOf(%v): range %v after %d", tt.p, r, next)
			}
			next = r.Hi
		}
		if next != tt.p.Hi {
			t.Errorf("rangesOf(%v): covers up to %d", tt.p, next)
		}
	}
}

// TestCountEachEqualsCountingApart checks that counting the ranges of a
// source together, where they share fault indexes, tasks are split at
// their bounds and goroutines sum a range's tasks as they end, gives each
// range the tally of counting it alone.
func TestCountEachEqualsCountingApart(t *testing.T) {
	ctx := context.Background()
	e := jobsExperiment()
	src := e.SourceList()[0]
	if subs, _ := faultWindow(src, 2, indexBudget); subs == 0 {
		t.Fatal("the source is not counted through fault indexes: the test would not test them")
	}
	ranges := rangesOf(allWork(e))
	each, err := tallyRanges(ctx, e, Options{Jobs: 2}, ranges)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range ranges {
		alone, err := countPieces(ctx, e, Options{Jobs: 1}, []piece{r})
		if err != nil {
			t.Fatal(err)
		}
		if want, _ := alone[r.Source].MarshalBinary(); !bytes.Equal(each[i], want) {
			t.Fatalf("range %v: counted with the others, its tally differs from its own", r)
		}
	}
}

// TestSample checks that the sample draws distinct ranges, the same for
// the same experiment and shard, others for other shards.
func TestSample(t *testing.T) {
	hash := strings.Repeat("ab", 32)
	seen := map[int]bool{}
	for i := 1; i <= 20; i++ {
		s := Shard{i, 20}
		for _, nk := range [][2]int{{1, 1}, {32, 1}, {33, 2}, {100, 100}, {1000, 32}} {
			n, k := nk[0], nk[1]
			got := sample(hash, s, n, k)
			distinct := len(slices.Compact(slices.Clone(got)))
			if len(got) != k || distinct != k || !slices.IsSorted(got) || got[0] < 0 || got[k-1] >= n {
				t.Fatalf("sample(%v, %d, %d) = %v: want %d distinct indexes below %d, increasing", s, n, k, got, k, n)
			}
			if !slices.Equal(got, sample(hash, s, n, k)) {
				t.Fatalf("sample(%v, %d, %d) drew twice differently", s, n, k)
			}
		}
		seen[sample(hash, s, 32, 1)[0]] = true
	}
	if len(seen) < 5 {
		t.Errorf("20 shards of 32 ranges drew %d different ranges, want them spread", len(seen))
	}
}

// TestVerifyPicks checks how many ranges each Verify counts again.
func TestVerifyPicks(t *testing.T) {
	for _, tt := range []struct {
		n                 int
		sample, all, none int
	}{{0, 0, 0, 0}, {1, 1, 1, 0}, {32, 1, 32, 0}, {33, 2, 33, 0}, {640, 20, 640, 0}} {
		f := &ShardFile{Hash: "h", Shard: Shard{1, 1}, Tallies: make([]RangeTally, tt.n)}
		for v, want := range map[Verify]int{VerifySample: tt.sample, VerifyAll: tt.all, VerifyNone: tt.none} {
			if got := len(v.picks(f)); got != want {
				t.Errorf("%d ranges, --verify %v: %d counted again, want %d", tt.n, v, got, want)
			}
		}
	}
	for _, s := range []string{"sample", "all", "none"} {
		if v, err := ParseVerify(s); err != nil || v.String() != s {
			t.Errorf("ParseVerify(%q) = %v, %v", s, v, err)
		}
	}
	if _, err := ParseVerify("some"); err == nil {
		t.Error(`ParseVerify("some"): no error`)
	}
}

// TestMergeChecksSignatures signs shards with a key and merges them with
// the key, without one, with another key, and signed shards forged after
// they were signed; unsigned shards are refused once a key is set, and a
// shard made again with a key replaces an unsigned file.
func TestMergeChecksSignatures(t *testing.T) {
	ctx := context.Background()
	e := shardExperiments()["faults"]
	key, other := []byte("a key"), []byte("another key")
	one, err := Evaluate(ctx, e, Options{})
	if err != nil {
		t.Fatal(err)
	}
	shards := func(t *testing.T, key []byte) string {
		dir := t.TempDir()
		for i := 1; i <= 2; i++ {
			if _, err := RunShard(ctx, e, Options{ShardKey: key}, Shard{i, 2}, dir); err != nil {
				t.Fatal(err)
			}
		}
		return dir
	}
	forge := func(t *testing.T, dir string, edit func(f *forgedFile)) {
		path := filepath.Join(shardsDir(dir, e), "1-of-2")
		data, _ := os.ReadFile(path)
		f := readForged(t, data)
		edit(f)
		os.WriteFile(path, f.bytes(), 0o644)
	}
	tests := []struct {
		name    string
		signed  []byte
		prepare func(t *testing.T, dir string)
		merge   Options
		want    []string // "" for a merge that succeeds
	}{
		{"signed, merged with the key", key, nil, Options{ShardKey: key}, nil},
		{"signed, merged without a key", key, nil, Options{}, nil},
		{"signed, merged with another key", key, nil, Options{ShardKey: other},
			[]string{"1-of-2: its signature is not one made with the key of CKPTLAB_SHARD_KEY", "2-of-2: its signature is not"}},
		{"unsigned, merged with a key", nil, nil, Options{ShardKey: key},
			[]string{"1-of-2: not signed, and CKPTLAB_SHARD_KEY is set", "2-of-2: not signed"}},
		{"signed, a tally forged after, checksum recomputed", key, func(t *testing.T, dir string) {
			forge(t, dir, func(f *forgedFile) { moveSubscriber(f.tallies[0]) })
		}, Options{ShardKey: key, Verify: VerifyNone}, []string{"1-of-2: its signature is not one made with the key"}},
		{"signed, the signature removed, checksum recomputed", key, func(t *testing.T, dir string) {
			forge(t, dir, func(f *forgedFile) { f.trailer = nil })
		}, Options{ShardKey: key}, []string{"1-of-2: not signed"}},
		{"signed, the signature of the other shard", key, func(t *testing.T, dir string) {
			data, _ := os.ReadFile(filepath.Join(shardsDir(dir, e), "2-of-2"))
			theirs := readForged(t, data).trailer
			forge(t, dir, func(f *forgedFile) { f.trailer = theirs })
		}, Options{ShardKey: key}, []string{"1-of-2: its signature is not one made with the key"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := shards(t, tt.signed)
			if tt.prepare != nil {
				tt.prepare(t, dir)
			}
			res, err := Merge(ctx, e, dir, tt.merge)
			if tt.want == nil {
				if err != nil {
					t.Fatal(err)
				}
				if !sameCounts(res, one) {
					t.Error("the merged sources differ from one run's")
				}
				return
			}
			for _, w := range tt.want {
				if err == nil || !strings.Contains(err.Error(), w) {
					t.Errorf("Merge = %v\nwant an error saying %q", err, w)
				}
			}
		})
	}

	t.Run("an unsigned file made again with a key", func(t *testing.T) {
		dir := shards(t, nil)
		run, err := RunShard(ctx, e, Options{ShardKey: key}, Shard{1, 2}, dir)
		if err != nil || run.Kept || run.Replaced == nil || !strings.Contains(run.Replaced.Error(), "not signed") {
			t.Fatalf("RunShard = %+v, %v; want the unsigned file made again", run, err)
		}
		if again, err := RunShard(ctx, e, Options{ShardKey: key}, Shard{1, 2}, dir); err != nil || !again.Kept {
			t.Errorf("RunShard again = %+v, %v; want the signed file kept", again, err)
		}
	})
}

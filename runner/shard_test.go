package runner

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"ckptlab/internal/testkit"
	"ckptlab/model"
	"ckptlab/runner/experiment"
)

// shardExperiments are experiments whose shards must merge into exactly
// the unsharded result: the lesson, faulty sources, several sources of
// different sizes, and one source much larger than the others, which the
// parts cut into subscriber ranges.
func shardExperiments() map[string]*experiment.Experiment {
	lesson := experiment.Lesson("lesson")
	faults := experiment.Lesson("faults")
	faults.Seeds = []uint32{20260218, 20260219, 20260220}
	faults.Missing, faults.Duplicates = 40, 25
	faults.PartitionKeys = []model.PartitionKey{model.ByRegion}
	sources := experiment.Lesson("sources")
	sources.Seeds = []uint32{1, 4294967295}
	sources.Subscribers = []int{5, 1001}
	sources.Periods = []int{6, 12}
	sources.Workers = []int{1, 7}
	sources.Intervals = []model.Interval{model.None, 5, 2}
	sources.FailurePeriod = model.NewMonth(2026, 4)
	large := experiment.Lesson("large")
	large.Subscribers = []int{30, 40000}
	large.Missing, large.Duplicates = 30, 20
	large.PartitionKeys = []model.PartitionKey{model.BySubscriber, model.ByType}
	large.Workers = []int{3, 8}
	return map[string]*experiment.Experiment{"lesson": &lesson, "faults": &faults, "sources": &sources, "large": &large}
}

// TestPartCoversEverySubscriberOnce checks that the parts of every N cover
// each subscriber of each source exactly once, in order, and that each part
// holds its share of the work give or take one subscriber's periods.
func TestPartCoversEverySubscriberOnce(t *testing.T) {
	t.Parallel()
	for name, e := range shardExperiments() {
		srcs := e.SourceList()
		var total, most int64
		for _, s := range srcs {
			total += int64(s.Subscribers * s.Periods)
			most = max(most, int64(s.Periods))
		}
		for _, n := range []int{1, 2, 3, 7, 64, 1000, 50000} {
			next := make([]int, len(srcs)) // the next subscriber each source expects
			for i := 1; i <= n; i++ {
				var work int64
				for _, p := range shardPart(e, Shard{i, n}) {
					if p.Lo != next[p.Source] || p.Hi <= p.Lo {
						t.Fatalf("%s, shard %d of %d: piece %+v, want one starting at %d", name, i, n, p, next[p.Source])
					}
					next[p.Source] = p.Hi
					work += int64((p.Hi - p.Lo) * srcs[p.Source].Periods)
				}
				if share := total / int64(n); work < share-most || work > share+2*most {
					t.Errorf("%s, shard %d of %d: %d units of work, want %d ± %d", name, i, n, work, share, most)
				}
			}
			for s, src := range srcs {
				if next[s] != src.Subscribers {
					t.Errorf("%s, %d shards: source %d covered up to %d of %d", name, n, s, next[s], src.Subscribers)
				}
			}
		}
	}
}

// TestPartSplitsALargeSource checks that a source that is most of the work
// is cut into subscriber ranges across shards.
func TestPartSplitsALargeSource(t *testing.T) {
	e := shardExperiments()["large"]
	for i := 1; i <= 4; i++ {
		part := shardPart(e, Shard{i, 4})
		if !slices.ContainsFunc(part, func(p piece) bool { return p.Source == 1 && p.Hi-p.Lo < 40000 }) {
			t.Errorf("shard %d of 4 has %v, want part of source 1", i, part)
		}
	}
}

// sameCounts reports whether two results hold the same evaluated sources,
// which every table is computed from.
func sameCounts(a, b *Evaluation) bool { return reflect.DeepEqual(a.Sources, b.Sources) }

// TestMergedShardsEqualOneRun runs every shard of each experiment for
// several N and checks that the merge gives the sources of one run, N past the number of subscribers (empty shards) included, and
// that every range of every shard counts again to the file's tally.
func TestMergedShardsEqualOneRun(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for name, e := range shardExperiments() {
		one, err := Evaluate(ctx, e, Options{})
		if err != nil {
			t.Fatal(err)
		}
		ns := []int{1, 3, 4}
		if name == "lesson" {
			ns = append(ns, 250) // more shards than subscribers: some are empty
		}
		for _, n := range ns {
			dir := t.TempDir()
			for i := 1; i <= n; i++ {
				if _, err := RunShard(ctx, e, Options{Jobs: 2}, Shard{i, n}, dir); err != nil {
					t.Fatalf("%s: shard %d of %d: %v", name, i, n, err)
				}
			}
			for _, v := range []Verify{VerifySample, VerifyAll} {
				merged, err := Merge(context.Background(), e, dir, Options{Verify: v})
				if err != nil {
					t.Fatalf("%s, %d shards, --verify %v: %v", name, n, v, err)
				}
				if !sameCounts(merged, one) {
					t.Errorf("%s, %d shards: the merged sources differ from one run's", name, n)
				}
			}
		}
	}
}

// TestShardFileRefusesDamage checks that every truncation of a shard file,
// and every changed byte, is refused with an error.
func TestShardFileRefusesDamage(t *testing.T) {
	e := shardExperiments()["faults"]
	for _, key := range []string{"", "k"} {
		run, err := RunShard(context.Background(), e, Options{ShardKey: []byte(key)}, Shard{2, 3}, t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(run.Path)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := parseShardFile(data); err != nil {
			t.Fatalf("the file as written: %v", err)
		}
		for n := range len(data) {
			if _, err := parseShardFile(data[:n]); err == nil {
				t.Errorf("key %q: truncated to %d of %d bytes: no error", key, n, len(data))
			}
		}
		for i := range data {
			bad := slices.Clone(data)
			bad[i] ^= 0x20
			if _, err := parseShardFile(bad); err == nil {
				t.Errorf("key %q: byte %d changed: no error", key, i)
			}
		}
	}
}

// TestRunShardResumes checks that a complete shard file is kept, and that
// a damaged or foreign one is made again.
func TestRunShardResumes(t *testing.T) {
	ctx := context.Background()
	e := shardExperiments()["faults"]
	dir := t.TempDir()
	first, err := RunShard(ctx, e, Options{}, Shard{1, 2}, dir)
	if err != nil || first.Kept || first.Replaced != nil {
		t.Fatalf("first run: %+v, %v", first, err)
	}
	want, _ := os.ReadFile(first.Path)
	again, err := RunShard(ctx, e, Options{}, Shard{1, 2}, dir)
	if err != nil || !again.Kept {
		t.Errorf("second run: %+v, %v; want the file kept", again, err)
	}
	for _, damage := range []func([]byte) []byte{
		func(b []byte) []byte { return b[:len(b)/2] },
		func(b []byte) []byte { return bytes.Replace(b, []byte("shard: 1 of 2"), []byte("shard: 2 of 2"), 1) },
	} {
		if err := os.WriteFile(first.Path, damage(slices.Clone(want)), 0o644); err != nil {
			t.Fatal(err)
		}
		run, err := RunShard(ctx, e, Options{}, Shard{1, 2}, dir)
		if err != nil || run.Kept || run.Replaced == nil {
			t.Errorf("run over a damaged file: %+v, %v; want it made again", run, err)
		}
		if got, _ := os.ReadFile(first.Path); !bytes.Equal(got, want) {
			t.Errorf("the file made again differs from the first")
		}
	}
}

// TestMergeRefuses checks each way a folder of shard files can be wrong:
// every problem is reported, with the file and what to do.
func TestMergeRefuses(t *testing.T) {
	ctx := context.Background()
	e := shardExperiments()["faults"]
	other := *e
	other.StateRows = []int{400}
	shards := func(t *testing.T, e *experiment.Experiment, dir string, n int, which ...int) {
		for _, i := range which {
			if _, err := RunShard(ctx, e, Options{}, Shard{i, n}, dir); err != nil {
				t.Fatal(err)
			}
		}
	}
	tests := []struct {
		name    string
		prepare func(t *testing.T, dir, folder string)
		want    []string
	}{
		{"no folder", func(t *testing.T, dir, folder string) {}, []string{"no shard files"}},
		{"missing", func(t *testing.T, dir, folder string) { shards(t, e, dir, 5, 2, 4) },
			[]string{"3 of 5 shard files missing: 1, 3, 5"}},
		{"duplicate", func(t *testing.T, dir, folder string) {
			shards(t, e, dir, 2, 1, 2)
			copyFile(t, filepath.Join(folder, "1-of-2"), filepath.Join(folder, "copy"))
		}, []string{"shard 1 of 2 twice"}},
		{"foreign experiment", func(t *testing.T, dir, folder string) {
			shards(t, e, dir, 2, 1)
			shards(t, &other, dir, 2, 2)
		}, []string{"2-of-2: made from another experiment"}},
		{"foreign N", func(t *testing.T, dir, folder string) {
			shards(t, e, dir, 2, 1, 2)
			shards(t, e, dir, 3, 1, 2, 3)
		}, []string{"runs in 2, 3 parts side by side"}},
		{"corrupt", func(t *testing.T, dir, folder string) {
			shards(t, e, dir, 2, 1, 2)
			flipByte(t, filepath.Join(folder, "2-of-2"), 200)
		}, []string{"2-of-2: checksum mismatch"}},
		{"truncated", func(t *testing.T, dir, folder string) {
			shards(t, e, dir, 2, 1, 2)
			path := filepath.Join(folder, "1-of-2")
			info, _ := os.Stat(path)
			os.Truncate(path, info.Size()-10)
		}, []string{"1-of-2: not a complete shard file"}},
		{"a huge junk file, not read", func(t *testing.T, dir, folder string) {
			shards(t, e, dir, 2, 1, 2)
			f, _ := os.Create(filepath.Join(folder, "junk"))
			f.Truncate(1000 << 20) // sparse: 1000 MiB that take no disk
			f.Close()
		}, []string{"junk: larger than a shard file of this experiment can be"}},
		{"a link to a file that reads forever", func(t *testing.T, dir, folder string) {
			shards(t, e, dir, 2, 1, 2)
			os.Symlink("/proc/self/pagemap", filepath.Join(folder, "pagemap"))
		}, []string{"pagemap: a symbolic link, not a regular file"}},
		{"a link to a shard", func(t *testing.T, dir, folder string) {
			shards(t, e, dir, 2, 1)
			os.Symlink(filepath.Join(t.TempDir(), "2-of-2"), filepath.Join(folder, "2-of-2"))
		}, []string{"2-of-2: a symbolic link, not a regular file"}},
		{"a FIFO, not waited on", func(t *testing.T, dir, folder string) {
			shards(t, e, dir, 2, 1, 2)
			testkit.MakeFIFO(t, filepath.Join(folder, "fifo"))
		}, []string{"fifo: a FIFO, not a regular file"}},
		{"not a shard file", func(t *testing.T, dir, folder string) {
			shards(t, e, dir, 2, 1, 2)
			os.WriteFile(filepath.Join(folder, "notes.txt"), []byte("hello\n"), 0o644)
		}, []string{"notes.txt: not a ckptlab shard file"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			tt.prepare(t, dir, shardsDir(dir, e))
			res, err := Merge(context.Background(), e, dir, Options{})
			if err == nil {
				t.Fatalf("merged %v, want an error", res)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
			var missing *missingShardsError
			if errors.As(err, &missing) != (tt.name == "missing") {
				t.Errorf("error %q: MissingShardsError %v, want only for missing shards", err, missing)
			}
		})
	}
}

// TestMergeIgnoresTemporaries checks that the hidden temporary file of a
// shard still running, or killed, does not disturb a merge.
func TestMergeIgnoresTemporaries(t *testing.T) {
	e := shardExperiments()["lesson"]
	dir := t.TempDir()
	if _, err := RunShard(context.Background(), e, Options{}, Shard{1, 1}, dir); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(shardsDir(dir, e), ".1-of-1.tmp-123"), []byte("ckptlab shard file 1\ntool"), 0o644)
	if _, err := Merge(context.Background(), e, dir, Options{}); err != nil {
		t.Error(err)
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func flipByte(t *testing.T, path string, i int) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	data[i%len(data)] ^= 1
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// FuzzShardFile feeds the shard file reader damaged files: it must return
// an error or a file, never panic. The fuzzed bytes are a file without its
// checksum line, which the target appends, so that damage reaches the
// header, piece and tally parsers; the seeds are real shard files.
//
//	go test ./runner -run '^$' -fuzz FuzzShardFile
func FuzzShardFile(f *testing.F) {
	e := shardExperiments()["large"]
	dir := f.TempDir()
	for i := 1; i <= 2; i++ {
		run, err := RunShard(context.Background(), e, Options{}, Shard{i, 2}, dir)
		if err != nil {
			f.Fatal(err)
		}
		data, err := os.ReadFile(run.Path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data[:bytes.LastIndex(data, []byte("sha256: "))])
	}
	hash, srcs, parts := configHash(e), e.SourceList(), e.Partitionings()
	f.Fuzz(func(t *testing.T, body []byte) {
		sum := sha256.Sum256(body)
		data := fmt.Appendf(slices.Clip(body), "sha256: %x\n", sum)
		if sf, err := parseShardFile(data); err == nil {
			checkShard(e, sf, hash, srcs, parts)
		}
	})
}

// TestMissingShardsMessage checks that a merge missing many shards names
// the first few and counts the rest, rather than printing every index.
func TestMissingShardsMessage(t *testing.T) {
	m := &missingShardsError{Dir: "out/x/shards", N: maxShards}
	for i := 1; i <= maxShards; i++ {
		m.Missing = append(m.Missing, i)
	}
	msg := m.Error()
	if !strings.Contains(msg, "100000 of 100000 shard files missing: 1, 2, 3,") || !strings.Contains(msg, "… and 99980 more") || len(msg) > 300 {
		t.Errorf("message of %d bytes: %s", len(msg), msg)
	}
}

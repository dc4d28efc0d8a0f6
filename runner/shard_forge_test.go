package runner

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"ckptlab/runner/experiment"
)

// forgedTally is a tally as its documented encoding (model/tally_codec.go)
// lays it out, decoded by this test on its own, as a forger would: every
// count can be edited and the tally encoded again.
type forgedTally struct {
	periods    uint64
	parts      [][2]uint64 // key, workers
	subs       int64
	lost       []int64
	drops      [3]int64
	workerSubs [][]int64
	touched    [][]forgedWorker
}

type forgedWorker struct {
	w    uint64
	lost []int64
}

func decodeForged(t *testing.T, b []byte) *forgedTally {
	t.Helper()
	if string(b[:4]) != "CKTY" || b[4] != 1 {
		t.Fatal("not a version 1 tally")
	}
	b = b[5:]
	u := func() uint64 { v, n := binary.Uvarint(b); b = b[n:]; return v }
	s := func() int64 { v, n := binary.Varint(b); b = b[n:]; return v }
	ss := func(n uint64) []int64 {
		out := make([]int64, n)
		for i := range out {
			out[i] = s()
		}
		return out
	}
	f := &forgedTally{periods: u()}
	for range u() {
		key := uint64(b[0])
		b = b[1:]
		f.parts = append(f.parts, [2]uint64{key, u()})
	}
	f.subs = s()
	f.lost = ss(f.periods)
	copy(f.drops[:], ss(3))
	for _, p := range f.parts {
		f.workerSubs = append(f.workerSubs, ss(p[1]))
		var ws []forgedWorker
		for range u() {
			ws = append(ws, forgedWorker{w: u(), lost: ss(f.periods)})
		}
		f.touched = append(f.touched, ws)
	}
	if len(b) != 0 {
		t.Fatalf("%d bytes after the tally", len(b))
	}
	return f
}

func (f *forgedTally) encode() []byte {
	b := append([]byte("CKTY"), 1)
	b = binary.AppendUvarint(b, f.periods)
	b = binary.AppendUvarint(b, uint64(len(f.parts)))
	for _, p := range f.parts {
		b = append(b, byte(p[0]))
		b = binary.AppendUvarint(b, p[1])
	}
	vs := func(v []int64) {
		for _, x := range v {
			b = binary.AppendVarint(b, x)
		}
	}
	b = binary.AppendVarint(b, f.subs)
	vs(f.lost)
	vs(f.drops[:])
	for p := range f.parts {
		vs(f.workerSubs[p])
		b = binary.AppendUvarint(b, uint64(len(f.touched[p])))
		for _, w := range f.touched[p] {
			b = binary.AppendUvarint(b, w.w)
			vs(w.lost)
		}
	}
	return b
}

// forgedFile is a shard file split into its header lines and its tallies,
// to be edited and written again with a checksum that matches.
type forgedFile struct {
	header  []string // the lines before the first tally
	ranges  []string // each tally's range: source, first subscriber, end
	tallies []*forgedTally
	trailer []string // the lines after the last tally: the signature, if any
}

func readForged(t *testing.T, data []byte) *forgedFile {
	t.Helper()
	end := bytes.LastIndex(data[:len(data)-1], []byte("\n")) + 1
	data = data[:end] // without the checksum line
	f := &forgedFile{}
	for len(data) > 0 {
		line, rest, _ := bytes.Cut(data, []byte("\n"))
		data = rest
		if !bytes.HasPrefix(line, []byte("tally: ")) {
			if len(f.tallies) > 0 {
				f.trailer = append(f.trailer, string(line))
			} else {
				f.header = append(f.header, string(line))
			}
			continue
		}
		var src, lo, hi, size int
		fmt.Sscanf(string(line), "tally: %d %d %d %d", &src, &lo, &hi, &size)
		f.ranges = append(f.ranges, fmt.Sprintf("%d %d %d", src, lo, hi))
		f.tallies = append(f.tallies, decodeForged(t, data[:size]))
		data = data[size+1:]
	}
	return f
}

func (f *forgedFile) bytes() []byte {
	var b bytes.Buffer
	for _, l := range f.header {
		b.WriteString(l + "\n")
	}
	for i, tl := range f.tallies {
		data := tl.encode()
		fmt.Fprintf(&b, "tally: %s %d\n", f.ranges[i], len(data))
		b.Write(data)
		b.WriteByte('\n')
	}
	for _, l := range f.trailer {
		b.WriteString(l + "\n")
	}
	sum := sha256.Sum256(b.Bytes())
	fmt.Fprintf(&b, "sha256: %s\n", hex.EncodeToString(sum[:]))
	return b.Bytes()
}

// setHeader replaces the value of a header field.
func (f *forgedFile) setHeader(key, value string) {
	for i, l := range f.header {
		if strings.HasPrefix(l, key+": ") {
			f.header[i] = key + ": " + value
		}
	}
}

// TestMergeRefusesForgedShards checks that shard files whose checksum was
// recomputed after their counts were edited are refused, each with a
// message that says what is wrong, and that merge then writes nothing.
func TestMergeRefusesForgedShards(t *testing.T) {
	ctx := context.Background()
	e := shardExperiments()["faults"]
	tests := []struct {
		name  string
		forge func(f *forgedFile)
		want  string
	}{
		{"negative subscribers", func(f *forgedFile) { f.tallies[0].subs = -200 },
			"cannot be a count of them: it counts -200 subscribers where its pieces cover"},
		{"extra subscribers", func(f *forgedFile) {
			f.tallies[0].subs += 1000
			f.tallies[0].workerSubs[0][0] += 1000
		}, "subscribers where its pieces cover"},
		{"workers that do not sum", func(f *forgedFile) { f.tallies[0].workerSubs[0][1]++ },
			"the workers of region × 4 hold"},
		{"workers below zero", func(f *forgedFile) {
			f.tallies[0].workerSubs[0][0] = -5
			f.tallies[0].workerSubs[0][1] += 5
		}, "hold more subscribers than"},
		{"2^62 subscribers", func(f *forgedFile) {
			f.tallies[0].subs = 1 << 62
			f.tallies[0].workerSubs[0][0] = 1 << 62
		}, "it counts 4611686018427387904 subscribers where its pieces cover"},
		{"10^9 lost rows per period", func(f *forgedFile) {
			for j := 1; j < len(f.tallies[0].lost); j++ {
				f.tallies[0].lost[j] = 1e9
			}
		}, "rows lost in period 2"},
		{"lost rows the workers do not lose", func(f *forgedFile) { f.tallies[0].lost[3]++ },
			"but the stream loses"},
		{"more lost rows than faults", func(f *forgedFile) {
			tl := f.tallies[0]
			for j := 1; j < len(tl.lost); j++ {
				tl.lost[j] += 10
				tl.touched[0][0].lost[j] += 10
			}
		}, "missing records can remove"},
		{"negative drops", func(f *forgedFile) { f.tallies[0].drops[0] = -1 }, "negative drop counts"},
		{"more drops than draws", func(f *forgedFile) { f.tallies[0].drops[1] = math.MaxInt64 }, "more than the 25 duplicate draws"},
		{"another tool version", func(f *forgedFile) { f.setHeader("tool", "9.9.9") },
			`made by ckptlab "9.9.9", not by this ckptlab`},
		{"another experiment's hash", func(f *forgedFile) { f.setHeader("hash", strings.Repeat("0", 64)) },
			"made from another experiment"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for i := 1; i <= 2; i++ {
				if _, err := RunShard(ctx, e, Options{}, Shard{i, 2}, dir); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := Merge(ctx, e, dir, Options{}); err != nil {
				t.Fatalf("the shards as written: %v", err)
			}
			path := filepath.Join(shardsDir(dir, e), "1-of-2")
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			f := readForged(t, data)
			if !bytes.Equal(f.bytes(), data) {
				t.Fatal("the forger does not write the file back as it was")
			}
			tt.forge(f)
			if err := os.WriteFile(path, f.bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err = Merge(ctx, e, dir, Options{})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Merge = %v\nwant an error saying %q", err, tt.want)
			}
			if err != nil && !strings.Contains(err.Error(), path) {
				t.Errorf("Merge = %v: does not name %s", err, path)
			}
		})
	}

	// A shard of another experiment with this experiment's hash written
	// in: its pieces and counts are not those of this experiment.
	t.Run("foreign shard with this hash", func(t *testing.T) {
		dir, elsewhere := t.TempDir(), t.TempDir()
		big := *e
		big.Subscribers = []int{300}
		if _, err := RunShard(ctx, e, Options{}, Shard{2, 2}, dir); err != nil {
			t.Fatal(err)
		}
		run, err := RunShard(ctx, &big, Options{}, Shard{1, 2}, elsewhere)
		if err != nil {
			t.Fatal(err)
		}
		data, _ := os.ReadFile(run.Path)
		f := readForged(t, data)
		f.setHeader("experiment", e.Name)
		f.setHeader("hash", configHash(e))
		os.WriteFile(filepath.Join(shardsDir(dir, e), "1-of-2"), f.bytes(), 0o644)
		_, err = Merge(ctx, e, dir, Options{})
		if err == nil || !strings.Contains(err.Error(), "its pieces are not those of shard 1 of 2") {
			t.Errorf("Merge = %v, want the foreign pieces refused", err)
		}
	})
}

// forgeShard writes into dir shard s of e as a forger makes it: counted as
// other, an experiment of the same sources' shape, then given e's name and
// hash and a checksum that matches. It fails the test if the forged
// tallies are those of an honest shard, which would prove nothing.
func forgeShard(t *testing.T, e, other *experiment.Experiment, s Shard, dir string) string {
	t.Helper()
	ctx := context.Background()
	honest, err := RunShard(ctx, e, Options{}, s, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	forged, err := RunShard(ctx, other, Options{}, s, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	want, _ := os.ReadFile(honest.Path)
	data, _ := os.ReadFile(forged.Path)
	f := readForged(t, data)
	f.setHeader("experiment", e.Name)
	f.setHeader("hash", configHash(e))
	if bytes.Equal(f.bytes(), want) {
		t.Fatalf("shard %v counted as the other experiment is the honest one: not a forgery", s)
	}
	path := filepath.Join(shardsDir(dir, e), s.String())
	os.MkdirAll(filepath.Dir(path), 0o755)
	if err := os.WriteFile(path, f.bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// moveSubscriber forges a tally that every bound of model.Tally.Check
// holds: one subscriber moved from a worker to the next.
func moveSubscriber(tl *forgedTally) {
	subs := tl.workerSubs[0]
	for w := range subs {
		if subs[w] > 0 {
			subs[w]--
			subs[(w+1)%len(subs)]++
			return
		}
	}
}

// TestMergeRecountsForgedShards forges shards whose every count is one
// counting could give, checksum recomputed: the forgery of a shard counted
// with another setting (missing: 21 for 20) and that of one range's tally.
// Each is refused, naming the file and the range, whenever the range is
// counted again: always under VerifyAll, under VerifySample when the
// sample draws it (a shard of one range, every range forged, or the
// range it draws). VerifyNone, and the sample that does not draw the
// forged range, let the forgery through, as documented: the test holds
// that the tables are then wrong, so that the forgery is one that matters.
func TestMergeRecountsForgedShards(t *testing.T) {
	ctx := context.Background()
	small := experiment.Lesson("forged") // 3 shards of 1,000 subscribers: a range each
	small.Subscribers = []int{3000}
	small.Missing, small.Duplicates = 20, 5
	large := small // 3 shards of 40,000: 32 ranges each
	large.Subscribers = []int{120_000}
	clean := experiment.Lesson("clean") // no faults: 2 shards of 32 ranges
	clean.Subscribers = []int{100_000}
	plus1 := func(e experiment.Experiment) *experiment.Experiment { e.Missing++; return &e }

	// sampled returns the ranges of shard s of e that VerifySample draws.
	sampled := func(t *testing.T, e *experiment.Experiment, s Shard) []int {
		run, err := RunShard(ctx, e, Options{}, s, t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		f, err := ReadShardFile(run.Path, MaxShardBytes(e))
		if err != nil {
			t.Fatal(err)
		}
		return VerifySample.picks(f)
	}
	// editRanges forges the tallies of shard s of e that pick returns.
	editRanges := func(pick func(t *testing.T, e *experiment.Experiment, s Shard, n int) []int) func(t *testing.T, e *experiment.Experiment, s Shard, dir string) string {
		return func(t *testing.T, e *experiment.Experiment, s Shard, dir string) string {
			path := filepath.Join(shardsDir(dir, e), s.String())
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			f := readForged(t, data)
			for _, k := range pick(t, e, s, len(f.tallies)) {
				moveSubscriber(f.tallies[k])
			}
			os.WriteFile(path, f.bytes(), 0o644)
			return path
		}
	}
	drawn := editRanges(func(t *testing.T, e *experiment.Experiment, s Shard, n int) []int { return sampled(t, e, s) })
	notDrawn := editRanges(func(t *testing.T, e *experiment.Experiment, s Shard, n int) []int {
		for k := range n {
			if !slices.Contains(sampled(t, e, s), k) {
				return []int{k}
			}
		}
		t.Fatal("every range drawn")
		return nil
	})
	every := editRanges(func(t *testing.T, e *experiment.Experiment, s Shard, n int) []int {
		var all []int
		for k := range n {
			all = append(all, k)
		}
		return all
	})
	otherSetting := func(other *experiment.Experiment) func(t *testing.T, e *experiment.Experiment, s Shard, dir string) string {
		return func(t *testing.T, e *experiment.Experiment, s Shard, dir string) string {
			return forgeShard(t, e, other, s, dir)
		}
	}

	tests := []struct {
		name   string
		e      *experiment.Experiment
		n      int
		forge  func(t *testing.T, e *experiment.Experiment, s Shard, dir string) string
		verify Verify
		want   string // "" when the forgery goes through
	}{
		{"missing: 21, one range, sample", &small, 3, otherSetting(plus1(small)), VerifySample,
			"the tally of source 0, subscribers 2001 to 3000 (range 1 of 1), differs from a count of them"},
		{"missing: 21, one range, all", &small, 3, otherSetting(plus1(small)), VerifyAll, "(range 1 of 1), differs from a count"},
		{"missing: 21, one range, none", &small, 3, otherSetting(plus1(small)), VerifyNone, ""},
		{"missing: 21, 32 ranges, all", &large, 3, otherSetting(plus1(large)), VerifyAll, "of 32), differs from a count of them"},
		{"one range forged, the one drawn, sample", &clean, 2, drawn, VerifySample, "of 32), differs from a count of them"},
		{"one range forged, not drawn, sample", &clean, 2, notDrawn, VerifySample, ""},
		{"one range forged, not drawn, all", &clean, 2, notDrawn, VerifyAll, "of 32), differs from a count of them"},
		{"every range forged, sample", &clean, 2, every, VerifySample, "of 32), differs from a count of them"},
		{"every range forged, none", &clean, 2, every, VerifyNone, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			one, err := Evaluate(ctx, tt.e, Options{})
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			for i := 1; i <= tt.n; i++ {
				if _, err := RunShard(ctx, tt.e, Options{}, Shard{i, tt.n}, dir); err != nil {
					t.Fatal(err)
				}
			}
			path := tt.forge(t, tt.e, Shard{tt.n, tt.n}, dir)
			res, err := Merge(ctx, tt.e, dir, Options{Verify: tt.verify})
			if tt.want == "" {
				if err != nil {
					t.Fatalf("Merge = %v, want the forgery through", err)
				}
				if sameCounts(res, one) {
					t.Errorf("the forgery went through, and the sources are those of one run: it changed nothing")
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), path+": ") {
				t.Errorf("Merge = %v\nwant an error naming %s and saying %q", err, path, tt.want)
			}
		})
	}
}

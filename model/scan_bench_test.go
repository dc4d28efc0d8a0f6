package model

import "testing"

// The scale of experiments/scale.yaml.
// It is a million subscribers over 120 periods.
// They are partitioned by subscriber over each of its worker counts.
const (
	scaleSeed        = 20260218
	scaleSubscribers = 1_000_000
	scalePeriods     = 120
)

var scaleWorkers = []int{1, 2, 4, 8, 16, 32, 64}

var sink uint64

// BenchmarkFloorDraw draws every random number a source of the scale experiment
// consists of, on one core, and nothing else.
// That is three draws per subscriber from rng(seed + 37*i).
// It is one draw per record from rng(seed + 101*i + 7*j).
// No implementation of the model (docs/design.md#the-model) can do less.
// So its time is the floor the whole run is measured against.
func BenchmarkFloorDraw(b *testing.B) {
	for b.Loop() {
		var sum uint64
		for i := range uint64(scaleSubscribers) {
			r := NewRand(scaleSeed + 37*i)
			sum += uint64(r.Intn(5) + r.Intn(2) + r.Intn(60000))
			for j := range uint64(scalePeriods) {
				r := NewRand(scaleSeed + 101*i + 7*j)
				sum += uint64(r.Intn(46))
			}
		}
		sink += sum
	}
	b.ReportMetric(float64(scaleSubscribers*scalePeriods)*float64(b.N)/b.Elapsed().Seconds(), "records/s")
}

// BenchmarkScan streams a source of the scale experiment on one core.
// It runs generation, the stages and the tally of every worker count.
// That is the per-record work of a run. Compare it with BenchmarkFloorDraw.
func BenchmarkScan(b *testing.B) {
	benchmarks := []struct {
		name string
		src  Source
	}{
		{"clean", Source{Seed: scaleSeed, Subscribers: scaleSubscribers, Periods: scalePeriods}},
		// One fault in every thousand records of each kind.
		{"faults", Source{Seed: scaleSeed, Subscribers: scaleSubscribers, Periods: scalePeriods,
			Missing: scaleSubscribers * scalePeriods / 1000, Duplicates: scaleSubscribers * scalePeriods / 1000}},
	}
	var parts []Partitioning
	for _, w := range scaleWorkers {
		parts = append(parts, Partitioning{BySubscriber, w})
	}
	for _, bm := range benchmarks {
		b.Run(bm.name, func(b *testing.B) {
			f := bm.src.Faults()
			b.ReportAllocs()
			for b.Loop() {
				ref := newReference(bm.src, parts)
				ref.drops = bm.src.Scan(0, bm.src.Subscribers, f, ref.add)
				sink += uint64(ref.stream[1])
			}
			b.ReportMetric(float64(scaleSubscribers*scalePeriods)*float64(b.N)/b.Elapsed().Seconds(), "records/s")
		})
	}
}

// BenchmarkCount counts the same sources as BenchmarkScan, as a run does.
// Compare it with BenchmarkFloorDraw and BenchmarkScan.
func BenchmarkCount(b *testing.B) {
	var parts []Partitioning
	for _, w := range scaleWorkers {
		parts = append(parts, Partitioning{BySubscriber, w})
	}
	for _, bm := range []struct {
		name string
		src  Source
	}{
		{"clean", Source{Seed: scaleSeed, Subscribers: scaleSubscribers, Periods: scalePeriods}},
		{"faults", Source{Seed: scaleSeed, Subscribers: scaleSubscribers, Periods: scalePeriods,
			Missing: scaleSubscribers * scalePeriods / 1000, Duplicates: scaleSubscribers * scalePeriods / 1000}},
		// One fault in every hundred records of each kind.
		{"faults1pct", Source{Seed: scaleSeed, Subscribers: scaleSubscribers, Periods: scalePeriods,
			Missing: scaleSubscribers * scalePeriods / 100, Duplicates: scaleSubscribers * scalePeriods / 100}},
	} {
		b.Run(bm.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				t := NewTally(bm.src.Periods, parts)
				bm.src.Count(t, 0, bm.src.Subscribers)
				sink += uint64(t.Rows())
			}
			b.ReportMetric(float64(scaleSubscribers*scalePeriods)*float64(b.N)/b.Elapsed().Seconds(), "records/s")
		})
	}
}

package runner

import (
	"context"
	"fmt"
	"testing"
)

// BenchmarkMergeScale merges the shard files of the scale experiment, in 4
// and in 100 shards, as a million and as a hundred million subscribers:
// reading, checking and summing the files, then assembling the result (no
// tables). Its time and allocations grow with the shards and the counts,
// not with the subscribers.
func BenchmarkMergeScale(b *testing.B) {
	for _, subs := range []int{1_000_000, 100_000_000} {
		for _, n := range []int{4, 100} {
			b.Run(fmt.Sprintf("subscribers=%d/shards=%d", subs, n), func(b *testing.B) {
				e := scaleExperiment()
				e.Subscribers = []int{subs}
				dir := b.TempDir()
				for i := 1; i <= n; i++ {
					if _, err := RunShard(context.Background(), e, Options{}, Shard{i, n}, dir); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportAllocs()
				b.ResetTimer()
				for b.Loop() {
					if _, err := Merge(context.Background(), e, dir, Options{}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

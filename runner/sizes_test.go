package runner

// countPoints counts the sizes of e by visiting every point of every
// grid, as an independent check of Sizes; a source of several grids
// counts once. It gives up (ok false) when the
// grids hold more than limit points.
func countPoints(e *Experiment, limit int64) (s Sizes, ok bool) {
	var all int64
	for _, g := range e.Grids() {
		all += e.fullSizes(&g).GridRows
	}
	if all > limit {
		return Sizes{}, false
	}
	seen := map[[3]int]bool{} // sources counted
	for _, g := range e.Grids() {
		for _, seed := range g.Seeds {
			for _, n := range g.Subscribers {
				for _, p := range g.Periods {
					drawnHere := false
					for _, key := range g.PartitionKeys {
						for _, w := range g.Workers {
							for _, k := range g.IntervalsFor(p) {
								left := false
								for _, sr := range g.StateRowsFor(n) {
									for _, prob := range g.Probabilities {
										pt := Point{seed, n, p, key, w, sr, prob, k}
										if !e.Excluded(pt) {
											s.GridRows++
											left = true
										}
									}
								}
								if left {
									s.FailureRows += e.failureCount(p)
									drawnHere = true
								}
							}
						}
					}
					if key := [3]int{int(seed), n, p}; drawnHere && !seen[key] {
						seen[key] = true
						s.Sources++
					}
				}
			}
		}
	}
	return s, true
}

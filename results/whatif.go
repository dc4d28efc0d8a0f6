package results

// WhatIf holds what the what-if sheet needs to recompute the expected
// totals of one decision for a failure probability and a checkpoint size
// the analyst types: per source, its periods, the failure set's weight W
// and, per declared interval, the rows its failures recompute, weighted
// (Σ w_f·y_f). For interval k the sheet computes, as ckptlab does,
// E_k = p × S_k / W + checkpoints_k × state rows, checkpoints_k =
// periods // k (0 for none).
type WhatIf struct {
	// Probability and StateRows are the first decision's: the inputs' first
	// values, for which the sheet's cached values equal decisions.csv.
	Probability float64
	StateRows   int64
	// Intervals are the declared intervals, "none" or a number of periods,
	// shared by every source listed.
	Intervals []string
	// Sources are the sources the analyst picks from by number, the first
	// decision's first.
	Sources []WhatIfSource
	// Totals are ckptlab's expected totals of the first source at
	// Probability and StateRows, per interval: the formulas' cached values.
	Totals []float64
	// Schedule is the best schedule of the first source at Probability
	// and StateRows, as decisions.csv has it, or nil for none.
	Schedule *WhatIfSchedule
	// Note says what the sheet leaves out, or "".
	Note string
}

// WhatIfSchedule is the best schedule at the sheet's first inputs: a
// stated figure, since no formula finds it.
type WhatIfSchedule struct {
	Points []string // the labels of its checkpoint points, ascending
	Total  float64  // its expected total
	// Beats reports whether it costs less than every declared interval.
	Beats bool
}

// WhatIfSource is one source of the what-if sheet.
type WhatIfSource struct {
	Title   string // "seed 20260218, 200 subscribers, 12 periods"
	Periods int
	Weight  int64
	// StateRows are the rows one checkpoint of the source's first
	// decision writes.
	StateRows int64
	Sums      []int64 // per interval of WhatIf.Intervals
}

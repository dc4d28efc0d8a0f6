package model

// FailureSet is the failures a criterion weighs, each with its weight.
// The lesson assumes a failure equally likely in each period but the first (PF51).
// Each then weighs 1.
// An experiment may weigh some periods more (failure_weights).
// Failure f then counts w_f/W of the failures instead of 1/n.
// W is the total weight.
type FailureSet struct {
	Periods []int   // 0-based periods, ascending, at least one
	Weights []int64 // parallel to Periods; nil weighs every failure 1
}

// Weight returns the weight of the i-th failure.
func (fs FailureSet) Weight(i int) int64 {
	if fs.Weights == nil {
		return 1
	}
	return fs.Weights[i]
}

// Total returns W, the sum of the weights.
// It is the number of failures when each weighs 1.
func (fs FailureSet) Total() int64 {
	if fs.Weights == nil {
		return int64(len(fs.Periods))
	}
	var w int64
	for _, x := range fs.Weights {
		w += x
	}
	return w
}

package report

import (
	"ckptlab/criteria"
	"ckptlab/model"
)

// expectedTotal is the cost's expected total at probability prob with
// checkpoints of stateRows rows: the expected criterion, criteria.Expected.
func expectedTotal(c model.Cost, prob float64, stateRows int) float64 {
	return criteria.Expected(prob, c.Sum, c.Weight, c.CertainCost(stateRows))
}

// none reports whether no value of left is set.
func none(left []bool) bool {
	for _, ok := range left {
		if ok {
			return false
		}
	}
	return true
}

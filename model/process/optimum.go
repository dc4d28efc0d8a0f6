package process

import "ckptlab/model"

// Best returns the index of the declared interval with the least expected
// time and that time; ties go to the interval declared first.
func (p Process) Best(w Work, declared []model.Interval) (index int, expected float64) {
	index = -1
	for i, k := range declared {
		if e := p.ExpectedInterval(w, k); index < 0 || e < expected {
			index, expected = i, e
		}
	}
	return index, expected
}

// Optimal returns the interval with the least expected time among none and
// 1 … periods-1, and that time. They are tried in the order none,
// periods-1, …, 1, ties going to the earlier: to fewer checkpoints. Its
// cost is O(P log P).
func (p Process) Optimal(w Work) (model.Interval, float64) {
	best, e := model.None, p.ExpectedInterval(w, model.None)
	for k := w.Periods() - 1; k >= 1; k-- {
		if ek := p.ExpectedInterval(w, model.Interval(k)); ek < e {
			best, e = model.Interval(k), ek
		}
	}
	return best, e
}

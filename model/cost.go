package model

// Cost is what one checkpoint interval costs one partitioned source.
// It holds the figures of the lesson's tables that depend on neither the
// state rows a checkpoint holds nor the failure probability.
type Cost struct {
	Interval    Interval
	Checkpoints int
	// Recomputed is the recovery of the whole stream at the named failure,
	// and Busiest the most any one worker recovers there.
	Recomputed int64
	Busiest    int64
	// Worst, Sum and Weight describe the recovery of the whole stream over
	// the failure set: its maximum over the failures of positive weight,
	// its weighted sum Σ w_f·y_f and the total weight W (the number of
	// failures when each weighs 1).
	Worst  int64
	Sum    int64
	Weight int64
	// BusiestWorst is the most any one worker recomputes over the failures
	// of positive weight: what the failed worker may ask back whichever
	// failure happens.
	BusiestWorst int64
}

// NewCost evaluates interval k over a source of the given number of periods.
// f is the named failure, 0-based, and fs the failure set.
// A failure of weight 0 counts in no criterion, since it never happens.
func NewCost(stream Recovery, workers WorkerSet, periods int, k Interval, f int, fs FailureSet) Cost {
	c := Cost{
		Interval:    k,
		Checkpoints: k.Checkpoints(periods),
		Recomputed:  stream.Recomputed(k, f),
		Busiest:     Busiest(workers, k, f),
		Weight:      fs.Total(),
	}
	for i, d := range fs.Periods {
		w := fs.Weight(i)
		if w == 0 {
			continue
		}
		y := stream.Recomputed(k, d)
		c.Worst = max(c.Worst, y)
		c.Sum += w * y
		c.BusiestWorst = max(c.BusiestWorst, Busiest(workers, k, d))
	}
	return c
}

// CertainCost returns checkpoints × state rows.
// Every run pays it, failure or not.
func (c Cost) CertainCost(stateRows int) int64 {
	return int64(c.Checkpoints) * int64(stateRows)
}

// ExactlyOnceState returns the number of row identities exactly-once must hold.
// As the lesson shows, that is the rows recovery recomputes.
func (c Cost) ExactlyOnceState() int64 { return c.Recomputed }

// WorstTotal returns the worst recovery plus the certain cost.
func (c Cost) WorstTotal(stateRows int) int64 { return c.Worst + c.CertainCost(stateRows) }

// Average returns the mean recovery over the failure set, Σ w_f·y_f / W in float64.
// It is sum / n when each failure weighs 1.
func (c Cost) Average() float64 { return float64(c.Sum) / float64(c.Weight) }

// AverageTotal returns the mean recovery plus the certain cost.
func (c Cost) AverageTotal(stateRows int) float64 {
	return c.Average() + float64(c.CertainCost(stateRows))
}

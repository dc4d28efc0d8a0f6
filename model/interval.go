package model

import "strconv"

// Interval is a checkpoint interval in periods.
// None, the zero Interval, holds no checkpoint.
// It is the lesson's None, the baseline that starts over after a failure.
type Interval int

// None is the interval of a job that holds no checkpoint.
const None Interval = 0

// String returns the interval as tables write it, "none" or the number of periods.
func (k Interval) String() string {
	if k == None {
		return "none"
	}
	return strconv.Itoa(int(k))
}

// Checkpoints returns the lesson's checkpoints field for a job of the given
// number of periods.
// It is periods // k, and 0 for None.
func (k Interval) Checkpoints(periods int) int {
	if k == None {
		return 0
	}
	return periods / int(k)
}

// LastPoint returns the period of the last checkpoint at or before failure f.
// Both are 0-based. It is the lesson's (f // k) * k.
// A job without checkpoints restarts from before period 0.
// LastPoint reports that as -1.
func (k Interval) LastPoint(f int) int {
	if k == None {
		return -1
	}
	return f / int(k) * int(k)
}

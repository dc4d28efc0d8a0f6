// Package satmath adds and multiplies non-negative counts without overflow.
// Results saturate at math.MaxInt64.
// An experiment's sizes and a run's memory estimates saturate alike.
// A figure too large to hold reads as math.MaxInt64, never as a wrapped negative.
package satmath

import "math"

// Mul multiplies non-negative counts, saturating at math.MaxInt64.
// A zero factor makes the product zero, whatever the others.
// No factors make 1.
func Mul(factors ...int64) int64 {
	out := int64(1)
	for _, f := range factors {
		if f == 0 {
			return 0
		}
		if out > math.MaxInt64/f {
			out = math.MaxInt64
		} else {
			out *= f
		}
	}
	return out
}

// Add adds non-negative counts, saturating at math.MaxInt64 as Mul does.
func Add(a, b int64) int64 {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}

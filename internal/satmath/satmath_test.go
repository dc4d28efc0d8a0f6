package satmath

import (
	"math"
	"testing"
)

func TestMul(t *testing.T) {
	tests := []struct {
		factors []int64
		want    int64
	}{
		{nil, 1},
		{[]int64{3, 4}, 12},
		{[]int64{math.MaxInt64, 0}, 0},
		{[]int64{1 << 32, 1 << 31}, 1<<63 - 1},
		{[]int64{1 << 32, 1 << 30}, 1 << 62},
		{[]int64{math.MaxInt64, 2, 0}, 0},
	}
	for _, tt := range tests {
		if got := Mul(tt.factors...); got != tt.want {
			t.Errorf("Mul(%v) = %d, want %d", tt.factors, got, tt.want)
		}
	}
}

func TestAdd(t *testing.T) {
	tests := []struct {
		a, b, want int64
	}{
		{0, 0, 0},
		{2, 3, 5},
		{math.MaxInt64 - 1, 1, math.MaxInt64},
		{math.MaxInt64 - 1, 2, math.MaxInt64},
		{math.MaxInt64, math.MaxInt64, math.MaxInt64},
	}
	for _, tt := range tests {
		if got := Add(tt.a, tt.b); got != tt.want {
			t.Errorf("Add(%d, %d) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

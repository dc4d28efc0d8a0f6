package workbook

import (
	"math"
	"strconv"
	"testing"

	"ckptlab/results"
)

// TestCellFloat checks that workbook numbers are rounded to 15 significant
// digits, not cut, whether they come as floats or as numeric text (the
// Young and Daly columns).
func TestCellFloat(t *testing.T) {
	tests := []struct {
		in   results.Value
		want string // the cell's value as excelize writes it
	}{
		{results.FloatValue(0.9166666666666666), "0.916666666666667"},
		{results.FloatValue(1018.1818181818182), "1018.18181818182"},
		{results.FloatValue(2409.090909090909), "2409.09090909091"},
		{results.FloatValue(927.2727272727273), "927.272727272727"},
		{results.FloatValue(0.25), "0.25"},
		{results.TextValue("4.898979485566356"), "4.89897948556636"},
		{results.TextValue("none"), "none"},
	}
	for _, tt := range tests {
		var got string
		switch v := numericCellValue(tt.in).(type) {
		case float64:
			got = strconv.FormatFloat(v, 'f', -1, 64)
		case int64:
			got = strconv.FormatInt(v, 10)
		case string:
			got = v
		}
		if got != tt.want {
			t.Errorf("cell of %v = %s, want %s", tt.in, got, tt.want)
		}
	}
	if !math.IsNaN(cellFloat(math.NaN())) || !math.IsInf(cellFloat(math.Inf(1)), 1) {
		t.Error("NaN or infinity changed")
	}
}

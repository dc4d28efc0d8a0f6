package results

import "testing"

// TestQuantityFormat checks the number style: the text each kind of
// quantity shows, and the spreadsheet format that shows the same.
func TestQuantityFormat(t *testing.T) {
	tests := []struct {
		q      Quantity
		v      float64
		text   string
		numFmt string
	}{
		{Count, 119000000, "119,000,000", "#,##0"},
		{Count, 200, "200", "#,##0"},
		{Count, -1234, "-1,234", "#,##0"},
		{Total, 1200, "1,200.0", "#,##0.0"},
		{Total, 927.2727272727273, "927.3", "#,##0.0"},
		{Total, 3e7, "30,000,000.0", "#,##0.0"},
		// a half rounds away from zero, as a spreadsheet shows it
		{Total, 356.25, "356.3", "#,##0.0"},
		{Total, -356.25, "-356.3", "#,##0.0"},
		{Total, 999.96, "1,000.0", "#,##0.0"},
		{Total, -0.04, "0.0", "#,##0.0"},
		{Count, 2.5, "3", "#,##0"},
		{Probability, 0.00005, "0.0001", "0.0000"},
		{Probability, 11.0 / 18, "0.6111", "0.0000"},
		{Probability, 1, "1.0000", "0.0000"},
		{Estimate, 4.898979485566356, "4.90", "#,##0.00"},
		{General, 20260218, "20260218", "General"},
		{General, 0.611111111111111, "0.611111111111111", "General"},
	}
	for _, tt := range tests {
		if got := tt.q.Format(tt.v); got != tt.text {
			t.Errorf("%d.Format(%v) = %q, want %q", tt.q, tt.v, got, tt.text)
		}
		if got := tt.q.NumFmt(); got != tt.numFmt {
			t.Errorf("%d.NumFmt() = %q, want %q", tt.q, got, tt.numFmt)
		}
	}
	if got := Count.FormatInt(9007199254740993); got != "9,007,199,254,740,993" {
		t.Errorf("Count.FormatInt(2^53+1) = %q, want every digit", got)
	}
	if got := Total.FormatInt(1200); got != "1,200.0" {
		t.Errorf("Total.FormatInt(1200) = %q, want 1,200.0", got)
	}
}

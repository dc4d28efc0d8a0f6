package results_test

import (
	"log"
	"os"
	"slices"

	"ckptlab/results"
)

// WriteCSV writes a table as RFC 4180 CSV: integers without a decimal
// point, floats in the shortest form that reads back to the same float64,
// text quoted where it must be.
func ExampleWriteCSV() {
	t := results.Table{
		Name: "costs",
		Columns: []results.Column{
			{Name: "interval", Kind: results.Text},
			{Name: "checkpoints", Kind: results.Int},
			{Name: "expected_total", Kind: results.Float, Decimals: 1},
			{Name: "best", Kind: results.Bool},
		},
		Rows: slices.Values([][]results.Value{
			{results.TextValue("none"), results.IntValue(0), results.FloatValue(1100), results.BoolValue(false)},
			{results.TextValue("4"), results.IntValue(3), results.FloatValue(927.2727272727273), results.BoolValue(true)},
			{results.TextValue("a, b"), results.IntValue(12), results.FloatValue(0.5), results.BoolValue(false)},
		}),
	}
	if err := results.WriteCSV(os.Stdout, t); err != nil {
		log.Fatal(err)
	}
	// Output:
	// interval,checkpoints,expected_total,best
	// none,0,1100,false
	// 4,3,927.2727272727273,true
	// "a, b",12,0.5,false
}

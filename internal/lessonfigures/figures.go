// Package lessonfigures holds the tables the lesson "State in Stream Engines" prints.
// They are typed once from the lesson's text.
// They are the independent truth that tests of every output hold ckptlab to.
// The outputs are CSV, the workbook and Markdown.
//
// Cells are spelled as the lesson prints them.
// That includes Python's None and float reprs.
// Canon turns a cell into ckptlab's spelling.
package lessonfigures

// Recovery is the first table: "stream job 2200 rows , failure 2026-09".
var Recovery = [][]string{
	{"interval", "checkpoints", "recomputed rows"},
	{"None", "0", "1600"},
	{"6", "2", "400"},
	{"3", "4", "400"},
	{"1", "12", "0"},
}

// Matrix is the rows recomputed at each failure (row) and interval (column).
var Matrix = [][]string{
	{"failure", "None", "6", "4", "3", "2", "1"},
	{"2026-02", "200", "200", "200", "200", "200", "0"},
	{"2026-03", "400", "400", "400", "400", "0", "0"},
	{"2026-04", "600", "600", "600", "0", "200", "0"},
	{"2026-05", "800", "800", "0", "200", "0", "0"},
	{"2026-06", "1000", "1000", "200", "400", "200", "0"},
	{"2026-07", "1200", "0", "400", "0", "0", "0"},
	{"2026-08", "1400", "200", "600", "200", "200", "0"},
	{"2026-09", "1600", "400", "0", "400", "0", "0"},
	{"2026-10", "1800", "600", "200", "0", "200", "0"},
	{"2026-11", "2000", "800", "400", "200", "0", "0"},
	{"2026-12", "2200", "1000", "600", "400", "200", "0"},
}

// Cost is the cost table.
// Averages are rounded to one decimal, as printed.
var Cost = [][]string{
	{"interval", "checkpoints", "certain cost", "worst", "worst total", "average", "average total"},
	{"None", "0", "0", "2200", "2200", "1200.0", "1200.0"},
	{"6", "2", "400", "1000", "1400", "545.5", "945.5"},
	{"4", "3", "600", "600", "1200", "327.3", "927.3"},
	{"3", "4", "800", "400", "1200", "218.2", "1018.2"},
	{"2", "6", "1200", "200", "1400", "109.1", "1309.1"},
	{"1", "12", "2400", "0", "2400", "0.0", "2400.0"},
}

// Probability is the expected total at each failure probability (row) and
// interval (column), with the best interval.
var Probability = [][]string{
	{"failure probability", "None", "6", "4", "3", "2", "1", "best"},
	{"1.0", "1200.0", "945.5", "927.3", "1018.2", "1309.1", "2400.0", "4"},
	{"0.75", "900.0", "809.1", "845.5", "963.6", "1281.8", "2400.0", "6"},
	{"0.5", "600.0", "672.7", "763.6", "909.1", "1254.5", "2400.0", "None"},
	{"0.25", "300.0", "536.4", "681.8", "854.5", "1227.3", "2400.0", "None"},
}

// Partition is what the failed worker asks back at 2026-09.
var Partition = [][]string{
	{"interval", "whole job from scratch", "busiest worker with partitioned state", "exactly-once state"},
	{"None", "1600", "408", "1600"},
	{"6", "400", "102", "400"},
	{"3", "400", "102", "400"},
	{"1", "0", "0", "0"},
}

// StreamRows is the length of the lesson's stream: "stream job 2200 rows".
const StreamRows = "2200"

// Sheets maps each of ckptlab's view names to the lesson's table it shows.
var Sheets = map[string][][]string{
	"recovery":    Recovery,
	"matrix":      Matrix,
	"cost":        Cost,
	"probability": Probability,
	"partition":   Partition,
}

// Canon returns a printed cell in ckptlab's spelling.
// Python's None is the interval none.
// The probability 1.0 is the number 1.
func Canon(cell string) string {
	switch cell {
	case "None":
		return "none"
	case "1.0":
		return "1"
	}
	return cell
}

// The decisions the lesson's tables lead to (docs/decisions.md), at failure probability 1.
// They are spelled as ckptlab writes them.
// Totals are rounded to one decimal, and the continuous estimates to three.
// They are read off the lesson's tables, and its text says:
// "By the worst case the cheapest setup is interval 4 and interval 3 with
// 1200, and by the average interval 4 with 927.3."
// The lesson does not declare interval 7.
// It costs 763.6 at probability 1 and 481.8 at 0.5.
// That is below holding no checkpoint (600.0).
const (
	BestInterval         = "4"
	BestExpectedTotal    = "927.3"
	WorstCaseInterval    = "4" // ties with 3 at 1200; the first declared wins
	WorstCaseTotal       = "1200"
	OptimalInterval      = "7"
	OptimalExpectedTotal = "763.6"
	OptimalAtHalf        = "481.8" // interval 7 at probability 0.5
	NoneAtHalf           = "600.0"
	YoungInterval        = "4.899"
	DalyInterval         = "4.199"
)

// Breakeven is the lower envelope of the declared intervals' expected totals
// against the failure probability.
// It says which interval is best where.
var Breakeven = [][]string{
	{"interval", "from_fraction", "to_fraction"},
	{"none", "0", "11/18"},
	{"6", "11/18", "11/12"},
	{"4", "11/12", "1"},
}

// Schedules is the best checkpoint schedule of the lesson's stream at each of
// its probabilities.
// It is the best over every set of checkpoint points, worked out by hand from Matrix.
// At probability 1, checkpoints after 2026-05 and 2026-09 leave 200, 400 and
// 600 rows after each.
// That is 3600 over the eleven failures.
// So the total is 3600/11 + 2 × 200 = 727.3.
// Interval 7 costs 763.6 and interval 4 costs 927.3.
// At 0.75 and 0.5, one checkpoint after 2026-07 leaves 200 + … + 1000 before
// it and 200 + … + 1000 after, 6000 in all.
// So 0.75 × 6000/11 + 200 = 609.1 and 0.5 × 6000/11 + 200 = 472.7.
// At 0.25, holding none costs 0.25 × 13200/11 = 300.
// Totals are to one decimal.
var Schedules = [][]string{
	{"probability", "schedule_checkpoints", "schedule_points", "schedule_expected_total"},
	{"1", "2", "2026-05 2026-09", "727.3"},
	{"0.75", "1", "2026-07", "609.1"},
	{"0.5", "1", "2026-07", "472.7"},
	{"0.25", "0", "", "300.0"},
}

package workbook

import "ckptlab/results"

// The columns and rows of ckptlab's tables as the tests of the writers
// make up tables of that shape, with no model behind them. The tables'
// columns are declared by package runner, next to the code that fills
// them; TestFixtureColumnsAreTheTables holds these to those.

// GridColumns are the columns of grid.csv.
var GridColumns = []results.Column{
	{Name: "seed", Kind: results.Int, Quantity: results.General},
	{Name: "subscribers", Kind: results.Int},
	{Name: "periods", Kind: results.Int},
	{Name: "partition_key", Kind: results.Text},
	{Name: "workers", Kind: results.Int},
	{Name: "state_rows", Kind: results.Int},
	{Name: "probability", Kind: results.Float, Decimals: -1},
	{Name: "interval", Kind: results.Text, Numeric: true},
	{Name: "rows", Kind: results.Int},
	{Name: "checkpoints", Kind: results.Int},
	{Name: "certain_cost", Kind: results.Int},
	{Name: "recomputed", Kind: results.Int},
	{Name: "busiest_worker_recomputed", Kind: results.Int},
	{Name: "exactly_once_state", Kind: results.Int},
	{Name: "worst", Kind: results.Int},
	{Name: "worst_total", Kind: results.Int},
	{Name: "average", Kind: results.Float, Decimals: 1},
	{Name: "average_total", Kind: results.Float, Decimals: 1},
	{Name: "expected_total", Kind: results.Float, Decimals: 1},
	{Name: "best", Kind: results.Bool},
	{Name: "busiest_worker_worst", Kind: results.Int},
	{Name: "tail_total", Kind: results.Float, Decimals: 1},
}

// GridRow is one row of grid.csv: one grid point and its metrics.
type GridRow struct {
	Seed          uint32
	Subscribers   int
	Periods       int
	PartitionKey  string
	Workers       int
	StateRows     int
	Probability   float64
	Interval      string
	Rows          int64
	Checkpoints   int
	CertainCost   int64
	Recomputed    int64
	Busiest       int64
	ExactlyOnce   int64
	Worst         int64
	WorstTotal    int64
	Average       float64
	AverageTotal  float64
	ExpectedTotal float64
	Best          bool
	BusiestWorst  int64
	TailTotal     float64
}

// AppendValues appends the row's cells in the order of GridColumns.
func (r *GridRow) AppendValues(dst []results.Value) []results.Value {
	return append(dst, results.IntValue(int64(r.Seed)), results.IntValue(int64(r.Subscribers)), results.IntValue(int64(r.Periods)), results.TextValue(r.PartitionKey), results.IntValue(int64(r.Workers)), results.IntValue(int64(r.StateRows)), results.FloatValue(r.Probability), results.TextValue(r.Interval), results.IntValue(r.Rows), results.IntValue(int64(r.Checkpoints)), results.IntValue(r.CertainCost), results.IntValue(r.Recomputed), results.IntValue(r.Busiest), results.IntValue(r.ExactlyOnce), results.IntValue(r.Worst), results.IntValue(r.WorstTotal), results.FloatValue(r.Average), results.FloatValue(r.AverageTotal), results.FloatValue(r.ExpectedTotal), results.BoolValue(r.Best), results.IntValue(r.BusiestWorst), results.FloatValue(r.TailTotal))
}

// FailureColumns are the columns of failures.csv.
var FailureColumns = []results.Column{
	{Name: "seed", Kind: results.Int, Quantity: results.General},
	{Name: "subscribers", Kind: results.Int},
	{Name: "periods", Kind: results.Int},
	{Name: "partition_key", Kind: results.Text},
	{Name: "workers", Kind: results.Int},
	{Name: "interval", Kind: results.Text, Numeric: true},
	{Name: "failure_period", Kind: results.Text},
	{Name: "checkpoints", Kind: results.Int},
	{Name: "recomputed", Kind: results.Int},
	{Name: "busiest_worker_recomputed", Kind: results.Int},
	{Name: "exactly_once_state", Kind: results.Int},
}

// FailureRow is one row of failures.csv: one interval at one failure.
type FailureRow struct {
	Seed          uint32
	Subscribers   int
	Periods       int
	PartitionKey  string
	Workers       int
	Interval      string
	FailurePeriod string
	Checkpoints   int
	Recomputed    int64
	Busiest       int64
	ExactlyOnce   int64
}

// AppendValues appends the row's cells in the order of FailureColumns.
func (r *FailureRow) AppendValues(dst []results.Value) []results.Value {
	return append(dst, results.IntValue(int64(r.Seed)), results.IntValue(int64(r.Subscribers)), results.IntValue(int64(r.Periods)), results.TextValue(r.PartitionKey), results.IntValue(int64(r.Workers)), results.TextValue(r.Interval), results.TextValue(r.FailurePeriod), results.IntValue(int64(r.Checkpoints)), results.IntValue(r.Recomputed), results.IntValue(r.Busiest), results.IntValue(r.ExactlyOnce))
}

// DecisionColumns are the columns of decisions.csv.
var DecisionColumns = []results.Column{
	{Name: "seed", Kind: results.Int, Quantity: results.General},
	{Name: "subscribers", Kind: results.Int},
	{Name: "periods", Kind: results.Int},
	{Name: "state_rows", Kind: results.Int},
	{Name: "probability", Kind: results.Float, Decimals: -1},
	{Name: "best_interval", Kind: results.Text, Numeric: true},
	{Name: "best_expected_total", Kind: results.Float, Decimals: 1},
	{Name: "worst_case_interval", Kind: results.Text, Numeric: true},
	{Name: "worst_case_total", Kind: results.Int},
	{Name: "tail_interval", Kind: results.Text, Numeric: true},
	{Name: "tail_total", Kind: results.Float, Decimals: 1},
	{Name: "optimal_interval", Kind: results.Text, Numeric: true},
	{Name: "optimal_expected_total", Kind: results.Float, Decimals: 1},
	{Name: "young_interval", Kind: results.Text, Quantity: results.Estimate, Numeric: true},
	{Name: "daly_interval", Kind: results.Text, Quantity: results.Estimate, Numeric: true},
	{Name: "schedule_checkpoints", Kind: results.Int},
	{Name: "schedule_points", Kind: results.Text},
	{Name: "schedule_expected_total", Kind: results.Float, Decimals: 1},
}

// BreakevenColumns are the columns of breakeven.csv.
var BreakevenColumns = []results.Column{
	{Name: "seed", Kind: results.Int, Quantity: results.General},
	{Name: "subscribers", Kind: results.Int},
	{Name: "periods", Kind: results.Int},
	{Name: "state_rows", Kind: results.Int},
	{Name: "interval", Kind: results.Text, Numeric: true},
	{Name: "from_probability", Kind: results.Float, Decimals: -1},
	{Name: "to_probability", Kind: results.Float, Decimals: -1},
	{Name: "from_fraction", Kind: results.Text},
	{Name: "to_fraction", Kind: results.Text},
}

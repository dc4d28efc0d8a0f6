package results

// The columns and rows of ckptlab's tables as the tests of the writers
// make up tables of that shape, with no model behind them. The tables'
// columns are declared by package runner, next to the code that fills
// them; TestFixtureColumnsAreTheTables holds these to those.

// GridColumns are the columns of grid.csv.
var GridColumns = []Column{
	{Name: "seed", Kind: Int, Quantity: General},
	{Name: "subscribers", Kind: Int},
	{Name: "periods", Kind: Int},
	{Name: "partition_key", Kind: Text},
	{Name: "workers", Kind: Int},
	{Name: "state_rows", Kind: Int},
	{Name: "probability", Kind: Float, Decimals: -1},
	{Name: "interval", Kind: Text, Numeric: true},
	{Name: "rows", Kind: Int},
	{Name: "checkpoints", Kind: Int},
	{Name: "certain_cost", Kind: Int},
	{Name: "recomputed", Kind: Int},
	{Name: "busiest_worker_recomputed", Kind: Int},
	{Name: "exactly_once_state", Kind: Int},
	{Name: "worst", Kind: Int},
	{Name: "worst_total", Kind: Int},
	{Name: "average", Kind: Float, Decimals: 1},
	{Name: "average_total", Kind: Float, Decimals: 1},
	{Name: "expected_total", Kind: Float, Decimals: 1},
	{Name: "best", Kind: Bool},
	{Name: "busiest_worker_worst", Kind: Int},
	{Name: "tail_total", Kind: Float, Decimals: 1},
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
func (r *GridRow) AppendValues(dst []Value) []Value {
	return append(dst,
		IntValue(int64(r.Seed)), IntValue(int64(r.Subscribers)), IntValue(int64(r.Periods)),
		TextValue(r.PartitionKey), IntValue(int64(r.Workers)), IntValue(int64(r.StateRows)),
		FloatValue(r.Probability), TextValue(r.Interval),
		IntValue(r.Rows), IntValue(int64(r.Checkpoints)), IntValue(r.CertainCost),
		IntValue(r.Recomputed), IntValue(r.Busiest), IntValue(r.ExactlyOnce),
		IntValue(r.Worst), IntValue(r.WorstTotal),
		FloatValue(r.Average), FloatValue(r.AverageTotal), FloatValue(r.ExpectedTotal),
		BoolValue(r.Best), IntValue(r.BusiestWorst), FloatValue(r.TailTotal))
}

// FailureColumns are the columns of failures.csv.
var FailureColumns = []Column{
	{Name: "seed", Kind: Int, Quantity: General},
	{Name: "subscribers", Kind: Int},
	{Name: "periods", Kind: Int},
	{Name: "partition_key", Kind: Text},
	{Name: "workers", Kind: Int},
	{Name: "interval", Kind: Text, Numeric: true},
	{Name: "failure_period", Kind: Text},
	{Name: "checkpoints", Kind: Int},
	{Name: "recomputed", Kind: Int},
	{Name: "busiest_worker_recomputed", Kind: Int},
	{Name: "exactly_once_state", Kind: Int},
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
func (r *FailureRow) AppendValues(dst []Value) []Value {
	return append(dst,
		IntValue(int64(r.Seed)), IntValue(int64(r.Subscribers)), IntValue(int64(r.Periods)),
		TextValue(r.PartitionKey), IntValue(int64(r.Workers)), TextValue(r.Interval),
		TextValue(r.FailurePeriod), IntValue(int64(r.Checkpoints)),
		IntValue(r.Recomputed), IntValue(r.Busiest), IntValue(r.ExactlyOnce))
}

// DecisionColumns are the columns of decisions.csv.
var DecisionColumns = []Column{
	{Name: "seed", Kind: Int, Quantity: General},
	{Name: "subscribers", Kind: Int},
	{Name: "periods", Kind: Int},
	{Name: "state_rows", Kind: Int},
	{Name: "probability", Kind: Float, Decimals: -1},
	{Name: "best_interval", Kind: Text, Numeric: true},
	{Name: "best_expected_total", Kind: Float, Decimals: 1},
	{Name: "worst_case_interval", Kind: Text, Numeric: true},
	{Name: "worst_case_total", Kind: Int},
	{Name: "tail_interval", Kind: Text, Numeric: true},
	{Name: "tail_total", Kind: Float, Decimals: 1},
	{Name: "optimal_interval", Kind: Text, Numeric: true},
	{Name: "optimal_expected_total", Kind: Float, Decimals: 1},
	{Name: "young_interval", Kind: Text, Quantity: Estimate, Numeric: true},
	{Name: "daly_interval", Kind: Text, Quantity: Estimate, Numeric: true},
	{Name: "schedule_checkpoints", Kind: Int},
	{Name: "schedule_points", Kind: Text},
	{Name: "schedule_expected_total", Kind: Float, Decimals: 1},
}

// BreakevenColumns are the columns of breakeven.csv.
var BreakevenColumns = []Column{
	{Name: "seed", Kind: Int, Quantity: General},
	{Name: "subscribers", Kind: Int},
	{Name: "periods", Kind: Int},
	{Name: "state_rows", Kind: Int},
	{Name: "interval", Kind: Text, Numeric: true},
	{Name: "from_probability", Kind: Float, Decimals: -1},
	{Name: "to_probability", Kind: Float, Decimals: -1},
	{Name: "from_fraction", Kind: Text},
	{Name: "to_fraction", Kind: Text},
}

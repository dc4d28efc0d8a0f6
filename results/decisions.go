package results

// DecisionColumns are the columns of decisions.csv (SPEC §6): one row per
// seed, subscribers, periods, state_rows and probability, with the interval
// each criterion picks and its value. Interval columns hold "none" or a
// number of periods, as grid.csv's interval column does; young_interval and
// daly_interval are continuous estimates in periods, or "none". The
// schedule columns are the best set of checkpoint points, fixed interval
// or not: how many, their period labels (space-separated, ascending,
// empty for none) and its expected total.
var DecisionColumns = []Column{
	{Name: "seed", Kind: Int, Quantity: General},
	{Name: "subscribers", Kind: Int},
	{Name: "periods", Kind: Int},
	{Name: "state_rows", Kind: Int},
	{Name: "probability", Kind: Float, Decimals: -1},
	{Name: "best_interval", Kind: Text},
	{Name: "best_expected_total", Kind: Float, Decimals: 1},
	{Name: "worst_case_interval", Kind: Text},
	{Name: "worst_case_total", Kind: Int, Quantity: Total},
	{Name: "tail_interval", Kind: Text},
	{Name: "tail_total", Kind: Float, Decimals: 1},
	{Name: "optimal_interval", Kind: Text},
	{Name: "optimal_expected_total", Kind: Float, Decimals: 1},
	{Name: "young_interval", Kind: Text, Quantity: Estimate},
	{Name: "daly_interval", Kind: Text, Quantity: Estimate},
	{Name: "schedule_checkpoints", Kind: Int},
	{Name: "schedule_points", Kind: Text},
	{Name: "schedule_expected_total", Kind: Float, Decimals: 1},
}

// BreakevenColumns are the columns of breakeven.csv (SPEC §6): for each
// seed, subscribers, periods and state_rows, the pieces of the lower
// envelope of expected total against failure probability, in increasing
// probability. The fractions are exact, in lowest terms ("11/18"); the
// probabilities are the nearest float64.
var BreakevenColumns = []Column{
	{Name: "seed", Kind: Int, Quantity: General},
	{Name: "subscribers", Kind: Int},
	{Name: "periods", Kind: Int},
	{Name: "state_rows", Kind: Int},
	{Name: "interval", Kind: Text},
	{Name: "from_probability", Kind: Float, Decimals: -1},
	{Name: "to_probability", Kind: Float, Decimals: -1},
	{Name: "from_fraction", Kind: Text},
	{Name: "to_fraction", Kind: Text},
}

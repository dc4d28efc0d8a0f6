package results

import (
	"ckptlab/answer"
	"ckptlab/decide"
)

// JSONRecommendation is the answer of one source and state size: its
// recommended intervals and the envelope's pieces over the declared
// probabilities, each with its expected totals at its ends.
type JSONRecommendation struct {
	Seed        uint32      `json:"seed"`
	Subscribers int         `json:"subscribers"`
	Periods     int         `json:"periods"`
	StateRows   int         `json:"state_rows"`
	Intervals   []string    `json:"intervals"`
	Pieces      []JSONPiece `json:"pieces"`
}

// JSONPiece is a piece of an envelope: where one interval is best.
type JSONPiece struct {
	Interval          string  `json:"interval"`
	FromProbability   float64 `json:"from_probability"`
	ToProbability     float64 `json:"to_probability"`
	FromFraction      string  `json:"from_fraction"`
	ToFraction        string  `json:"to_fraction"`
	FromExpectedTotal float64 `json:"from_expected_total"`
	ToExpectedTotal   float64 `json:"to_expected_total"`
}

// JSONRecommendations converts the answer's envelopes, those it keeps and
// that repeat none: the recommended intervals every output names.
func JSONRecommendations(a *answer.Answer) []JSONRecommendation {
	out := []JSONRecommendation{}
	if a == nil {
		return out
	}
	for e := range a.Unique {
		r := JSONRecommendation{Seed: e.Source.Seed, Subscribers: e.Source.Subscribers, Periods: e.Source.Periods,
			StateRows: e.StateRows, Intervals: []string{}, Pieces: []JSONPiece{}}
		for _, pc := range e.Pieces {
			r.Intervals = append(r.Intervals, pc.Interval.String())
			r.Pieces = append(r.Pieces, JSONPiece{Interval: pc.Interval.String(),
				FromProbability: decide.Probability(pc.From), ToProbability: decide.Probability(pc.To),
				FromFraction: decide.Fraction(pc.From), ToFraction: decide.Fraction(pc.To),
				FromExpectedTotal: pc.FromTotal, ToExpectedTotal: pc.ToTotal})
		}
		out = append(out, r)
	}
	return out
}

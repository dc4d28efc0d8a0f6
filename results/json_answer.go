package results

import (
	"encoding/json"
	"strconv"

	"ckptlab/answer"
	"ckptlab/criteria"
)

// JSONRecommendation is the answer of one source and state size: its
// recommended intervals and the envelope's pieces over the declared
// probabilities, each with its expected totals at its ends.
type JSONRecommendation struct {
	Seed        uint32      `json:"seed"`
	Subscribers int         `json:"subscribers"`
	Periods     int         `json:"periods"`
	StateRows   int         `json:"state_rows"`
	Intervals   []any       `json:"intervals"` // a number of periods, or "none"
	Pieces      []JSONPiece `json:"pieces"`
}

// JSONPiece is a piece of an envelope: where one interval is best.
type JSONPiece struct {
	Interval          any     `json:"interval"` // a number of periods, or "none"
	FromProbability   float64 `json:"from_probability"`
	ToProbability     float64 `json:"to_probability"`
	FromFraction      string  `json:"from_fraction"`
	ToFraction        string  `json:"to_fraction"`
	FromExpectedTotal float64 `json:"from_expected_total"`
	ToExpectedTotal   float64 `json:"to_expected_total"`
}

// recommendations writes the answer's envelopes, those it keeps and that
// repeat none, one element at a time: the recommended intervals every
// output names.
func (j *jsonWriter) recommendations(a *answer.Answer) {
	j.stream(func(yield func([]byte) bool) {
		if a == nil {
			return
		}
		for e := range a.Unique {
			b, _ := json.Marshal(jsonRecommendation(e))
			if !yield(b) {
				return
			}
		}
	})
}

// jsonInterval is an interval as JSON: its number of periods, or "none".
func jsonInterval(s string) any {
	if n, err := strconv.Atoi(s); err == nil {
		return n
	}
	return s
}

// jsonRecommendation converts one envelope of the answer.
func jsonRecommendation(e *answer.Envelope) JSONRecommendation {
	r := JSONRecommendation{Seed: e.Source.Seed, Subscribers: e.Source.Subscribers, Periods: e.Source.Periods,
		StateRows: e.StateRows, Intervals: []any{}, Pieces: []JSONPiece{}}
	for _, pc := range e.Pieces {
		r.Intervals = append(r.Intervals, jsonInterval(pc.Interval.String()))
		r.Pieces = append(r.Pieces, JSONPiece{Interval: jsonInterval(pc.Interval.String()),
			FromProbability: criteria.Probability(pc.From), ToProbability: criteria.Probability(pc.To),
			FromFraction: criteria.Fraction(pc.From), ToFraction: criteria.Fraction(pc.To),
			FromExpectedTotal: pc.FromTotal, ToExpectedTotal: pc.ToTotal})
	}
	return r
}

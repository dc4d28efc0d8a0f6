package diff

import (
	"math"
	"math/big"
	"strconv"
	"strings"

	"ckptlab/report"
	"ckptlab/results"
)

// columnQuantities are the quantities of the columns of the tables a
// report names, by column name: how text and Markdown show their numbers.
var columnQuantities = func() map[string]results.Quantity {
	m := map[string]results.Quantity{}
	for _, cols := range [][]results.Column{report.GridColumns(), report.DecisionColumns(), report.BreakevenColumns()} {
		for _, c := range cols {
			m[c.Name] = c.Shown()
		}
	}
	return m
}()

// number writes a cell of the column in the number style (SPEC 14):
// 2,545.5 for a total, 1,200 for a count, 0.7500 for a probability. Text
// that is no number, and a column no table declares, are written as they
// are.
func number(column, text string) string {
	q, ok := columnQuantities[column]
	v, err := strconv.ParseFloat(text, 64)
	if !ok || err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return text
	}
	return quantityText(q, v)
}

// quantityText writes v as q shows it, a whole count exactly.
func quantityText(q results.Quantity, v float64) string {
	if q.Decimals() == 0 && v == math.Trunc(v) && math.Abs(v) < 1<<62 {
		return q.FormatInt(int64(v))
	}
	return q.Format(v)
}

// signedNumber writes a change of the column with its sign, in the
// column's number style: +2,800.0.
func signedNumber(column string, d float64) string {
	q, ok := columnQuantities[column]
	if !ok || math.IsNaN(d) || math.IsInf(d, 0) {
		return signed(d)
	}
	s := quantityText(q, d)
	if d >= 0 {
		s = "+" + s
	}
	return s
}

// count writes a count of things with thousands separated.
func count[N int | int64](n N) string { return results.Count.FormatInt(int64(n)) }

// breakpoint writes a break-even probability given as a fraction in
// lowest terms as the headline does: the fraction beside its four
// decimals, 11/18 (0.6111), or a whole number as it is.
func breakpoint(fraction string) string {
	if len(fraction) > 64 || strings.Trim(fraction, "0123456789/") != "" {
		return fraction // no fraction ckptlab writes
	}
	r, ok := new(big.Rat).SetString(fraction)
	if !ok || r.IsInt() {
		return fraction
	}
	f, _ := r.Float64()
	return fraction + " (" + results.Probability.Format(f) + ")"
}

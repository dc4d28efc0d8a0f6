package results

import (
	"math"
	"strconv"
	"strings"
)

// Quantity is the kind of quantity a number is, which fixes how every
// output shows it: the workbook's number format, the Markdown's text and
// the headline's words read the same table, so 1,200.0 is 1,200.0
// everywhere. A cell always holds the full value; only its display rounds.
type Quantity uint8

// The kinds of quantity.
const (
	// FromKind, the zero Quantity, leaves a column's quantity to its kind
	// (Column.Shown).
	FromKind Quantity = iota
	// General is a number shown as it is: seeds, labels that happen to be
	// numbers.
	General
	// Count is a whole number of rows, subscribers or workers: thousands
	// separated.
	Count
	// Probability is a failure probability or a break-even point: four
	// decimals, beside its exact fraction where there is one.
	Probability
	// Total is a cost in rows (an expected, average or tail total): one
	// decimal, as the lesson prints them, thousands separated.
	Total
	// Estimate is a continuous estimate in periods (Young, Daly): two
	// decimals.
	Estimate
	// Seconds is a duration, held in seconds: read as "1 h 57 min" (Duration),
	// one decimal in the workbook.
	Seconds
	// Share is a fraction of time: read as a percentage with two
	// significant digits (Percent).
	Share
)

// quantityStyles is the number style, declared once: decimals shown, and
// whether thousands are separated. Format and NumFmt read it.
var quantityStyles = [...]struct {
	decimals  int // -1: every digit
	thousands bool
}{
	FromKind:    {-1, false},
	General:     {-1, false},
	Count:       {0, true},
	Probability: {4, false},
	Total:       {1, true},
	Estimate:    {2, true},
	Seconds:     {1, true},
	Share:       {2, false},
}

// Decimals returns how many decimals q shows, -1 for every digit.
func (q Quantity) Decimals() int { return quantityStyles[q].decimals }

// Thousands reports whether q separates thousands.
func (q Quantity) Thousands() bool { return quantityStyles[q].thousands }

// NumFmt returns the spreadsheet number format that shows q: "#,##0.0"
// for a total. General is "General".
func (q Quantity) NumFmt() string {
	if q == Share {
		return "0.00%"
	}
	s := quantityStyles[q]
	if s.decimals < 0 {
		return "General"
	}
	f := "0"
	if s.thousands {
		f = "#,##0"
	}
	if s.decimals > 0 {
		f += "."
		for range s.decimals {
			f += "0"
		}
	}
	return f
}

// Format writes v as NumFmt shows it: Total.Format(1200) is "1,200.0",
// Probability.Format(11.0/18) is "0.6111".
func (q Quantity) Format(v float64) string {
	return string(q.Append(nil, v))
}

// Append appends v as Format writes it.
func (q Quantity) Append(dst []byte, v float64) []byte {
	switch q {
	case Seconds:
		return append(dst, Duration(v)...)
	case Share:
		return append(dst, Percent(v)...)
	}
	s := quantityStyles[q]
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return strconv.AppendFloat(dst, v, 'g', -1, 64)
	}
	if s.decimals < 0 {
		return strconv.AppendFloat(dst, v, 'f', -1, 64)
	}
	var buf [64]byte
	num := roundHalfUp(strconv.AppendFloat(buf[:0], v, 'f', -1, 64), s.decimals)
	if !s.thousands {
		return append(dst, num...)
	}
	return group(dst, num)
}

// roundHalfUp rounds the shortest decimal text of a number to the given
// decimals, a half away from zero, as a spreadsheet's number format shows
// it: 356.25 is 356.3 in every output, not 356.2 in some.
func roundHalfUp(num []byte, decimals int) []byte {
	dot := len(num)
	for i, c := range num {
		if c == '.' {
			dot = i
		}
	}
	if dot == len(num) {
		num = append(num, '.')
	}
	for len(num) < dot+1+decimals+1 {
		num = append(num, '0')
	}
	up := num[dot+1+decimals] >= '5'
	num = num[:dot+1+decimals]
	if decimals == 0 {
		num = num[:dot]
	}
	if up {
		i := len(num) - 1
		for ; i >= 0; i-- {
			if num[i] == '.' {
				continue
			}
			if num[i] == '-' {
				break
			}
			if num[i] < '9' {
				num[i]++
				return num
			}
			num[i] = '0'
		}
		num = append(num[:i+1], append([]byte{'1'}, num[i+1:]...)...)
	}
	if isZero(num) && num[0] == '-' {
		num = num[1:]
	}
	return num
}

// isZero reports whether a decimal text is zero.
func isZero(num []byte) bool {
	for _, c := range num {
		if c >= '1' && c <= '9' {
			return false
		}
	}
	return true
}

// group appends the decimal text num with its whole part's thousands
// separated by commas.
func group(dst, num []byte) []byte {
	if num[0] == '-' {
		dst = append(dst, '-')
		num = num[1:]
	}
	whole := len(num)
	for i, c := range num {
		if c == '.' {
			whole = i
			break
		}
	}
	for i := range whole {
		if i > 0 && (whole-i)%3 == 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, num[i])
	}
	return append(dst, num[whole:]...)
}

// FormatInt writes a whole number as q shows it: Count.FormatInt(1000000)
// is "1,000,000".
// A whole number is written exactly, however large.
func (q Quantity) FormatInt(v int64) string {
	return string(q.AppendInt(nil, v))
}

// AppendInt appends a whole number as FormatInt writes it.
func (q Quantity) AppendInt(dst []byte, v int64) []byte {
	var buf [32]byte
	num := strconv.AppendInt(buf[:0], v, 10)
	if s := quantityStyles[q]; s.decimals > 0 {
		num = append(num, '.')
		for range s.decimals {
			num = append(num, '0')
		}
	}
	if !quantityStyles[q].thousands {
		return append(dst, num...)
	}
	return group(dst, num)
}

// IsDecimal reports whether s is digits with at most one point, and
// perhaps a leading minus: no exponent, no Inf or NaN.
func IsDecimal(s string) bool {
	s = strings.TrimPrefix(s, "-")
	points := 0
	for _, r := range s {
		switch {
		case r == '.':
			points++
		case r < '0' || r > '9':
			return false
		}
	}
	return s != "" && s != "." && points <= 1
}

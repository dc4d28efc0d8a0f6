package model

import (
	"fmt"
	"strconv"
)

// Month is a calendar month counted from year 0: year*12 + (month-1).
// Period labels of the lesson ("2026-09") are Months written as YYYY-MM.
type Month int

// NewMonth returns the Month of the given year and month (1..12).
func NewMonth(year, month int) Month { return Month(year*12 + month - 1) }

// Year returns the month's year.
func (m Month) Year() int { return int(m) / 12 }

// Number returns the month's number within its year, 1..12.
func (m Month) Number() int { return int(m)%12 + 1 }

// String returns the month as YYYY-MM, the lesson's period label.
func (m Month) String() string { return fmt.Sprintf("%04d-%02d", m.Year(), m.Number()) }

// ParseMonth reads a YYYY-MM label.
// The year must have four digits and the month two.
// So every label has exactly one spelling.
func ParseMonth(s string) (Month, error) {
	if len(s) != 7 || s[4] != '-' {
		return 0, fmt.Errorf("%q is not a month (want YYYY-MM)", s)
	}
	y, err1 := strconv.Atoi(s[:4])
	m, err2 := strconv.Atoi(s[5:])
	if err1 != nil || err2 != nil || s[0] == '+' || s[0] == '-' || s[5] == '+' || s[5] == '-' || m < 1 || m > 12 {
		return 0, fmt.Errorf("%q is not a month (want YYYY-MM)", s)
	}
	return NewMonth(y, m), nil
}

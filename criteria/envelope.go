package criteria

import "math/big"

// Line is one interval's expected total as a function of the failure
// probability p, E(p) = Certain + p·Sum/W.
// Certain is the interval's certain cost.
// Sum is the rows it recomputes, summed over the failure set, each failure
// times its weight.
// W is the total weight, n when each failure weighs 1.
type Line struct {
	Certain, Sum int64
}

// Piece is one piece of the lower envelope.
// On [From, To] the line of index Line is the least.
// A piece's From is the same value as its predecessor's To.
// Neither is to be changed.
type Piece struct {
	Line     int
	From, To *big.Rat
}

// Envelope returns the lower envelope of the lines on p in [0, 1].
// The pieces come in increasing p.
// Lines i and j meet at p = (C_j − C_i)·W / (S_i − S_j).
// Envelope holds that point as a rational, without rounding.
//
// At p = 0 and after each breakpoint, Envelope takes the least line there.
// Ties go to the least slope, then to the first in lines.
// A line identical to an earlier one is never taken.
// Pieces of zero width are left out.
//
// Envelope takes O(pieces × lines) steps, at most O(lines²).
// It computes in math/big integers, so no product overflows.
func Envelope(lines []Line, weight int64) []Piece {
	if len(lines) == 0 {
		return nil
	}
	bn := big.NewInt(weight)
	// scratch: a product is never written into one of its factors, which
	// would make math/big allocate anew
	var x, y, t, least, nb big.Int
	// pick returns the line taken just after p = a/b: at p, E·W·b =
	// C·W·b + S·a are integers that order as the totals do.
	pick := func(a, b *big.Int) int {
		nb.Mul(bn, b)
		best := -1
		for i, l := range lines {
			x.Mul(t.SetInt64(l.Certain), &nb)
			x.Add(&x, y.Mul(t.SetInt64(l.Sum), a))
			c := 0
			if best >= 0 {
				c = x.Cmp(&least)
			}
			if best < 0 || c < 0 || (c == 0 && l.Sum < lines[best].Sum) {
				best = i
				least.Set(&x)
			}
		}
		return best
	}
	a, b := big.NewInt(0), big.NewInt(1) // the piece starts at a/b
	cur := pick(a, b)
	out := make([]Piece, 0, 4)
	// the nearest crossing so far, num/den, and a line's, nj/dj; the
	// pieces share their ends, each piece's From its predecessor's To
	num, den := new(big.Int), new(big.Int)
	var nj, dj big.Int
	from := new(big.Rat)
	for {
		// The next breakpoint: the nearest crossing num/den of a line of
		// smaller slope. Every such line lies strictly above at a/b, so
		// it crosses after a/b.
		found := false
		for _, l := range lines {
			if l.Sum >= lines[cur].Sum {
				continue
			}
			nj.Mul(t.SetInt64(l.Certain-lines[cur].Certain), bn)
			dj.SetInt64(lines[cur].Sum - l.Sum)
			if !found || x.Mul(&nj, den).Cmp(y.Mul(num, &dj)) < 0 {
				num.Set(&nj)
				den.Set(&dj)
				found = true
			}
		}
		if !found || num.Cmp(den) >= 0 {
			return append(out, Piece{Line: cur, From: from, To: big.NewRat(1, 1)})
		}
		to := new(big.Rat).SetFrac(num, den)
		out = append(out, Piece{Line: cur, From: from, To: to})
		from = to
		a, num = num, a
		b, den = den, b
		cur = pick(a, b)
	}
}

// Fraction returns a breakpoint in lowest terms, such as "11/18".
// A whole number is written without a denominator, as "0" or "1".
func Fraction(r *big.Rat) string { return r.RatString() }

// Probability returns the float64 nearest to a breakpoint.
func Probability(r *big.Rat) float64 {
	f, _ := r.Float64()
	return f
}

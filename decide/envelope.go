package decide

import "math/big"

// Line is one interval's expected total against the failure probability p:
// E(p) = Certain + p·Sum/n, with Certain its certain cost and Sum the rows it
// recomputes summed over the n failures of the failure set.
type Line struct {
	Certain, Sum int64
}

// Piece is one piece of the lower envelope: on [From, To] the line of index
// Line is the least.
type Piece struct {
	Line     int
	From, To *big.Rat
}

// Envelope returns the lower envelope of the lines on p in [0, 1], in
// increasing p, computed exactly: the lines meet at
// p = (C_j − C_i)·n / (S_i − S_j), a rational that big.Rat holds without
// rounding. At p = 0, and after each breakpoint, the line taken is the least
// there, then the one with the least slope, then the first in lines; a line
// identical to an earlier one is never taken, and pieces of zero width are
// left out. It takes O(pieces × lines) steps, at most O(lines²).
func Envelope(lines []Line, n int) []Piece {
	if len(lines) == 0 {
		return nil
	}
	bn := big.NewInt(int64(n))
	// better compares lines at p: a smaller E, then a smaller slope, then
	// the earlier line wins.
	better := func(i, j int, p *big.Rat) bool {
		ei, ej := eval(lines[i], p, bn), eval(lines[j], p, bn)
		if c := ei.Cmp(ej); c != 0 {
			return c < 0
		}
		if lines[i].Sum != lines[j].Sum {
			return lines[i].Sum < lines[j].Sum
		}
		return i < j
	}
	from := new(big.Rat)
	cur := 0
	for i := range lines {
		if better(i, cur, from) {
			cur = i
		}
	}
	one := big.NewRat(1, 1)
	var out []Piece
	for {
		// The next breakpoint: the nearest crossing of a line of smaller
		// slope. Every such line lies strictly above at from, so it
		// crosses after from.
		var next *big.Rat
		for _, l := range lines {
			if l.Sum >= lines[cur].Sum {
				continue
			}
			num := new(big.Int).Mul(big.NewInt(l.Certain-lines[cur].Certain), bn)
			t := new(big.Rat).SetFrac(num, big.NewInt(lines[cur].Sum-l.Sum))
			if next == nil || t.Cmp(next) < 0 {
				next = t
			}
		}
		if next == nil || next.Cmp(one) >= 0 {
			out = append(out, Piece{Line: cur, From: from, To: one})
			return out
		}
		out = append(out, Piece{Line: cur, From: from, To: next})
		from = next
		for i := range lines {
			if better(i, cur, from) {
				cur = i
			}
		}
	}
}

// eval returns C + p·S/n exactly.
func eval(l Line, p *big.Rat, n *big.Int) *big.Rat {
	v := new(big.Rat).SetFrac(big.NewInt(l.Sum), n)
	v.Mul(v, p)
	return v.Add(v, new(big.Rat).SetInt64(l.Certain))
}

// Fraction writes a breakpoint in lowest terms, "11/18", or as a whole
// number, "0" and "1".
func Fraction(r *big.Rat) string { return r.RatString() }

// Probability returns the float64 nearest to a breakpoint.
func Probability(r *big.Rat) float64 {
	f, _ := r.Float64()
	return f
}

package model

import "strconv"

// namePrefix is the prefix of ten subscriber names in a row: "A", then the
// tens of their numbers i+1 in at least two digits, each name being the
// prefix and the last digit of its number. Counted up in place, with the
// hash of each leading part of it kept, the next ten's prefix costs one
// multiplication per digit that changed: about one per ten names.
type namePrefix struct {
	digits [24]byte // "A" and the tens; digits[:n] in use
	n      int
	hs     [25]uint32 // hs[k] is the FNV-1a hash of digits[:k]
}

// set makes p the prefix of the names numbered tens*10 to tens*10+9.
func (p *namePrefix) set(tens int) {
	b := append(p.digits[:0], 'A')
	if tens < 10 {
		b = append(b, '0', byte('0'+tens))
	} else {
		b = strconv.AppendInt(b, int64(tens), 10)
	}
	p.n = len(b)
	p.hs[0] = 2166136261
	p.rehash(0)
}

// hash returns the hash of the prefix: TraceID of a name is
// (p.hash() ^ its last digit) * 16777619.
func (p *namePrefix) hash() uint32 { return p.hs[p.n] }

// next makes p the prefix of the next ten names.
func (p *namePrefix) next() {
	k := p.n - 1
	for k > 0 && p.digits[k] == '9' {
		p.digits[k] = '0'
		k--
	}
	if k == 0 { // every digit was 9: one digit more, "A99" to "A100"
		p.digits[1] = '1'
		p.digits[p.n] = '0'
		p.n++
		k = 1
	} else {
		p.digits[k]++
	}
	p.rehash(k)
}

// rehash recomputes the hashes of the leading parts past digits[:k].
func (p *namePrefix) rehash(k int) {
	for ; k < p.n; k++ {
		p.hs[k+1] = (p.hs[k] ^ uint32(p.digits[k])) * 16777619
	}
}

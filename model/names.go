package model

import "strconv"

// namePrefix is the prefix shared by ten subscriber names in a row.
// It is "A", then the tens of their numbers i+1 in at least two digits.
// Each name is the prefix and the last digit of its number.
// The prefix is counted up in place, keeping the hash of each leading part.
// So the next ten's prefix costs one multiplication per digit that changed.
// That is about one per ten names.
type namePrefix struct {
	digits [24]byte // "A" and the tens; digits[:n] in use, but for the last, which is last
	n      int
	hs     [25]uint32 // hs[k] is the FNV-1a hash of digits[:k], for k < n
	last   byte       // the last digit of the prefix
	base   uint32     // hs[n-1]
	h      uint32     // the hash of the whole prefix
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

// hash returns the hash of the prefix.
// A name's TraceID is (p.hash() ^ its last digit) * 16777619.
func (p *namePrefix) hash() uint32 { return p.h }

// next makes p the prefix of the next ten names.
// It inlines, since nine times in ten only the last digit changes.
func (p *namePrefix) next() {
	if p.last != '9' {
		p.last++
		p.h = (p.base ^ uint32(p.last)) * 16777619
		return
	}
	p.carry()
}

// carry makes p the prefix of the next ten names when its last digit is 9.
func (p *namePrefix) carry() {
	p.digits[p.n-1] = '0'
	k := p.n - 2
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
	for ; k < p.n-1; k++ {
		p.hs[k+1] = (p.hs[k] ^ uint32(p.digits[k])) * 16777619
	}
	p.last, p.base = p.digits[p.n-1], p.hs[p.n-1]
	p.h = (p.base ^ uint32(p.last)) * 16777619
}

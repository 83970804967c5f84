package model

// IDSet remembers job numbers, in memory proportional to the numbers
// seen rather than to their size: a bitmap for the dense low range that
// real logs and generators use (a bit a job), a map for the rest. Its zero
// value is empty.
type IDSet struct {
	bits []uint64
	rest map[int64]bool
}

// maxIDBits bounds the bitmap: job numbers up to 2^27 (16 MB).
const maxIDBits = 1 << 27

// Seen records id and reports whether it was recorded before.
func (s *IDSet) Seen(id int64) bool {
	if id >= 0 && id < maxIDBits {
		w := int(id >> 6)
		if w >= len(s.bits) {
			s.bits = append(s.bits, make([]uint64, max(w+1-len(s.bits), len(s.bits)))...)
		}
		m := uint64(1) << (id & 63)
		dup := s.bits[w]&m != 0
		s.bits[w] |= m
		return dup
	}
	if s.rest == nil {
		s.rest = map[int64]bool{}
	}
	dup := s.rest[id]
	s.rest[id] = true
	return dup
}

package procsim

import "math/bits"

// cpuSet is a set of processors, walked in ascending order at a cost that
// grows with its members, not with the machine: a bit per processor, and
// a summary bit per word of them that is set while the word holds any
// member. On a machine of 131,072 processors, finding the first member
// reads at most 32 summary words.
type cpuSet struct {
	words []uint64
	sum   []uint64
}

func newCPUSet(n int) cpuSet {
	w := (n + 63) / 64
	return cpuSet{words: make([]uint64, w), sum: make([]uint64, (w+63)/64)}
}

func (c *cpuSet) add(i int) {
	w := i >> 6
	c.words[w] |= 1 << (i & 63)
	c.sum[w>>6] |= 1 << (w & 63)
}

func (c *cpuSet) remove(i int) {
	w := i >> 6
	c.words[w] &^= 1 << (i & 63)
	if c.words[w] == 0 {
		c.sum[w>>6] &^= 1 << (w & 63)
	}
}

// next returns the least member at or above i, or -1 if there is none.
func (c *cpuSet) next(i int) int {
	w := i >> 6
	if w >= len(c.words) {
		return -1
	}
	if m := c.words[w] &^ (1<<(i&63) - 1); m != 0 {
		return w<<6 | bits.TrailingZeros64(m)
	}
	// The next word with a member, from the summary.
	w++
	for sw := w >> 6; sw < len(c.sum); sw++ {
		m := c.sum[sw]
		if sw == w>>6 {
			m &^= 1<<(w&63) - 1
		}
		if m != 0 {
			w = sw<<6 | bits.TrailingZeros64(m)
			return w<<6 | bits.TrailingZeros64(c.words[w])
		}
	}
	return -1
}

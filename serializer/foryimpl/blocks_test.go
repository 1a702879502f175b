package foryimpl

import (
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"

	"github.com/forygen/forygen/internal/meta"
)

func withBlocks(size int) func(*Config) { return func(c *Config) { c.BlockSize = size } }

// TestCarve: regions follow each other at their alignment, a full block is
// replaced by a new one, and a value that does not fit and is above a
// quarter of a block gets none.
func TestCarve(t *testing.T) {
	c := newReadContext(nil, withBlocks(64))
	p1 := c.carve(3, 1)
	p2 := c.carve(8, 8)
	require.NotNil(t, p1)
	require.Equal(t, uintptr(p1)+8, uintptr(p2), "the 8-byte value starts at the next multiple of 8")
	p3 := c.carve(2, 2)
	require.Equal(t, uintptr(p2)+8, uintptr(p3))
	require.Nil(t, c.carve(50, 1), "50 bytes do not fit the 46 left and are above a quarter of 64")
	first := unsafe.SliceData(c.block)
	for range 3 {
		c.carve(16, 8) // 18 + 48 > 64: the third starts a new block
	}
	require.NotEqual(t, uintptr(unsafe.Pointer(first)), uintptr(unsafe.Pointer(unsafe.SliceData(c.block))), "a full block is replaced")
	require.Equal(t, 16, c.blockOff)
}

// TestMakeScalarSlice: a carved slice is zeroed, cut to its length, charged
// to the budget as a separate allocation, and does not overlap the next.
func TestMakeScalarSlice(t *testing.T) {
	c := newReadContext(make([]byte, 100), withBlocks(1024))
	plain := newReadContext(make([]byte, 100))
	a := MakeScalarSlice[[]int64](c, 5)
	require.Equal(t, plainBudgetAfter(plain, 5), c.budget, "the same charge as MakeSlice")
	b := MakeScalarSlice[[]int64](c, 3)
	require.Len(t, a, 5)
	require.Equal(t, 5, cap(a))
	require.Equal(t, []int64{0, 0, 0}, b)
	for i := range a {
		a[i] = -1
	}
	require.Equal(t, []int64{0, 0, 0}, b, "writing a does not reach b")
	require.Equal(t, uintptr(unsafe.Pointer(&a[0]))+40, uintptr(unsafe.Pointer(&b[0])), "b follows a in the block")
	require.NotNil(t, MakeScalarSlice[[]bool](c, 0), "an empty slice is not nil, as make's")
	big := MakeScalarSlice[[]uint8](c, 300)
	require.Len(t, big, 300, "above a quarter of the block: allocated on its own")
}

func plainBudgetAfter(c *ReadContext, n int) uint64 {
	MakeSlice[[]int64](c, n)
	return c.budget
}

// TestBlockStrings: a string from a block does not alias the input, and
// two strings are neighbours in one block; with WithZeroCopy the string is
// a view of the input instead.
func TestBlockStrings(t *testing.T) {
	in := []byte{5<<2 | meta.StringUTF8, 'h', 'e', 'l', 'l', 'o', 2<<2 | meta.StringUTF8, 'g', 'o'}
	c := newReadContext(in, withBlocks(256))
	s1, s2 := c.ReadString(), c.ReadString()
	require.NoError(t, c.r.Err())
	require.Equal(t, "hello", s1)
	require.Equal(t, "go", s2)
	if forceZeroCopy {
		// This build turns WithZeroCopy on for every Runtime: what there
		// is to check is that it takes precedence over the blocks.
		require.Equal(t, uintptr(unsafe.Pointer(&in[1])), uintptr(unsafe.Pointer(unsafe.StringData(s1))))
		return
	}
	require.Equal(t, uintptr(unsafe.Pointer(unsafe.StringData(s1)))+5, uintptr(unsafe.Pointer(unsafe.StringData(s2))))
	in[1] = 'j'
	require.Equal(t, "hello", s1, "the input is not aliased")
	z := newReadContext(in, withBlocks(256), func(c *Config) { c.ZeroCopy = true })
	require.Equal(t, uintptr(unsafe.Pointer(&in[1])), uintptr(unsafe.Pointer(unsafe.StringData(z.ReadString()))), "WithZeroCopy takes precedence")
}

// TestClaimSet: an address is claimed once a message whatever its slot,
// across growth (more addresses than the first table's half) and across a
// generation wrap, and a reset frees every claim.
func TestClaimSet(t *testing.T) {
	var s claimSet
	claim := func(p uintptr) bool { return s.claimNew(p) || s.claimSlow(p) }
	addrs := make([]uintptr, 100)
	for i := range addrs {
		addrs[i] = uintptr(0xc0010000) + uintptr(48*i) // heap-like, 48 bytes apart
	}
	for round := range 3 {
		for _, p := range addrs {
			require.True(t, claim(p), "round %d: %#x is new", round, p)
		}
		for _, p := range addrs {
			require.False(t, claim(p), "round %d: %#x was claimed", round, p)
		}
		s.reset()
	}
	s.gen = ^uint32(0) // the next reset wraps
	require.True(t, claim(addrs[0]))
	s.reset()
	require.Equal(t, uint32(1), s.gen)
	for _, p := range addrs[:5] {
		require.True(t, claim(p), "after the wrap %#x is new", p)
	}
}

package foryimpl

import (
	"errors"
	"math"
	"math/bits"
	"testing"

	"github.com/stretchr/testify/require"
)

// newReadContext returns a ReadContext over data with the options of
// newRuntime(mods...), as Deserialize sets it up.
func newReadContext(data []byte, mods ...func(*Config)) *ReadContext {
	f := newRuntime(mods...)
	c := f.readers.Get().(*ReadContext)
	c.begin(data)
	return c
}

// TestReadLengthChecksRemaining: a declared length is checked against the
// bytes that remain, times the smallest element, before anything is
// allocated; a failed check returns 0 and records ErrMalformed at the
// length's offset.
func TestReadLengthChecksRemaining(t *testing.T) {
	for _, tc := range []struct {
		in      []byte
		minElem int
		want    int
		ok      bool
	}{
		{[]byte{0x03, 1, 2, 3}, 1, 3, true},
		{[]byte{0x04, 1, 2, 3}, 1, 0, false},
		{[]byte{0x02, 1, 2, 3}, 2, 0, false}, // 2 elements of 2 bytes need 4
		{[]byte{0x01, 1, 2}, 2, 1, true},
		{[]byte{0x00}, 8, 0, true},
		{[]byte{0xff, 0xff, 0xff, 0xff, 0x0f}, 1, 0, false},    // 2³²−1
		{[]byte{0xff, 0xff, 0xff, 0xff, 0x0f, 0}, 0, 0, false}, // minElem < 1 counts as 1
		{[]byte{0xff, 0xff, 0xff, 0xff, 0x1f}, 1, 0, false},    // varint overflow
	} {
		c := newReadContext(tc.in)
		got := c.ReadLength(tc.minElem)
		require.Equal(t, tc.want, got, "% x", tc.in)
		if tc.ok {
			require.NoError(t, c.r.Err(), "% x", tc.in)
			continue
		}
		_, err := classify(c.r.Err())
		require.ErrorIs(t, err, ErrMalformed, "% x", tc.in)
		// Sticky: later lengths fail too and return 0.
		require.Equal(t, 0, c.ReadLength(1))
	}
}

// TestAllocBudget: charges within the budget pass, the one that would go
// past it records ErrLimit, and the helpers generated code calls stay
// usable on that path (MakeSlice nil, MakeMap empty, Alloc non-nil).
func TestAllocBudget(t *testing.T) {
	c := newReadContext(make([]byte, 100))
	budget := c.budget
	require.Equal(t, uint64(defaultAllocPerByte*100+defaultAllocBase-allocReserve), budget)
	require.True(t, c.charge(1, budget/2))
	s := MakeSlice[[]int64](c, int(budget/2/8)-1024) // page-rounded, still below half
	require.NotNil(t, s)
	require.NoError(t, c.r.Err())
	// Past the budget.
	require.Nil(t, MakeSlice[[]int64](c, 1000))
	require.ErrorIs(t, c.r.Err(), ErrLimit)
	m := MakeMap[map[string]int](c, 10)
	require.NotNil(t, m)
	m["written on the error path"] = 1
	p := Alloc[[64]byte](c)
	require.NotNil(t, p)

	// Products that overflow 64 bits are refused, not wrapped.
	c = newReadContext(make([]byte, 100))
	require.False(t, c.charge(math.MaxUint64/2, 4))
	require.ErrorIs(t, c.r.Err(), ErrLimit)
	c = newReadContext(make([]byte, 100))
	require.Nil(t, MakeSlice[[]int](c, -1))

	// Maps are charged by Go's layout: empty is the header, small is a
	// group of 8 slots, large a power of two of slots.
	c = newReadContext(nil)
	before := c.budget
	MakeMap[map[int64]int64](c, 0)
	require.Equal(t, uint64(mapHeaderCost), before-c.budget)
	before = c.budget
	MakeMap[map[int64]int64](c, 8)
	require.Equal(t, uint64(mapHeaderCost+16*17), before-c.budget)
}

// TestAllocLimitOption: the allocation limits (serializer.WithAllocLimit) scale the budget; non-positive
// values keep the defaults; a huge input cannot overflow the budget.
func TestAllocLimitOption(t *testing.T) {
	c := newReadContext(make([]byte, 10), func(c *Config) { c.AllocPerByte, c.AllocBase = 1000, 1<<20 })
	require.Equal(t, uint64(1000*10+1<<20-allocReserve), c.budget)
	c = newReadContext(make([]byte, 10), func(c *Config) { c.AllocPerByte, c.AllocBase = 0, -5 })
	require.Equal(t, uint64(defaultAllocPerByte*10+defaultAllocBase-allocReserve), c.budget)
	// The budget saturates instead of wrapping (it only can on 64-bit).
	o := Config{AllocPerByte: math.MaxInt, AllocBase: math.MaxInt}
	want := uint64(math.MaxUint64)
	if hi, lo := bits.Mul64(uint64(math.MaxInt), uint64(math.MaxInt)); hi == 0 && lo+uint64(math.MaxInt) > lo {
		want = lo + uint64(math.MaxInt) - allocReserve
	}
	require.Equal(t, want, o.allocBudget(math.MaxInt))
}

// TestTypeDefNesting measures field type nesting as WithMaxDepth counts it.
func TestTypeDefNesting(t *testing.T) {
	require.Equal(t, 1, fieldTypeNesting(&probeType.fields[0].Type))
	require.Equal(t, 1, typeDefNesting(probeType.self.def))
}

// TestChargeErrorIsLimit: the budget error is a DecodeError wrapping
// ErrLimit only.
func TestChargeErrorIsLimit(t *testing.T) {
	c := newReadContext(nil)
	c.charge(1, math.MaxUint64)
	off, err := classify(c.r.Err())
	require.Equal(t, 0, off)
	require.ErrorIs(t, err, ErrLimit)
	require.False(t, errors.Is(err, ErrMalformed))
}

// newRuntime returns a Runtime with the default options changed by mods.
func newRuntime(mods ...func(*Config)) *Runtime {
	cfg := DefaultConfig()
	for _, m := range mods {
		m(&cfg)
	}
	f := new(Runtime)
	f.Init(cfg)
	return f
}

package foryimpl

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestBudgetFor: the budget begin computes from the context's precomputed
// thresholds is allocBudget's, for every option and input length near the
// thresholds, saturation included.
func TestBudgetFor(t *testing.T) {
	// math.MaxInt>>23 is 2^40-1 on 64-bit targets and 255 on 32-bit ones.
	perBytes := []int{1, 2, 3, 64, 1000, 1 << 20, math.MaxInt >> 23, math.MaxInt}
	bases := []int{1, 2, allocReserve - 1, allocReserve, allocReserve + 1, defaultAllocBase, math.MaxInt >> 23, math.MaxInt}
	for _, p := range perBytes {
		for _, b := range bases {
			o := DefaultConfig()
			o.AllocPerByte, o.AllocBase = p, b
			c := makeReadContext(&o)
			ns := []uint64{0, 1, 2, 10, 1 << 20, math.MaxInt, math.MaxUint64 / 2}
			for _, th := range []uint64{c.reserveFrom, c.saturateFrom, c.linearBelow} {
				ns = append(ns, th-1, th, th+1)
			}
			for _, n := range ns {
				if n > math.MaxInt {
					continue
				}
				require.Equal(t, o.allocBudget(int(n)), c.budgetFor(n), "perByte %d base %d n %d", p, b, n)
				if n < c.linearBelow {
					// BeginReadFast's form.
					require.Equal(t, o.allocBudget(int(n)), n*c.perByte+c.linearBase, "perByte %d base %d n %d", p, b, n)
				}
			}
		}
	}
}

// TestReadLengthFast: the inlined fast path returns what ReadLength would,
// leaving the same offset and element allowance, or reads nothing and
// returns -1; it never records an error.
func TestReadLengthFast(t *testing.T) {
	for _, min := range []int{1, 2, 8} {
		for rest := 0; rest < 12; rest++ {
			for _, elems := range []uint64{0, 2, 1000} {
				for b := 0; b < 256; b++ {
					in := append([]byte{byte(b)}, make([]byte, rest)...)
					fast, slow := newReadContext(in), newReadContext(in)
					fast.elems, slow.elems = elems, elems
					n := fast.ReadLengthFast(min)
					require.NoError(t, fast.r.Err())
					if n < 0 {
						require.Equal(t, -1, n)
						require.Zero(t, fast.r.Offset())
						require.Equal(t, elems, fast.elems)
						continue
					}
					require.Equal(t, slow.ReadLength(min), n, "byte %#x min %d rest %d elems %d", b, min, rest, elems)
					require.NoError(t, slow.r.Err())
					require.Equal(t, slow.r.Offset(), fast.r.Offset())
					require.Equal(t, slow.elems, fast.elems)
				}
			}
		}
	}
	c := newReadContext([]byte{0, 0})
	c.Fail(ErrMalformed)
	require.Equal(t, -1, c.ReadLengthFast(1))
}

// TestReadFastPaths: BeginReadFast takes only the Fory's own free context
// (not with AliasStrings, which copies the input), and EndReadFast ends
// only a read of it that succeeded with nothing but the TypeDef and meta
// string tables to clear; the general paths do the rest.
func TestReadFastPaths(t *testing.T) {
	in := []byte{1, 2, 3}
	f := newRuntime()
	c := f.BeginReadFast(in)
	require.Same(t, f.reader, c)
	require.Equal(t, c.budgetFor(uint64(len(in))), c.budget)
	require.Equal(t, uint64(len(in))+c.unbacked, c.elems)
	require.Nil(t, f.BeginReadFast(in), "the slot is busy")
	p := f.BeginRead(in)
	require.NotSame(t, c, p, "a busy slot: BeginRead takes a pooled context")
	c.r.Skip(3)
	p.r.Skip(3)
	require.False(t, f.EndReadFast(p), "a pooled context")
	require.NoError(t, f.EndRead(p, rootKey))
	c.defs = append(c.defs, nil)
	require.True(t, f.EndReadFast(c))
	require.Empty(t, c.defs)
	require.Nil(t, c.r.Bytes())
	require.NotNil(t, f.BeginReadFast(in), "the slot is free again")

	// Trailing input, an error, recorded references or field mappings:
	// EndRead's general path.
	for _, tc := range []struct {
		spoil   func(c *ReadContext)
		wantErr bool
	}{
		{func(c *ReadContext) {}, true},
		{func(c *ReadContext) { c.r.Skip(3); c.Fail(ErrMalformed) }, true},
		{func(c *ReadContext) { c.r.Skip(3); c.addRefs(refEntry{}) }, false},
		{func(c *ReadContext) { c.r.Skip(3); c.evs = append(c.evs, defEvolution{}) }, false},
	} {
		f := newRuntime()
		c := f.BeginReadFast(in)
		tc.spoil(c)
		require.False(t, f.EndReadFast(c))
		if err := f.EndRead(c, rootKey); tc.wantErr {
			require.Error(t, err)
		} else {
			require.NoError(t, err)
		}
		require.Zero(t, c.refs.len())
		require.Empty(t, c.evs)
		require.NotNil(t, f.BeginReadFast(in), "the slot is free again")
	}
	// AliasStrings copies the input: never the fast path. Under the
	// forygen_zerocopy tag, zero-copy wins and nothing is copied.
	f = newRuntime(func(c *Config) { c.AliasStrings = true })
	if forceZeroCopy {
		c = f.BeginReadFast(in)
		require.NotNil(t, c)
		require.Same(t, &in[0], &c.r.Bytes()[0])
		c.r.Skip(3)
		require.True(t, f.EndReadFast(c), "the slot is released")
	} else {
		require.Nil(t, f.BeginReadFast(in))
	}
	c = f.BeginRead(in)
	if forceZeroCopy {
		require.Same(t, &in[0], &c.r.Bytes()[0])
	} else {
		require.NotSame(t, &in[0], &c.r.Bytes()[0])
	}
	// Stream mode: EndRead records what the message took.
	f = newRuntime(func(c *Config) { c.Stream = true })
	f.BeginStream()
	c = f.BeginReadFast(append(in, 9))
	c.r.Skip(3)
	require.False(t, f.EndReadFast(c))
	require.NoError(t, f.EndRead(c, rootKey))
	consumed, _ := f.StreamResult(4)
	require.Equal(t, 3, consumed)
	// A budget that is not linear in the input length (a base at or
	// below the reserve): BeginRead's general path.
	f = newRuntime(func(c *Config) { c.AllocBase = 1 })
	require.Nil(t, f.BeginReadFast(in))
	c = f.BeginRead(in)
	require.Equal(t, f.opts.allocBudget(len(in)), c.budget)
}

// TestReadArrayLengthFast: the inlined fast path returns what
// ReadArrayLength would, with the same offset and element allowance, or
// reads nothing and returns -1.
func TestReadArrayLengthFast(t *testing.T) {
	for _, width := range []int{1, 2, 4, 8} {
		for rest := 0; rest < 20; rest++ {
			for _, elems := range []uint64{0, 4, 1000} {
				for b := 0; b < 256; b++ {
					in := append([]byte{byte(b)}, make([]byte, rest)...)
					fast, slow := newReadContext(in), newReadContext(in)
					fast.elems, slow.elems = elems, elems
					n := fast.ReadArrayLengthFast(width)
					require.NoError(t, fast.r.Err())
					if n < 0 {
						require.Equal(t, -1, n)
						require.Zero(t, fast.r.Offset())
						require.Equal(t, elems, fast.elems)
						continue
					}
					require.Equal(t, slow.ReadArrayLength(width), n, "byte %#x width %d rest %d elems %d", b, width, rest, elems)
					require.NoError(t, slow.r.Err())
					require.Equal(t, slow.r.Offset(), fast.r.Offset())
					require.Equal(t, slow.elems, fast.elems)
				}
			}
		}
	}
}

// TestChargeOne: chargeOne is charge(1, size), failure included.
func TestChargeOne(t *testing.T) {
	for _, budget := range []uint64{0, 1, 100, math.MaxUint64} {
		for _, size := range []uint64{0, 1, 99, 100, 101, math.MaxUint64} {
			a, b := newReadContext(nil), newReadContext(nil)
			a.budget, b.budget = budget, budget
			require.Equal(t, b.charge(1, size), a.chargeOne(size), "budget %d size %d", budget, size)
			require.Equal(t, b.budget, a.budget)
			require.Equal(t, b.r.Err() != nil, a.r.Err() != nil)
		}
	}
}

// TestReadEnumFast: the inlined fast path returns what ReadEnum would, or
// reads nothing and returns -1.
func TestReadEnumFast(t *testing.T) {
	for _, max := range []uint32{0, 3, 0x7f, 0xffff} {
		for b := 0; b < 256; b++ {
			in := []byte{byte(b), 0x01}
			fast, slow := newReadContext(in), newReadContext(in)
			v := fast.ReadEnumFast(max)
			require.NoError(t, fast.r.Err())
			if v < 0 {
				require.Equal(t, -1, v)
				require.Zero(t, fast.r.Offset())
				continue
			}
			require.Equal(t, slow.ReadEnum(max), uint32(v), "byte %#x max %d", b, max)
			require.NoError(t, slow.r.Err())
			require.Equal(t, slow.r.Offset(), fast.r.Offset())
		}
	}
}

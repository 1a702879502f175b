package foryimpl

import (
	"math"
	"unsafe"
)

// Block allocation (WithBlockAlloc, issue 29): a decode in this mode
// takes the memory of its strings and of its slices of scalars from a
// block of Config.BlockSize bytes that the read context keeps from one
// message to the next, one allocation a block instead of one a value. In
// a fresh decode most allocations are of that kind, and an allocation
// costs more than the copy into it (BenchmarkBlockAlloc, PERFORMANCE.md
// "Block allocation").
//
// Only pointer-free memory comes from a block: a block is a []byte, which
// the collector never scans, so a value with pointers in it would not keep
// what they point to alive. Scalar is the constraint that guarantees it.
// A region is handed out once and never written again by the context, so
// a string carved from a block stays immutable; a slice is cut to its
// length, so appending to it copies rather than writing over the next
// region. The allocation budget is charged as for a separate allocation.

// Scalar is an element type without pointers: a bool, an integer or a
// float, or a type defined on one (an enum, the 16-bit floats,
// time.Duration). Slices of Scalars may live in a block.
type Scalar interface {
	~bool | ~int8 | ~uint8 | ~int16 | ~uint16 | ~int32 | ~uint32 | ~int64 | ~uint64 | ~int | ~uint |
		~float32 | ~float64
}

// carve returns size (> 0) bytes of the current block at an offset that
// is a multiple of align (a power of two), starting a new block when the
// current one has no room; or nil when it has no room and size is above a
// quarter of a block: such a value is allocated on its own, so that the
// room an abandoned block leaves unused is at most a quarter of it.
func (c *ReadContext) carve(size, align int) unsafe.Pointer {
	off := (c.blockOff + align - 1) &^ (align - 1)
	if size > len(c.block)-off {
		if size > c.blockSize/4 {
			return nil
		}
		// A new block; the old one lives on in the values carved from it.
		c.block = make([]byte, c.blockSize)
		off = 0
	}
	c.blockOff = off + size
	return unsafe.Pointer(&c.block[off])
}

// MakeScalarSlice is MakeSlice for a slice of Scalars, which comes from a
// block with WithBlockAlloc (zeroed, as a new block is: no region is used
// twice).
func MakeScalarSlice[S ~[]E, E Scalar](c *ReadContext, n int) S {
	var e E
	size := uint64(unsafe.Sizeof(e))
	if n < 0 || uint64(n) > math.MaxUint64/size || !c.chargeOne(allocSize(uint64(n)*size)) {
		return nil
	}
	if c.blockSize != 0 && n > 0 {
		// n × size is within the budget, so within an int.
		if p := c.carve(n*int(size), int(unsafe.Alignof(e))); p != nil {
			return S(unsafe.Slice((*E)(p), n))
		}
	}
	return make(S, n)
}

// ReuseScalarSlice is ReuseSlice for a slice of Scalars (MakeScalarSlice).
func ReuseScalarSlice[S ~[]E, E Scalar](c *ReadContext, old S, n int) S {
	if old == nil || n > cap(old) {
		return MakeScalarSlice[S](c, n)
	}
	return old[:n]
}

// blockCopy returns a copy of raw carved from a block, or nil without
// WithBlockAlloc, for an empty raw, or when raw is allocated on its own
// (carve). The budget has been charged.
func (c *ReadContext) blockCopy(raw []byte) []byte {
	if c.blockSize != 0 && len(raw) > 0 {
		if p := c.carve(len(raw), 1); p != nil {
			out := unsafe.Slice((*byte)(p), len(raw))
			copy(out, raw)
			return out
		}
	}
	return nil
}

// ownString returns a string of raw's bytes that does not alias the
// input: carved from a block with WithBlockAlloc, a new allocation
// otherwise. The budget has been charged.
func (c *ReadContext) ownString(raw []byte) string {
	if b := c.blockCopy(raw); b != nil {
		return unsafe.String(unsafe.SliceData(b), len(b))
	}
	return string(raw)
}

package foryimpl

import (
	"unsafe"

	"github.com/forygen/forygen/buffer"
	"github.com/forygen/forygen/internal/meta"
)

// Dense array fields read with another writer's schema (docs/format.md
// §8.2, §11.4), and read with reference tracking: one call per field in
// ForyReadEvolved and in ForyRead's tracking branch, where the body once
// repeated a dozen lines per field. The untracked ForyRead keeps its
// inlined reads: a call there measured 2–8 % more instructions
// (instructions.sh Sample forygen). The tracking reader writes out the
// calls a generic body would not inline (ReadFieldRefFlag, SetRefSlice):
// so written it executes fewer instructions than the inlined code did
// (instructions.sh Sample forygen-ref Deserialize 4,653 → 4,577).

// ReadArrayEvolved reads a dense array field behind the flag the remote
// field has (ReadEvolvedRefFlag): a back-reference, nil, or the array,
// recorded under its id; a remote field of another type (f.Convert) is
// read as ReadSliceAs reads it.
func ReadArrayEvolved[S ~[]E, E buffer.Fixed](c *ReadContext, f *EvolvedField) S {
	if f.Convert {
		return S(ReadSliceAs[E](c, f))
	}
	st, id := c.ReadEvolvedRefFlag(f)
	if st != RefFollows {
		if st == RefBack {
			return BackRefSlice[E](c, id)
		}
		return nil
	}
	var zero E
	w := int(unsafe.Sizeof(zero))
	n := c.ReadArrayLength(w)
	a := MakeScalarSlice[S](c, n)
	buffer.ReadRawFixed(&c.r, a)
	SetRefSlice(c, id, a)
	return a
}

// ReadBoolArrayEvolved is ReadArrayEvolved for a BOOL_ARRAY, whose bytes
// are checked (buffer.Reader.ReadRawBools); converted as ReadBoolsAs.
func ReadBoolArrayEvolved[S ~[]bool](c *ReadContext, f *EvolvedField) S {
	if f.Convert {
		return S(ReadBoolsAs[bool](c, f))
	}
	st, id := c.ReadEvolvedRefFlag(f)
	if st != RefFollows {
		if st == RefBack {
			return BackRefSlice[bool](c, id)
		}
		return nil
	}
	a := MakeScalarSlice[S](c, c.ReadArrayLength(1))
	c.r.ReadRawBools(a)
	SetRefSlice(c, id, a)
	return a
}

// ReadRefArray reads a dense array field of a message read with reference
// tracking, behind the reference flag only some forms write
// (ReadFieldRefFlag): a back-reference, nil, or the array, recorded under
// its id. It is ReadArrayEvolved's body for the generated ForyRead, one
// call where each field held a dozen lines (issue 28). old is the field's
// previous value, whose memory the array reuses as ReuseSlice's does,
// unless another tracked slice reused it earlier in the message
// (claimSet). The common case, a new array of fewer than 128 bytes
// whose memory is reused, calls nothing but the element copy: the flag and
// length (refArrayStart) and the claim (claimSet.claimNew) are written out
// here and in ReadRefBoolArray, where calls were 40 % of a tracked array's
// cost (instructions.sh Sample forygen-ref Deserialize; PERFORMANCE.md
// "Reference tracking, round 3").
func ReadRefArray[S ~[]E, E buffer.Fixed](c *ReadContext, old S) S {
	var zero E
	w := int(unsafe.Sizeof(zero))
	id, n := -1, -1
	if c.fieldFlags {
		if n = c.r.ReadSmallByteLengthAfter(meta.FlagRefValue, w, c.elems); n >= 0 {
			id = c.refs.n
			c.refs.n++
		}
	} else {
		n = c.r.ReadSmallByteLength(w, c.elems)
	}
	if n >= 0 {
		c.elems -= uint64(n)
		n = int(uint(n) / uint(w)) // n >= 0 and w a constant power of two: a shift
	} else {
		var st int
		if st, id, n = c.refArrayStartSlow(w); st != RefFollows {
			if st == RefBack {
				return BackRefSlice[E](c, id)
			}
			return nil
		}
	}
	var a S
	if p := uintptr(unsafe.Pointer(unsafe.SliceData(old))); old != nil && n <= cap(old) &&
		(cap(old) == 0 || c.claims.claimNew(p) || c.claims.claimSlow(p)) {
		a = old[:n]
	} else {
		a = MakeScalarSlice[S](c, n)
	}
	// Recorded before its elements are read, so that a and id need not
	// outlive the element copy's call (the slice header does not change).
	if id >= 0 {
		c.setRef(id, sliceEntry[E](a))
	}
	buffer.ReadRawFixed(&c.r, a)
	return a
}

// ReadRefBoolArray is ReadRefArray for a BOOL_ARRAY, whose bytes are
// checked (buffer.Reader.ReadRawBools).
func ReadRefBoolArray[S ~[]bool](c *ReadContext, old S) S {
	id, n := -1, -1
	if c.fieldFlags {
		if n = c.r.ReadSmallByteLengthAfter(meta.FlagRefValue, 1, c.elems); n >= 0 {
			id = c.refs.n
			c.refs.n++
		}
	} else {
		n = c.r.ReadSmallByteLength(1, c.elems)
	}
	if n >= 0 {
		c.elems -= uint64(n)
	} else {
		var st int
		if st, id, n = c.refArrayStartSlow(1); st != RefFollows {
			if st == RefBack {
				return BackRefSlice[bool](c, id)
			}
			return nil
		}
	}
	var a S
	if p := uintptr(unsafe.Pointer(unsafe.SliceData(old))); old != nil && n <= cap(old) &&
		(cap(old) == 0 || c.claims.claimNew(p) || c.claims.claimSlow(p)) {
		a = old[:n]
	} else {
		a = MakeScalarSlice[S](c, n)
	}
	if id >= 0 {
		c.setRef(id, sliceEntry[bool](a))
	}
	c.r.ReadRawBools(a)
	return a
}

// refArrayStartSlow is ReadRefArray's start for every input but a new
// object's flag (where the form writes one) and a one-byte byte length: the flag's
// state and id (ReadFieldRefFlag), and when the array follows its element
// count (ReadArrayLength).
func (c *ReadContext) refArrayStartSlow(width int) (st, id, n int) {
	st, id = c.ReadFieldRefFlag()
	if st != RefFollows {
		return st, id, 0
	}
	return st, id, c.ReadArrayLength(width)
}

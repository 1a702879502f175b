package foryimpl

import (
	"unsafe"

	"github.com/forygen/forygen/buffer"
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

// ReadArrayEvolved reads a dense array field that needs no conversion,
// behind the flag the remote field has (ReadEvolvedRefFlag): a
// back-reference, nil, or the array, recorded under its id.
func ReadArrayEvolved[S ~[]E, E buffer.Fixed](c *ReadContext, f *EvolvedField) S {
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
	a := MakeSlice[S](c, n)
	buffer.ReadRawFixed(&c.r, a)
	SetRefSlice(c, id, a)
	return a
}

// ReadBoolArrayEvolved is ReadArrayEvolved for a BOOL_ARRAY, whose bytes
// are checked (buffer.Reader.ReadRawBools).
func ReadBoolArrayEvolved[S ~[]bool](c *ReadContext, f *EvolvedField) S {
	st, id := c.ReadEvolvedRefFlag(f)
	if st != RefFollows {
		if st == RefBack {
			return BackRefSlice[bool](c, id)
		}
		return nil
	}
	a := MakeSlice[S](c, c.ReadArrayLength(1))
	c.r.ReadRawBools(a)
	SetRefSlice(c, id, a)
	return a
}

// ReadRefArray reads a dense array field of a message read with reference
// tracking, behind the reference flag only some forms write
// (ReadFieldRefFlag): a back-reference, nil, or the array, recorded under
// its id. It is ReadArrayEvolved's body for the generated ForyRead, one
// call where each field held a dozen lines (issue 28).
func ReadRefArray[S ~[]E, E buffer.Fixed](c *ReadContext) S {
	// ReadFieldRefFlag, written out: a generic body does not inline it.
	st, id := RefFollows, -1
	if c.TrackedFieldFlags() {
		st, id = c.ReadRefFlag()
	}
	if st != RefFollows {
		if st == RefBack {
			return BackRefSlice[E](c, id)
		}
		return nil
	}
	var zero E
	w := int(unsafe.Sizeof(zero))
	n := c.ReadArrayLengthFast(w)
	if n < 0 {
		n = c.ReadArrayLength(w)
	}
	a := MakeSlice[S](c, n)
	buffer.ReadRawFixed(&c.r, a)
	if id >= 0 {
		// SetRefSlice, written out as ReadFieldRefFlag is.
		c.setRef(id, sliceEntry[E](a))
	}
	return a
}

// ReadRefBoolArray is ReadRefArray for a BOOL_ARRAY, whose bytes are
// checked (buffer.Reader.ReadRawBools).
func ReadRefBoolArray[S ~[]bool](c *ReadContext) S {
	// ReadFieldRefFlag, written out: a generic body does not inline it.
	st, id := RefFollows, -1
	if c.TrackedFieldFlags() {
		st, id = c.ReadRefFlag()
	}
	if st != RefFollows {
		if st == RefBack {
			return BackRefSlice[bool](c, id)
		}
		return nil
	}
	n := c.ReadArrayLengthFast(1)
	if n < 0 {
		n = c.ReadArrayLength(1)
	}
	a := MakeSlice[S](c, n)
	c.r.ReadRawBools(a)
	if id >= 0 {
		c.setRef(id, sliceEntry[bool](a))
	}
	return a
}

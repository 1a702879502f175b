package foryimpl

import (
	"unsafe"

	"github.com/forygen/forygen/buffer"
)

// Dense array fields read with another writer's schema (docs/format.md
// §8.2, §11.4): one call per field in ForyReadEvolved, where the body once
// repeated a dozen lines per field. The other forms keep their inlined
// reads: a call there measured 2–8 % more instructions
// (instructions.sh Sample forygen and forygen-ref), and no benchmark cell
// reads a dense array through the evolved path.

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

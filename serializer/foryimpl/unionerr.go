package foryimpl

import "fmt"

// The errors of generated union code (a //fory:union type): a value that
// is not what its case declares, on write and on read.

// describe names a case value's Go type for an error message.
func describe(v any) string {
	if v == nil {
		return "nil"
	}
	return fmt.Sprintf("a %T", v)
}

// UnionCaseError is the encode error for a union whose case id is not
// declared, or whose value is not of the case's type.
func UnionCaseError(union string, id uint32, v any) error {
	if v == nil {
		return &EncodeError{Type: union, Err: &detail{sentinel: ErrInvalidValue,
			msg: fmt.Sprintf("union %s is unset (case %d holding nil): set a case with ForyUnionSet, or tag the field `fory:\"nullable\"` to write an unset union as null", union, id)}}
	}
	return &EncodeError{Type: union, Err: &detail{sentinel: ErrInvalidValue,
		msg: fmt.Sprintf("union case %d holding %s is not one of its declared cases", id, describe(v))}}
}

// UnionMismatch records, in a read, a union case id the union does not
// declare or a value of another type than the case's.
func (c *ReadContext) UnionMismatch(union string, id uint32, v any) {
	if c.r.Err() == nil {
		c.r.Fail(mismatch("union %s has no case %d holding %s", union, id, describe(v)))
	}
}

// UnionDecodeError is UnionMismatch for a union read as the root.
func UnionDecodeError(union string, id uint32, v any) error {
	return &DecodeError{Type: union, Err: mismatch("union %s has no case %d holding %s", union, id, describe(v))}
}

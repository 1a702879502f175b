package foryimpl

import (
	"errors"
	"strconv"
	"unsafe"
)

// ErrInvalidValue is wrapped by every EncodeError: a value that has no
// faithful encoding, such as a string that is not UTF-8 or an int outside
// the 32 bits its `encoding=` tag declares.
var ErrInvalidValue = errors.New("value cannot be encoded")

// EncodeError says which field of which struct could not be written.
// Nothing of the message is kept: the writer index is where it was.
type EncodeError struct {
	Type string // the struct whose field failed, e.g. "users.User"
	Path string // the field, e.g. "Name" or "Tags"
	Err  error  // wraps ErrInvalidValue
}

func (e *EncodeError) Error() string {
	if e.Path == "" {
		return "serializer: encoding " + e.Type + ": " + e.Err.Error()
	}
	return "serializer: encoding " + e.Type + "." + e.Path + ": " + e.Err.Error()
}

func (e *EncodeError) Unwrap() error { return e.Err }

// InvalidUTF8 is the error generated writers return for a string field (or
// a string inside a container field) that is not valid UTF-8, which the
// default reader would refuse (WithUTF8Validation(false) turns both off).
func InvalidUTF8(t *TypeInfo, field string) error {
	return &EncodeError{Type: t.GoName, Path: field, Err: &detail{sentinel: ErrInvalidValue, msg: "invalid UTF-8 in a string"}}
}

// IntOutOfRange is the error for an int field declared 32-bit (encoding=
// varint or fixed) whose value needs more bits; official Go truncates it.
func IntOutOfRange(t *TypeInfo, field string, v int64) error {
	return &EncodeError{Type: t.GoName, Path: field, Err: &detail{sentinel: ErrInvalidValue,
		msg: strconv.FormatInt(v, 10) + " does not fit the 32-bit encoding the field declares"}}
}

// UintOutOfRange is IntOutOfRange for a uint field.
func UintOutOfRange(t *TypeInfo, field string, v uint64) error {
	return &EncodeError{Type: t.GoName, Path: field, Err: &detail{sentinel: ErrInvalidValue,
		msg: strconv.FormatUint(v, 10) + " does not fit the 32-bit encoding the field declares"}}
}

// NilNotNullable is the error for a nil struct pointer field tagged
// nullable=false, which is written without a null flag: nothing could say
// nil (official Go writes a zero struct instead).
func NilNotNullable(t *TypeInfo, field string) error {
	return &EncodeError{Type: t.GoName, Path: field, Err: &detail{sentinel: ErrInvalidValue,
		msg: "nil pointer in a field tagged nullable=false; set it, or drop nullable=false"}}
}

// CheckUTF8 reports whether writers must check that strings are UTF-8.
func (f *Runtime) CheckUTF8() bool { return !f.opts.SkipUTF8Check }

// CheckUTF8 reports whether writers must check that strings are UTF-8.
func (c *WriteContext) CheckUTF8() bool { return !c.f.opts.SkipUTF8Check }

// ValidString is utf8.ValidString with validUTF8's word-at-a-time scan of
// the ASCII prefix: generated writers check every string with it
// (BenchmarkSerialize/MediaContent: utf8.ValidString cost about 100
// instructions a string, most of the serialize time). It inlines, so a
// check is one call of validUTF8, which needs no stack frame.
func ValidString(s string) bool {
	return validUTF8(unsafe.Slice(unsafe.StringData(s), len(s)))
}

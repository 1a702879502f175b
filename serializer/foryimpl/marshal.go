package foryimpl

import (
	"math"
	"unsafe"

	"github.com/forygen/forygen/buffer"
	"github.com/forygen/forygen/internal/meta"
)

// Marshaler adapters: a field tagged marshal=text or marshal=binary is
// written through its type's own MarshalText or MarshalBinary, as a STRING
// or a BINARY any peer reads without a custom serializer, and read back
// through UnmarshalText or UnmarshalBinary (README "Types you don't own").
// Generated code calls the methods on the field directly, so there is no
// interface call; these helpers check and move the bytes.

// Marshaled checks a marshaler's result before it is written: the
// marshaler's error, the UTF-8 of a text when the writer checks strings
// (the readers refuse anything else), and a length the wire's 32-bit
// length can hold. On a failure it fails c with an *EncodeError naming the
// field and returns false; the root writer then takes back what was
// written (EndWrite).
func (c *WriteContext) Marshaled(t *TypeInfo, field string, p []byte, err error, text bool) bool {
	switch {
	case err != nil:
		c.Fail(&EncodeError{Type: t.GoName, Path: field, Err: &causeDetail{detail{sentinel: ErrInvalidValue, msg: "its marshaler failed: " + err.Error()}, err}})
	case text && c.CheckUTF8() && !validUTF8(p):
		c.Fail(&EncodeError{Type: t.GoName, Path: field, Err: &detail{sentinel: ErrInvalidValue, msg: "MarshalText returned invalid UTF-8"}})
	case uint64(len(p)) > math.MaxUint32:
		c.Fail(&EncodeError{Type: t.GoName, Path: field, Err: &detail{sentinel: ErrInvalidValue, msg: "the marshaled value is longer than 4 GiB"}})
	default:
		return true
	}
	return false
}

// WriteText writes p, a MarshalText result, as a UTF-8 STRING.
func WriteText(b *buffer.Buffer, p []byte) { b.WriteHeaderBytes(uint64(len(p))<<2|meta.StringUTF8, p) }

// WriteBinary writes p, a MarshalBinary result, as a BINARY: its length
// and its bytes.
func WriteBinary(b *buffer.Buffer, p []byte) {
	b.WriteVarUint32(uint32(len(p)))
	b.WriteBytes(p)
}

// ReadText reads a STRING for UnmarshalText: the bytes of its UTF-8
// text, whatever encoding the peer chose (LATIN1, UTF-16). They may view
// the input, which the encoding.TextUnmarshaler contract allows: an
// unmarshaler copies what it keeps. ok is false when the read failed.
func (c *ReadContext) ReadText() (p []byte, ok bool) {
	s := c.ReadString()
	if c.Failed() {
		return nil, false
	}
	return unsafe.Slice(unsafe.StringData(s), len(s)), true
}

// ReadBinaryView reads a BINARY for UnmarshalBinary: a view of the input,
// which the encoding.BinaryUnmarshaler contract allows (an unmarshaler
// copies what it keeps). ok is false when the read failed.
func (c *ReadContext) ReadBinaryView() (p []byte, ok bool) {
	n := c.ReadLength(1)
	p = c.r.ReadBytes(n)
	return p, !c.Failed()
}

// Unmarshaled fails c when an unmarshaler refused the bytes it was given:
// the message is malformed for the field's type.
func (c *ReadContext) Unmarshaled(err error) {
	if err != nil {
		c.Fail(&causeDetail{detail{sentinel: ErrMalformed, msg: "the field's unmarshaler refused its bytes: " + err.Error()}, err})
	}
}

// causeDetail is a detail that also wraps the error behind it, so that
// errors.Is finds both the sentinel and the marshaler's own error.
type causeDetail struct {
	detail
	cause error
}

func (d *causeDetail) Unwrap() []error { return []error{d.sentinel, d.cause} }

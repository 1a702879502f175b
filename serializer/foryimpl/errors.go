package foryimpl

import (
	"errors"
	"fmt"
	"strings"

	"github.com/forygen/forygen/buffer"
)

// Sentinel errors. Every error a decode returns satisfies errors.Is with
// exactly one of ErrMalformed, ErrSchemaMismatch, ErrLimit or
// ErrUnsupported, and is a *DecodeError that says the type, field path and
// byte offset. Package serializer exports the same values.
var (
	// ErrMalformed: the bytes are not a valid Fory message (truncated input,
	// overlong varint, bad flag or header byte, invalid UTF-8, trailing bytes).
	ErrMalformed = errors.New("malformed input")
	// ErrSchemaMismatch: a well-formed message of another type or schema (type
	// id, registration or schema hash differs from the generated type).
	ErrSchemaMismatch = errors.New("schema mismatch")
	// ErrLimit: a decode limit was exceeded (depth, TypeDef size, field count).
	ErrLimit = errors.New("decode limit exceeded")
	// ErrUnsupported: the message uses a feature forygen does not decode
	// (reference tracking, out-of-band buffers).
	ErrUnsupported = errors.New("unsupported feature")

	// ErrNotGenerated is returned when a value is not a non-nil pointer to a
	// forygen-generated type.
	ErrNotGenerated = errors.New("serializer: value is not a non-nil pointer to a forygen-generated type")
)

// DecodeError describes where decoding failed.
type DecodeError struct {
	Type string // the root type being decoded
	// Path is the field path from the root, e.g. "media.uri" or
	// "images[2].title". A field of a received schema that has no local
	// counterpart is named as the peer sent it: "#3" for tag id 3, or
	// quoted in brackets (["p$f"]) when its name is not an identifier.
	Path   string
	Offset int   // byte offset in the input where the problem was found
	Err    error // wraps one of the sentinels
}

func (e *DecodeError) Error() string {
	var sb strings.Builder
	sb.WriteString("serializer: decoding ")
	sb.WriteString(e.Type)
	if e.Path != "" {
		sb.WriteString(".")
		sb.WriteString(e.Path)
	}
	fmt.Fprintf(&sb, " at offset %d: %v", e.Offset, e.Err)
	return sb.String()
}

func (e *DecodeError) Unwrap() error { return e.Err }

// detail is an error with a message that wraps a sentinel.
type detail struct {
	sentinel error
	msg      string
	// short marks a failure for lack of input: the bytes read so far are
	// a valid start of a message (see Runtime.StreamResult).
	short bool
	// kind replaces the sentinel's text in the message: an encode error
	// wrapping ErrLimit is not "decode limit exceeded".
	kind string
}

func (d *detail) Error() string {
	kind := d.kind
	if kind == "" {
		kind = d.sentinel.Error()
	}
	return d.msg + " (" + kind + ")"
}
func (d *detail) Unwrap() error { return d.sentinel }

func malformed(format string, args ...any) error {
	return &detail{sentinel: ErrMalformed, msg: fmt.Sprintf(format, args...)}
}

func mismatch(format string, args ...any) error {
	return &detail{sentinel: ErrSchemaMismatch, msg: fmt.Sprintf(format, args...)}
}

// shortInput is ErrMalformed for input that ends before the value does.
func shortInput(format string, args ...any) error {
	return &detail{sentinel: ErrMalformed, msg: fmt.Sprintf(format, args...), short: true}
}

// isShort reports whether a reader's error is for lack of input.
func isShort(err error) bool {
	if errors.Is(err, buffer.ErrTruncated) {
		return true
	}
	var d *detail
	return errors.As(err, &d) && d.short
}

func limit(format string, args ...any) error {
	return &detail{sentinel: ErrLimit, msg: fmt.Sprintf(format, args...)}
}

// encodeLimit is ErrLimit for a value too deep to write.
func encodeLimit(format string, args ...any) error {
	return &detail{sentinel: ErrLimit, msg: fmt.Sprintf(format, args...), kind: "encode limit exceeded"}
}

// classify maps a buffer error onto the serializer's sentinels.
func classify(err error) (offset int, wrapped error) {
	var be *buffer.Error
	if errors.As(err, &be) {
		offset = be.Offset
		err = be.Err
	}
	switch {
	case errors.Is(err, ErrMalformed), errors.Is(err, ErrSchemaMismatch), errors.Is(err, ErrLimit),
		errors.Is(err, ErrUnsupported):
		return offset, err
	}
	return offset, &detail{sentinel: ErrMalformed, msg: err.Error()}
}

// ErrArrayLength is the error generated code records when a list's length
// differs from the length of the Go array it is read into.
func ErrArrayLength(got, want int) error {
	return mismatch("list of %d elements read into an array of %d", got, want)
}

// ErrNullSetElement is the error generated code records for a null element
// in a SET read into a Go set, which has no place for it.
func ErrNullSetElement() error {
	return mismatch("null element in a set")
}

// NoInstance is the error of a generic struct's method called on an
// instantiation that has no generated code: only instantiations registered
// by an alias (//fory:generate on type UserPage = Page[User]) have.
func NoInstance(v any) error {
	return &EncodeError{Type: fmt.Sprintf("%T", v), Err: &detail{sentinel: ErrNotGenerated,
		msg: "an instantiation of a generic struct without generated code: register it with //fory:generate on an alias of it (type XPage = Page[X]) and run go generate"}}
}

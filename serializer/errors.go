package serializer

import "github.com/forygen/forygen/serializer/foryimpl"

// Errors. Every error that decoding returns is a *DecodeError wrapping
// exactly one of ErrMalformed, ErrSchemaMismatch, ErrLimit and
// ErrUnsupported; test for them with errors.Is.
var (
	// ErrMalformed: the bytes are not a valid Fory message: truncated input,
	// an overlong varint, a bad header, flag or container header, a length
	// longer than the input left, invalid UTF-8, an out-of-range time value,
	// or trailing bytes.
	ErrMalformed = foryimpl.ErrMalformed
	// ErrSchemaMismatch: a valid message of another type or schema: the type
	// id, registration or same-schema hash differs, or a field type cannot
	// be converted.
	ErrSchemaMismatch = foryimpl.ErrSchemaMismatch
	// ErrLimit: a decode limit was hit (depth, allocation budget, TypeDef
	// size or field count), or, in an *EncodeError, a value nested deeper
	// than WithMaxDepth ("encode limit exceeded").
	ErrLimit = foryimpl.ErrLimit
	// ErrUnsupported: the message uses a feature forygen does not read
	// (reference tracking, out-of-band buffers).
	ErrUnsupported = foryimpl.ErrUnsupported

	// ErrNotGenerated: the value is neither a non-nil pointer to a
	// forygen-generated type nor a RootValue (for decoding, a non-nil
	// pointer to one). It is returned as is, not in a DecodeError.
	ErrNotGenerated = foryimpl.ErrNotGenerated
)

// DecodeError describes where decoding failed:
//
//	Type   string // the root type being decoded, e.g. "users.User"
//	Path   string // the field where decoding stopped, e.g. "Addrs[1].Street"
//	Offset int    // the input offset where the problem was found
//	Err    error  // wraps exactly one sentinel (and io.ErrUnexpectedEOF for a Decoder's cut stream)
//
// In compatible mode, a field of the writer's schema that the reader's type
// lacks appears in Path as the writer named it: "#3" for tag id 3, its
// snake_case name, or the name quoted in brackets (["a.b"]) when it is not
// an identifier.
type DecodeError = foryimpl.DecodeError

// ErrInvalidValue: a value has no faithful encoding: a string that is not
// UTF-8 (unless WithUTF8Validation(false)), or an int or uint field tagged
// `encoding=varint` or `encoding=fixed`, which declares 32 bits, holding a
// value that needs more. Official Fory Go writes the first and truncates the
// second; forygen refuses both, as an *EncodeError.
var ErrInvalidValue = foryimpl.ErrInvalidValue

// EncodeError says where serializing failed:
//
//	Type string // the struct whose field could not be written
//	Path string // the field
//	Err  error  // wraps ErrInvalidValue
//
// Nothing is appended to the buffer when serializing fails.
type EncodeError = foryimpl.EncodeError

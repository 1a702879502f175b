// Package intenc holds integer fields with encoding=fixed / encoding=tagged tags
// (IntEncodings, id 113).
//
// Conformance cases (xlang-fixtures/manifest.json): int_encodings_small,
// int_encodings_large.
//
// The declarations are copied verbatim from the cases' go_types (fory.Date becomes
// serializer.Date); the fory:generate and fory:enum directives reproduce the cases'
// registrations. forygen writes types_fory.go next to this file.
package intenc

//go:generate go run github.com/forygen/forygen/cmd/forygen

//fory:generate id=113
type IntEncodings struct {
	TaggedI64 int64  `fory:"encoding=tagged"`
	FixedI64  int64  `fory:"encoding=fixed"`
	FixedI32  int32  `fory:"encoding=fixed"`
	TaggedU64 uint64 `fory:"encoding=tagged"`
	FixedU32  uint32 `fory:"encoding=fixed"`
	FixedU64  uint64 `fory:"encoding=fixed"`
	VarI64    int64
	VarU32    uint32
	Uint      uint
}

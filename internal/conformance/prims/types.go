// Package prims holds a struct with every primitive kind (AllPrims, id 100).
//
// Conformance cases (xlang-fixtures/manifest.json): all_prims_zero, all_prims_min,
// all_prims_max.
//
// The declarations are copied verbatim from the cases' go_types (fory.Date becomes
// serializer.Date); the fory:generate and fory:enum directives reproduce the cases'
// registrations. forygen writes types_fory.go next to this file.
package prims

//go:generate go run github.com/forygen/forygen/cmd/forygen

//fory:generate id=100
type AllPrims struct {
	B   bool
	I8  int8
	I16 int16
	I32 int32
	I64 int64
	I   int
	U8  uint8
	U16 uint16
	U32 uint32
	U64 uint64
	F32 float32
	F64 float64
}

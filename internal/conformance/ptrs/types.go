// Package ptrs holds pointer-to-primitive fields (Ptrs, id 114).
//
// Conformance cases (xlang-fixtures/manifest.json): ptrs_nil, ptrs_set.
//
// The declarations are copied verbatim from the cases' go_types (fory.Date becomes
// serializer.Date); the fory:generate and fory:enum directives reproduce the cases'
// registrations. forygen writes types_fory.go next to this file.
package ptrs

//go:generate go run github.com/forygen/forygen/cmd/forygen

//fory:generate id=114
type Ptrs struct {
	PB   *bool
	PI32 *int32
	PI64 *int64
	PF64 *float64
	PS   *string
}

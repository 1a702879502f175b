// Package nested holds a struct with a *struct field (Outer 105, Inner 106).
//
// Conformance cases (xlang-fixtures/manifest.json): nested_ptr_nil, nested_ptr_set.
//
// The declarations are copied verbatim from the cases' go_types (fory.Date becomes
// serializer.Date); the fory:generate and fory:enum directives reproduce the cases'
// registrations. forygen writes types_fory.go next to this file.
package nested

//go:generate go run github.com/forygen/forygen/cmd/forygen

//fory:generate id=105
type Outer struct {
	Inner *Inner
	X     int32
}

//fory:generate id=106
type Inner struct {
	V int32
	S string
}

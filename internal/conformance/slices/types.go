// Package slices holds untagged slice fields, lists and a dense array (Slices, id 102).
//
// Conformance cases (xlang-fixtures/manifest.json): slices_nil, slices_empty, slices_values.
//
// The declarations are copied verbatim from the cases' go_types (fory.Date becomes
// serializer.Date); the fory:generate and fory:enum directives reproduce the cases'
// registrations. forygen writes types_fory.go next to this file.
package slices

//go:generate go run github.com/forygen/forygen/cmd/forygen

//fory:generate id=102
type Slices struct {
	Strs   []string
	I64s   []int64
	I64Arr []int64 `fory:"type=array(element=int64)"`
	I32s   []int32
}

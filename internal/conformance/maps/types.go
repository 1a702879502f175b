// Package maps holds untagged map fields (Maps, id 104).
//
// Conformance cases (xlang-fixtures/manifest.json): maps_nil, maps_empty, maps_single,
// maps_multi.
//
// The declarations are copied verbatim from the cases' go_types (fory.Date becomes
// serializer.Date); the fory:generate and fory:enum directives reproduce the cases'
// registrations. forygen writes types_fory.go next to this file.
package maps

//go:generate go run github.com/forygen/forygen/cmd/forygen

//fory:generate id=104
type Maps struct {
	StrToI32 map[string]int32
	I32ToStr map[int32]string
}

// Package structlists holds []Inner and []*Inner fields (StructLists 116, Inner 106).
//
// Conformance cases (xlang-fixtures/manifest.json): struct_lists.
//
// The declarations are copied verbatim from the cases' go_types (fory.Date becomes
// serializer.Date); the fory:generate and fory:enum directives reproduce the cases'
// registrations. forygen writes types_fory.go next to this file.
package structlists

//go:generate go run github.com/forygen/forygen/cmd/forygen

//fory:generate id=116
type StructLists struct {
	Values   []Inner
	Pointers []*Inner
}

//fory:generate id=106
type Inner struct {
	V int32
	S string
}

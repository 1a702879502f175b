// Package deepid holds three struct levels with value and pointer nesting, registered by id
// (109..111).
//
// Conformance cases (xlang-fixtures/manifest.json): deep_nested_id.
//
// The declarations are copied verbatim from the cases' go_types (fory.Date becomes
// serializer.Date); the fory:generate and fory:enum directives reproduce the cases'
// registrations. forygen writes types_fory.go next to this file.
package deepid

//go:generate go run github.com/forygen/forygen/cmd/forygen

//fory:generate id=109
type Level1 struct {
	ID  int32
	Mid Level2
}

//fory:generate id=110
type Level2 struct {
	Name  string
	Deep  Level3
	DeepP *Level3
}

//fory:generate id=111
type Level3 struct {
	Value int64
	Tags  []string
}

// Package deepname holds three struct levels with value and pointer nesting, registered by
// name in namespace "edge".
//
// Conformance cases (xlang-fixtures/manifest.json): deep_nested_name.
//
// The declarations are copied verbatim from the cases' go_types (fory.Date becomes
// serializer.Date); the fory:generate and fory:enum directives reproduce the cases'
// registrations. forygen writes types_fory.go next to this file.
package deepname

//go:generate go run github.com/forygen/forygen/cmd/forygen

//fory:generate name=edge.Level1
type Level1 struct {
	ID  int32
	Mid Level2
}

//fory:generate name=edge.Level2
type Level2 struct {
	Name  string
	Deep  Level3
	DeepP *Level3
}

//fory:generate name=edge.Level3
type Level3 struct {
	Value int64
	Tags  []string
}

// Package nullable holds slice and map fields tagged fory:"nullable" (NullableContainers, id
// 103).
//
// Conformance cases (xlang-fixtures/manifest.json): nullable_containers_nil,
// nullable_containers_values.
//
// The declarations are copied verbatim from the cases' go_types (fory.Date becomes
// serializer.Date); the fory:generate and fory:enum directives reproduce the cases'
// registrations. forygen writes types_fory.go next to this file.
package nullable

//go:generate go run github.com/forygen/forygen/cmd/forygen

//fory:generate id=103
type NullableContainers struct {
	Strs []string         `fory:"nullable"`
	Ints []int32          `fory:"nullable"`
	Map  map[string]int32 `fory:"nullable"`
}

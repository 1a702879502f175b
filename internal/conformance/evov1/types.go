// Package evov1 holds PersonV1 (id 120), the narrow side of the schema-evolution cases.
//
// Conformance cases (xlang-fixtures/manifest.json): evolution_missing_fields_defaulted,
// evolution_extra_fields_skipped (reader side).
//
// The declarations are copied verbatim from the cases' go_types (fory.Date becomes
// serializer.Date); the fory:generate and fory:enum directives reproduce the cases'
// registrations. forygen writes types_fory.go next to this file.
package evov1

//go:generate go run github.com/forygen/forygen/cmd/forygen

//fory:generate id=120
type PersonV1 struct {
	Name string
	Age  int32
}

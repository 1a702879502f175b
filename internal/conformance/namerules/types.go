// Package namerules holds untagged fields whose snake_case identifiers show Go's conversion,
// plus skipped (unexported and fory:"-") fields (NameRules, id 117).
//
// Conformance cases (xlang-fixtures/manifest.json): name_rules.
//
// The declarations are copied verbatim from the cases' go_types (fory.Date becomes
// serializer.Date); the fory:generate and fory:enum directives reproduce the cases'
// registrations. forygen writes types_fory.go next to this file.
package namerules

//go:generate go run github.com/forygen/forygen/cmd/forygen

//fory:generate id=117
type NameRules struct {
	URI      string
	HTTPCode int32
	UserID   int64
	X2Y      int32
	//lint:ignore U1000 an unexported field, which the generator must ignore
	already_lo int32 // unexported: ignored
	Skipped    int32 `fory:"-"`
}

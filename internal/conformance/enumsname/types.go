// Package enumsname holds the enum_fields types registered by name in namespace "edge".
//
// Conformance cases (xlang-fixtures/manifest.json): enum_fields_name.
//
// The declarations are copied verbatim from the cases' go_types (fory.Date becomes
// serializer.Date); the fory:generate and fory:enum directives reproduce the cases'
// registrations. forygen writes types_fory.go next to this file.
package enumsname

//go:generate go run github.com/forygen/forygen/cmd/forygen

//fory:generate name=edge.EnumHolder
type EnumHolder struct {
	C      Color
	PC     *Color
	Colors []Color
}

//fory:enum name=edge.Color
type Color int32

const (
	ColorRed   Color = 0
	ColorGreen Color = 1
	ColorBlue  Color = 2
)

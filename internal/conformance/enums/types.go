// Package enums holds enum value, *enum and []enum fields, enum registered by id (EnumHolder
// 107, Color 108).
//
// Conformance cases (xlang-fixtures/manifest.json): enum_fields, enum_ptr_nil.
//
// The declarations are copied verbatim from the cases' go_types (fory.Date becomes
// serializer.Date); the fory:generate and fory:enum directives reproduce the cases'
// registrations. forygen writes types_fory.go next to this file.
package enums

//go:generate go run github.com/forygen/forygen/cmd/forygen

//fory:generate id=107
type EnumHolder struct {
	C      Color
	PC     *Color
	Colors []Color
}

//fory:enum id=108
type Color int32

const (
	ColorRed   Color = 0
	ColorGreen Color = 1
	ColorBlue  Color = 2
)

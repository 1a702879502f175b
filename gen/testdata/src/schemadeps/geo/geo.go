// Package geo is the package draw imports, for the golden test of forygen
// schema's imports (gen/testdata/schema): its types are registered by name
// in namespace geo, so its IDL file is geo.fdl with package geo.
package geo

//fory:generate name=geo.Point
type Point struct {
	X int32 `fory:"id=1"`
	Y int32 `fory:"id=2"`
}

//fory:enum name=geo.Color
type Color int32

const (
	ColorRed     Color = 0
	ColorHTMLRed Color = 1 // HTML_RED word by word, not H_T_M_L_RED
)

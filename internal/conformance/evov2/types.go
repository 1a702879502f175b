// Package evov2 holds PersonV2 (id 120, + Address 121, Color 108), the wide side of the
// schema-evolution cases.
//
// Conformance cases (xlang-fixtures/manifest.json): evolution_extra_fields_skipped,
// evolution_missing_fields_defaulted (reader side).
//
// The declarations are copied verbatim from the cases' go_types (fory.Date becomes
// serializer.Date); the fory:generate and fory:enum directives reproduce the cases'
// registrations. forygen writes types_fory.go next to this file.
package evov2

//go:generate go run github.com/forygen/forygen/cmd/forygen

//fory:generate id=120
type PersonV2 struct {
	Name    string
	Age     int32
	Email   string
	Tags    []string
	Scores  map[string]int32
	Home    *Address
	Work    Address
	Nick    *string
	Level   Color
	Weights []float64 `fory:"type=array(element=float64)"`
}

//fory:generate id=121
type Address struct {
	Street string
	Zip    int32
}

//fory:enum id=108
type Color int32

const (
	ColorRed   Color = 0
	ColorGreen Color = 1
	ColorBlue  Color = 2
)

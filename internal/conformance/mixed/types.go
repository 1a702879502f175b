// Package mixed holds an untagged struct mixing every field group (Mixed 119, Inner 106,
// Color 108).
//
// Conformance cases (xlang-fixtures/manifest.json): mixed.
//
// The declarations are copied verbatim from the cases' go_types (fory.Date becomes
// serializer.Date); the fory:generate and fory:enum directives reproduce the cases'
// registrations. forygen writes types_fory.go next to this file.
package mixed

//go:generate go run github.com/forygen/forygen/cmd/forygen

import "time"

//fory:generate id=119
type Mixed struct {
	Name    string
	Count   int64
	Ratio   float32
	Flag    bool
	Small   int16
	Opt     *int32
	OptFlag *bool
	Kind    Color
	Child   *Inner
	Items   []string
	Lookup  map[string]int32
	Stamp   time.Time
	Code    int32
	Big     uint64
}

//fory:enum id=108
type Color int32

const (
	ColorRed   Color = 0
	ColorGreen Color = 1
	ColorBlue  Color = 2
)

//fory:generate id=106
type Inner struct {
	V int32
	S string
}

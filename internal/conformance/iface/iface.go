// Package iface is official Go's Drawing: fields of a non-empty interface
// type (Shape) holding generated structs, written as official Go writes an
// interface field (as an any: flag, type meta, value).
package iface

//go:generate go run github.com/forygen/forygen/cmd/forygen

// Shape is implemented by the pointers of Circle and Square.
type Shape interface{ Area() float64 }

//fory:generate id=401
type Circle struct{ R float64 }

// Area is 3r², the geometry of the test.
func (c *Circle) Area() float64 { return 3 * c.R * c.R }

//fory:generate id=402
type Square struct{ S int32 }

// Area is s².
func (s *Square) Area() float64 { return float64(s.S * s.S) }

// Label is a generated type that is not a Shape.
//
//fory:generate id=404
type Label struct{ Text string }

//fory:generate id=403
type Drawing struct {
	Main  Shape
	Other Shape
	Any   any
	N     int32
}

// Gallery holds interfaces in a list and a map, which official Go writes
// as a []any and a map[string]any.
//
//fory:generate id=405
type Gallery struct {
	Shapes []Shape
	ByName map[string]Shape
	Anys   []any
}

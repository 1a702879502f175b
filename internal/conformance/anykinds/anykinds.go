// Package anykinds is official Go's messages with enums, dates, decimals,
// 16-bit floats and sets held in an any (a field, a []any element, a
// map[any]any key or value), as official Go writes them in an interface:
// the type id (an enum's ENUM and user id, or NAMED_ENUM and its names or
// shared TypeDef) and the payload (docs/format.md §12.7).
package anykinds

//go:generate go run github.com/forygen/forygen/cmd/forygen

// Color is registered by id.
//
//fory:enum id=502
type Color int32

// Tone is registered by name.
//
//fory:enum name=demo.Tone
type Tone int32

//fory:generate id=600
type Holder struct{ V any }

//fory:generate id=601
type Pair struct {
	A any
	B any
}

// Package v2 has a later version of agree.Leaf: the same registration with
// one field more, as a peer with a newer schema sends it.
package v2

//go:generate go run github.com/forygen/forygen/cmd/forygen

// Leaf is agree.Leaf with a field W added.
//
//fory:generate id=310
type Leaf struct {
	V int32  `fory:"id=1"`
	W string `fory:"id=2"`
}

// MapKinds is agree.MapKinds without its struct maps, which a reader of
// this version skips.
//
//fory:generate id=311
type MapKinds struct {
	S map[string]int32 `fory:"id=1"`
}

// Wide16 and Wide32 are agree.Narrow16 and agree.Narrow32 with room for
// every varu32 ordinal.
//
//fory:enum id=320
type Wide16 uint32

//fory:enum id=321
type Wide32 uint32

// Enums is agree.Enums with the wide enums.
//
//fory:generate id=314
type Enums struct {
	A Wide16 `fory:"id=1"`
	B Wide32 `fory:"id=2"`
}

// EnumsEvolved is agree.EnumsEvolved with a field more.
//
//fory:generate id=315
type EnumsEvolved struct {
	A Wide16 `fory:"id=1"`
	B Wide32 `fory:"id=2"`
	C int32  `fory:"id=3"`
}

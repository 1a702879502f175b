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

// Package structroots holds official Go's User for messages whose root is
// a list of structs (serializer.MarshalList, MarshalPtrList).
package structroots

//go:generate go run github.com/forygen/forygen/cmd/forygen

//fory:generate id=501
type User struct {
	ID   int64
	Name string
}

// Color is official Go's enum registered by id.
//
//fory:enum id=502
type Color int32

// Shade is an enum registered by name.
//
//fory:enum name=paint.Shade
type Shade int32

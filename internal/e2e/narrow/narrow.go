// Package narrow declares e2e types again, with the same registrations and
// fewer fields: reading an e2e message into them in compatible mode goes
// through schema evolution and skips the missing fields (docs/format.md §11.4).
// The skip-path depth tests and fuzz targets use them.
package narrow

//go:generate go run github.com/forygen/forygen/cmd/forygen

import "github.com/forygen/forygen/internal/e2e/other"

// Scalars keeps two of e2e.Scalars's fields.
//
//fory:generate id=920
type Scalars struct {
	B    bool
	Tagd int32 `fory:"id=7"`
}

// Containers keeps e2e.Containers's string.
//
//fory:generate name=e2e.Containers
type Containers struct {
	S string
}

// Maps keeps the fields of e2e.Maps that cannot be skipped (map values that
// are structs carry no TypeDef).
//
//fory:generate id=922
type Maps struct {
	Structs map[string]other.Address
	Ptrs    map[int32]*other.Address
}

// Composite keeps e2e.Composite's title and its map of structs.
//
//fory:generate id=923
type Composite struct {
	Title  string
	ByName map[string]*other.Tag
}

// Node keeps e2e.Node's value: the next nodes are skipped.
//
//fory:generate id=924
type Node struct {
	Value int32
}

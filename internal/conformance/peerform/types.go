// Package peerform holds the types of the messages fory-js (apache/fory
// c8bf233) wrote locally, whose bytes testdata/peers.json keeps: the places
// where official Fory Go departs from the other languages and forygen
// writes what they write (docs/format.md §14.29, §14.30).
package peerform

//go:generate go run github.com/forygen/forygen/cmd/forygen

//fory:generate id=402
type Leaf struct {
	Name string
	N    int32
}

// Holder has a pointer field: same-schema hash with nullable=1 (§14.29).
//
//fory:generate id=401
type Holder struct {
	Label string
	Next  *Leaf
}

// AnyHolder has a nullable any field (§14.29).
//
//fory:generate id=403
type AnyHolder struct {
	Value any `fory:"nullable"`
}

// Outer has a struct value field: no flag under tracking (§14.30).
//
//fory:generate id=404
type Outer struct {
	Inner Leaf
	Count int32
}

// Arrays has dense arrays: no reference flag under tracking (§14.30).
//
//fory:generate id=405
type Arrays struct {
	Ints  []int32 `fory:"type=array(element=int32)"`
	Longs []int64 `fory:"type=array(element=int64)"`
}

// Node is a tree of struct values.
//
//fory:generate id=406
type Node struct {
	Name     string
	Children []Node
}

// Bin has a binary field: no reference flag under tracking (§14.30).
//
//fory:generate id=410
type Bin struct {
	Data  []byte `fory:"type=bytes"`
	Count int32
}

// Mixed has a struct value, a list and a map.
//
//fory:generate id=411
type Mixed struct {
	Inner Leaf
	List  []int32
	M     map[string]int32
}

// Nullables has a pointer to a struct, a pointer to a scalar and a nullable
// dense array (§14.29).
//
//fory:generate id=412
type Nullables struct {
	Next *Leaf
	K    *int32
	Arr  []int32 `fory:"nullable,type=array(element=int32)"`
}

//fory:enum id=420
type Color int32

// Colored has an enum value field: no flag under tracking (§14.30).
//
//fory:generate id=421
type Colored struct {
	E Color
	N int32
}

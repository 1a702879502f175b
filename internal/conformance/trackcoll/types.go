// Package trackcoll holds the types of golden set 3, group 1: reference
// tracking meets collections. Lists, maps and sets as list elements and map
// values, binaries inside containers, empty dense arrays, nil struct
// pointers as map values, enum pointers, nullable sets, and structs inside
// []any and map[string]any.
//
// The declarations are the cases' go_types (fory.Set becomes
// serializer.Set); the Leaf of each case is registered under its own id, so
// each has its own Go name here (the name of a type registered by id is not
// on the wire).
package trackcoll

import "github.com/forygen/forygen/serializer"

//go:generate go run github.com/forygen/forygen/cmd/forygen

//fory:generate id=301
type NestedLists struct {
	Ints    [][]int32
	Strs    [][]string
	Missing [][]int32
}

//fory:generate id=302
type ListOfMaps struct {
	Maps []map[string]int32
}

//fory:generate id=303
type MapOfLists struct {
	Ints    map[string][]int32
	Strs    map[string][]string
	NilList map[string][]int32
}

//fory:generate id=304
type MapOfMaps struct {
	Nested map[string]map[string]int32
}

//fory:generate id=305
type SetsInside struct {
	List []serializer.Set[string]
	Map  map[string]serializer.Set[int32]
}

//fory:generate id=306
type Binaries struct {
	List [][]byte
	Map  map[string][]byte
}

//fory:generate id=307
type SharedInner struct {
	Lists [][]int32
	Maps  []map[string]int32
}

//fory:generate id=308
type EmptyArrays struct {
	I32 []int32   `fory:"type=array(element=int32)"`
	F32 []float32 `fory:"type=array(element=float32)"`
	Bin []byte    `fory:"type=bytes"`
	I64 []int64   `fory:"type=array(element=int64)"`
}

//fory:generate id=309
type OneEmptyArray struct {
	Empty []int32 `fory:"type=array(element=int32)"`
	Full  []int32 `fory:"type=array(element=int32)"`
	Bin   []byte  `fory:"type=bytes"`
	Nil   []int32 `fory:"type=array(element=int32)"`
}

//fory:generate id=310
type EmptyInner struct {
	Ints [][]int32
	Strs [][]string
}

//fory:generate id=311
type Leaf311 struct {
	Name string
	N    int32
}

//fory:generate id=312
type NilValues struct {
	Nils  map[string]*Leaf311
	Items map[string]*Leaf311
}

//fory:enum id=313
type Color int32

const (
	ColorRed   Color = 0
	ColorGreen Color = 1
	ColorBlue  Color = 2
)

//fory:generate id=314
type EnumPtrs struct {
	Zero *Color
	Two  *Color
	None *Color
}

//fory:generate id=315
type NullableSets struct {
	Empty serializer.Set[string] `fory:"nullable"`
	One   serializer.Set[int32]  `fory:"nullable"`
	Nil   serializer.Set[string] `fory:"nullable"`
	Plain serializer.Set[string]
}

//fory:generate id=316
type Leaf316 struct {
	Name string
	N    int32
}

//fory:generate id=317
type AnyListByID struct {
	Items []any
}

//fory:generate name=demo3.Leaf
type LeafNamed struct {
	Name string
	N    int32
}

//fory:generate id=318
type AnyListByName struct {
	Items []any
}

//fory:generate id=319
type Leaf319 struct {
	Name string
	N    int32
}

//fory:generate name=demo3.Tag
type Tag struct {
	Label string
}

//fory:generate id=320
type AnyMaps struct {
	ByID   map[string]any
	ByName map[string]any
}

//fory:generate id=321
type Leaf321 struct {
	Name string
	N    int32
}

//fory:generate id=322
type SharedAny struct {
	Field *Leaf321
	List  []any
	Map   map[string]any
}

//fory:generate id=323
type Leaf323 struct {
	Name string
	N    int32
}

//fory:generate id=324
type SharedAnyList struct {
	List []any
	Map  map[string]any
}

// Mixed is not a golden case: TestRandomTrackedCollections fills it with
// random collections inside lists and maps, some of them shared.
//
//fory:generate id=330
type Mixed struct {
	Lists    [][]int32
	Strs     [][]string
	Deep     [][][]int64
	Maps     []map[string][]int32
	ByKey    map[string][]string
	Nested   map[int32]map[string]int32
	Sets     []serializer.Set[int32]
	SetMap   map[string]serializer.Set[string]
	Bins     [][]byte
	Leaves   map[string]*Leaf311
	LeafList []*Leaf311
	Floats   [][]float64
}

// Package agree declares the types of the cases where forygen once
// disagreed with official Fory (issue 12); agree_test.go holds the bytes
// official Fory writes for them.
package agree

//go:generate go run github.com/forygen/forygen/cmd/forygen

// OptInt has a pointer to a primitive tagged nullable.
//
//fory:generate id=300
type OptInt struct {
	OptI *int32 `fory:"id=1,nullable"`
}

// NilValues has maps whose values are slices and maps, which can be nil.
//
//fory:generate id=301
type NilValues struct {
	A map[int32][]int32           `fory:"id=1"`
	B map[string][]string         `fory:"id=2"`
	C map[string]map[int32]string `fory:"id=3"`
}

// Leaf is a struct map value.
//
//fory:generate id=310
type Leaf struct {
	V int32 `fory:"id=1"`
}

// MapKinds has a map of primitives, of struct values and of pointers to
// structs, for every chunk header a writer may choose.
//
//fory:generate id=311
type MapKinds struct {
	S map[string]int32 `fory:"id=1"`
	L map[string]Leaf  `fory:"id=2"`
	P map[string]*Leaf `fory:"id=3"`
}

// Ints has int and uint fields declared 32-bit by their encoding tags, and
// strings to check on write.
//
//fory:generate id=312
type Ints struct {
	A    int               `fory:"id=1,encoding=varint"`
	B    uint              `fory:"id=2,encoding=fixed"`
	C    int               `fory:"id=3"`
	Name string            `fory:"id=4"`
	Tags []string          `fory:"id=5"`
	Attr map[string]string `fory:"id=6"`
	P    *int              `fory:"id=7,encoding=fixed"`
}

// Pt is registered by name, for meta-string sharing in same-schema mode.
//
//fory:generate name=demo.Pt
type Pt struct {
	X int32 `fory:"id=1"`
}

// PtLists holds the same named struct as []Pt and as []*Pt.
//
//fory:generate id=313
type PtLists struct {
	A []Pt  `fory:"id=1"`
	B []*Pt `fory:"id=2"`
	C []Pt  `fory:"id=3"`
}

// Narrow16 and Narrow32 are enums whose Go types hold fewer ordinals than
// the wire's varu32.
//
//fory:enum id=320
type Narrow16 uint16

//fory:enum id=321
type Narrow32 int32

// Enums holds the narrow enums.
//
//fory:generate id=314
type Enums struct {
	A Narrow16 `fory:"id=1"`
	B Narrow32 `fory:"id=2"`
}

// EnumsEvolved is Enums under another registration, read by field matching
// from v2.EnumsEvolved, which has a field more.
//
//fory:generate id=315
type EnumsEvolved struct {
	A Narrow16 `fory:"id=1"`
	B Narrow32 `fory:"id=2"`
}

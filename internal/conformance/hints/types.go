// Package hints declares group 2 of internal/testdata/xlang-fixtures-3
// (nested type hints and the tag spellings official Fory Go normalises) as
// official Fory Go declared them; the directives reproduce the cases'
// registrations. PtrSet registers its Leaf under another id and lives in
// package ptrset.
package hints

//go:generate go run github.com/forygen/forygen/cmd/forygen

import "github.com/forygen/forygen/serializer"

// ListHints is case hint_list_elements.
//
//fory:generate id=330
type ListHints struct {
	Fixed    []int32   `fory:"type=list(element=int32(encoding=fixed))"`
	NotNull  []int32   `fory:"type=list(element=int32(nullable=false,encoding=fixed))"`
	Nullable []*int32  `fory:"type=list(element=int32(nullable=true,encoding=fixed))"`
	Nested   [][]int32 `fory:"type=list(element=list(element=int32(nullable=false,encoding=fixed)))"`
	Arrays   [][]int32 `fory:"type=list(element=array(element=int32))"`
}

// MapValueHints is case hint_map_values.
//
//fory:generate id=331
type MapValueHints struct {
	I32    map[string]int32   `fory:"type=map(value=int32(encoding=fixed))"`
	I64    map[string]int64   `fory:"type=map(value=int64(encoding=fixed))"`
	Lists  map[string][]int32 `fory:"type=map(value=list(element=int32(encoding=fixed)))"`
	Arrays map[string][]int32 `fory:"type=map(value=array(element=int32))"`
}

// MapKeyHints is case hint_map_keys.
//
//fory:generate id=332
type MapKeyHints struct {
	Tagged  map[uint32][]uint64 `fory:"type=map(key=uint32(encoding=fixed),value=list(element=uint64(encoding=tagged)))"`
	NotNull map[string]int32    `fory:"type=map(key=_(nullable=false))"`
}

// NotNullPtrs is case hint_pointer_not_nullable.
//
//fory:generate id=334
type NotNullPtrs struct {
	Ref   *Leaf `fory:"nullable=false,ref"`
	Plain *Leaf `fory:"id=1,nullable=false"`
}

// Leaf is NotNullPtrs' element.
//
//fory:generate id=333
type Leaf struct {
	Name string
	N    int32
}

// GoArrays is case hint_fixed_size_array.
//
//fory:generate id=337
type GoArrays struct {
	Tagged   [3]int32 `fory:"type=array(element=int32)"`
	Untagged [3]int32
}

// EnumHints is case hint_elements_not_nullable.
//
//fory:generate id=339
type EnumHints struct {
	List []Color          `fory:"ref=true,type=list(element=_(nullable=false))"`
	Map  map[string]Color `fory:"type=map(value=_(nullable=false))"`
}

// Color is EnumHints' enum.
//
//fory:enum id=338
type Color int32

const (
	ColorRed   Color = 0
	ColorGreen Color = 1
	ColorBlue  Color = 2
)

// ArrayKeysPlain is case array_map_key_untagged.
//
//fory:generate id=342
type ArrayKeysPlain struct {
	ByPair map[[2]int32]string
}

// Spellings is case hint_spellings.
//
//fory:generate id=341
type Spellings struct {
	Upper    int64                      `fory:"encoding=FIXED"`
	Yes      *string                    `fory:"nullable=yes"`
	YesNil   *string                    `fory:"nullable=yes"`
	Opt64    serializer.Optional[int64] `fory:"nullable,encoding=fixed"`
	Opt32    serializer.Optional[int32] `fory:"nullable,encoding=fixed"`
	OptUnset serializer.Optional[int64] `fory:"nullable,encoding=fixed"`
}

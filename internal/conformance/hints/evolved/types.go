// Package evolved holds later versions of package hints' types, each with
// one more field (Extra), so that a message of either version is read by
// the other's evolved reader (compatible mode, field by field) through
// every wire shape of the nested hints. Where a hint only changes a child's
// TypeDef bit (nullable=false), the evolved version drops it, as a peer
// that declares the child nullable (the default) does. The package does not
// import package hints, whose registrations it repeats; Leaf, SetLeaf and
// Color are copies of hints.Leaf, ptrset.Leaf and Color.
package evolved

//go:generate go run github.com/forygen/forygen/cmd/forygen

import "github.com/forygen/forygen/serializer"

//fory:generate id=330
type ListHints struct {
	Fixed    []int32   `fory:"type=list(element=int32(encoding=fixed))"`
	NotNull  []int32   `fory:"type=list(element=int32(encoding=fixed))"`
	Nullable []*int32  `fory:"type=list(element=int32(nullable=true,encoding=fixed))"`
	Nested   [][]int32 `fory:"type=list(element=list(element=int32(encoding=fixed)))"`
	Arrays   [][]int32 `fory:"type=list(element=array(element=int32))"`
	Extra    string
}

//fory:generate id=331
type MapValueHints struct {
	I32    map[string]int32   `fory:"type=map(value=int32(encoding=fixed))"`
	I64    map[string]int64   `fory:"type=map(value=int64(encoding=fixed))"`
	Lists  map[string][]int32 `fory:"type=map(value=list(element=int32(encoding=fixed)))"`
	Arrays map[string][]int32 `fory:"type=map(value=array(element=int32))"`
	Extra  string
}

//fory:generate id=332
type MapKeyHints struct {
	Tagged  map[uint32][]uint64 `fory:"type=map(key=uint32(encoding=fixed),value=list(element=uint64(encoding=tagged)))"`
	NotNull map[string]int32
	Extra   string
}

//fory:generate id=334
type NotNullPtrs struct {
	Ref   *Leaf `fory:"nullable=false,ref"`
	Plain *Leaf `fory:"id=1,nullable=false"`
	Extra string
}

//fory:generate id=336
type PtrSet struct {
	Leaves serializer.Set[*SetLeaf] `fory:"type=set(element=_(ref=false))"`
	Extra  string
}

//fory:generate id=337
type GoArrays struct {
	Tagged   [3]int32 `fory:"type=array(element=int32)"`
	Untagged [3]int32
	Extra    string
}

//fory:generate id=339
type EnumHints struct {
	List  []Color `fory:"ref=true,type=list(element=_(nullable=false))"`
	Map   map[string]Color
	Extra string
}

//fory:generate id=342
type ArrayKeysPlain struct {
	ByPair map[[2]int32]string
	Extra  string
}

//fory:generate id=341
type Spellings struct {
	Upper    int64                      `fory:"encoding=FIXED"`
	Yes      *string                    `fory:"nullable=yes"`
	YesNil   *string                    `fory:"nullable=yes"`
	Opt64    serializer.Optional[int64] `fory:"nullable,encoding=fixed"`
	Opt32    serializer.Optional[int32] `fory:"nullable,encoding=fixed"`
	OptUnset serializer.Optional[int64] `fory:"nullable,encoding=fixed"`
	Extra    string
}

//fory:generate id=333
type Leaf struct {
	Name string
	N    int32
}

//fory:generate id=335
type SetLeaf struct {
	Name string
	N    int32
}

//fory:enum id=338
type Color int32

// Package badhints holds type hints official Fory Go's grammar parses but
// forygen refuses (gen/hints_test.go): each is a generation error naming
// the field, never a hint accepted and ignored.
package badhints

import "github.com/forygen/forygen/serializer"

//fory:generate id=1
type H struct {
	ArrayKey     map[[2]int32]string       `fory:"type=map(key=array(element=int32))"`
	NullValue    []int32                   `fory:"type=list(element=int32(nullable=true))"`
	NotNullPtr   []*int32                  `fory:"type=list(element=_(nullable=false))"`
	OtherScalar  []int32                   `fory:"type=list(element=int64(encoding=fixed))"`
	Tagged32     []int32                   `fory:"type=list(element=int32(encoding=tagged))"`
	ArrayArgs    []int32                   `fory:"type=array(element=int32(encoding=fixed))"`
	ArrayOther   []int32                   `fory:"type=array(element=int64)"`
	ArrayString  []string                  `fory:"type=array(element=string)"`
	ListKey      []int32                   `fory:"type=list(key=int32)"`
	MapElement   map[string]int32          `fory:"type=map(element=int32)"`
	SetOnSlice   []int32                   `fory:"type=set(element=int32)"`
	TooDeep      []int32                   `fory:"type=list(element=list(element=int32))"`
	OuterNull    []int32                   `fory:"type=list(nullable=true)"`
	NotNullInt   *int32                    `fory:"nullable=false"`
	ContainerEnc map[string][]int32        `fory:"type=map(value=list(encoding=fixed))"`
	PlaceKey     []int32                   `fory:"type=_(key=int32)"`
	ScalarOnMap  map[string]int32          `fory:"type=int32"`
	SetElemEnc   serializer.Set[string]    `fory:"type=set(element=string(encoding=fixed))"`
	ArrayNoElem  []int32                   `fory:"type=array"`
	MapValueOpt  map[string]*int32         `fory:"type=map(value=_(nullable=false))"`
	ScalarArgs   []int32                   `fory:"type=list(element=int32(element=int32))"`
	UnknownName  []int32                   `fory:"type=list(element=vector)"`
	IntElemEnc   []int                     `fory:"type=list(element=int64(encoding=fixed))"`
	OptUintEnc   serializer.Optional[uint] `fory:"encoding=varint"`
}

//fory:generate id=2
type Leaf struct {
	N int32
}

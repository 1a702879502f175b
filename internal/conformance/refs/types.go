// Package refs holds the types of the reference-tracking cases of
// xlang-fixtures-2 (sections 1 and 2): shared pointers in fields and lists,
// cycles, parent back-pointers, the kinds official Go tracks and those it
// does not, and the per-field ref tags. The benchmark cases use package
// benchid's types.
//
// The declarations are copied from the cases' go_types (fory.Set becomes
// serializer.Set); the directives reproduce the cases' registrations.
package refs

import "github.com/forygen/forygen/serializer"

//go:generate go run github.com/forygen/forygen/cmd/forygen

//fory:generate id=4
type Image struct {
	URI    string `fory:"id=1"`
	Title  string `fory:"id=2"`
	Width  int32  `fory:"id=3"`
	Height int32  `fory:"id=4"`
	Size   Size   `fory:"id=5"`
}

//fory:enum id=7
type Size int32

const (
	SizeSmall Size = 0
	SizeLarge Size = 1
)

//fory:generate id=200
type ImagePair struct {
	Cover *Image `fory:"id=1"`
	Thumb *Image `fory:"id=2"`
}

//fory:generate id=201
type ImagePtrList struct {
	Images []*Image `fory:"id=1"`
}

//fory:generate id=202
type Node struct {
	Value int32
	Next  *Node
}

//fory:generate id=203
type TreeNode struct {
	Name     string
	Parent   *TreeNode
	Children []*TreeNode
}

//fory:generate id=205
type SharedUntracked struct {
	Name1  string
	Name2  string
	Ints1  []int32
	Ints2  []int32
	Strs1  []string
	Strs2  []string
	Map1   map[string]int32
	Map2   map[string]int32
	Count1 *int32
	Count2 *int32
	Label1 *string
	Label2 *string
}

//fory:generate id=207
type RefElem struct {
	ID   int32
	Name string
}

//fory:generate id=208
type RefContainers struct {
	List []*RefElem
	Set  serializer.Set[*RefElem]
	Map  map[string]*RefElem
	One  *RefElem
}

//fory:generate id=209
type RefTagged struct {
	Tagged1 *RefElem `fory:"ref"`
	Tagged2 *RefElem `fory:"ref"`
	Plain   *RefElem
	List    []*RefElem `fory:"type=list(element=_(ref=true))"`
}

//fory:generate id=210
type RefDisabled struct {
	Off1    *Image `fory:"ref=false"`
	Off2    *Image `fory:"ref=false"`
	On1     *Image
	On2     *Image
	OffList []*Image `fory:"type=list(element=_(ref=false))"`
	OnList  []*Image
}

// SharedTrackedKinds is ref_tracked_kinds without its two any fields
// (forygen has no any fields yet): the same dense array, bytes, list
// tagged ref and map tagged ref in two fields each.
//
//fory:generate id=211
type SharedTrackedKinds struct {
	Arr1  []int32          `fory:"type=array(element=int32)"`
	Arr2  []int32          `fory:"type=array(element=int32)"`
	Bin1  []byte           `fory:"type=bytes"`
	Bin2  []byte           `fory:"type=bytes"`
	List1 []int32          `fory:"ref"`
	List2 []int32          `fory:"ref"`
	Map1  map[string]int32 `fory:"ref"`
	Map2  map[string]int32 `fory:"ref"`
}

// SharedTrackedList holds SharedTrackedKinds values whose tracked fields
// may be one object across elements.
//
//fory:generate id=231
type SharedTrackedList struct {
	Items []SharedTrackedKinds
}

//fory:generate id=204
type NilPointers struct {
	Image  *Image
	Node   *Node
	Tree   *TreeNode
	Count  *int32
	Label  *string
	Images []*Image
	Extra  any
}

//fory:generate id=206
type SharedTracked struct {
	Arr1  []int32          `fory:"type=array(element=int32)"`
	Arr2  []int32          `fory:"type=array(element=int32)"`
	Bin1  []byte           `fory:"type=bytes"`
	Bin2  []byte           `fory:"type=bytes"`
	List1 []int32          `fory:"ref"`
	List2 []int32          `fory:"ref"`
	Map1  map[string]int32 `fory:"ref"`
	Map2  map[string]int32 `fory:"ref"`
	Any1  any
	Any2  any
}

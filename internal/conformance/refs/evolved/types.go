// Package evolved holds later versions of package refs' types, for reading
// tracked messages with another schema (compatible mode): ImagePair gained
// a field, Node lost none but gained a label.
package evolved

//go:generate go run github.com/forygen/forygen/cmd/forygen

//fory:generate id=4
type Image struct {
	URI    string `fory:"id=1"`
	Title  string `fory:"id=2"`
	Width  int32  `fory:"id=3"`
	Height int32  `fory:"id=4"`
	Size   Size   `fory:"id=5"`
	Alt    string `fory:"id=6"`
}

//fory:enum id=7
type Size int32

//fory:generate id=200
type ImagePair struct {
	Cover *Image `fory:"id=1"`
	Thumb *Image `fory:"id=2"`
	Note  string `fory:"id=3"`
}

//fory:generate id=202
type Node struct {
	Value int32
	Next  *Node
	Label string
}

// Package streams declares the types of the official stream files in
// serializer/testdata/streams: official Fory Go (apache/fory c8bf233)
// registered them with RegisterStruct(User{}, 100) and
// RegisterStruct(Item{}, 101) and wrote one Serialize per message, back to
// back.
package streams

//go:generate go run github.com/forygen/forygen/cmd/forygen

//fory:generate id=100
type User struct {
	ID   int64    `fory:"id=0"`
	Name string   `fory:"id=1"`
	Tags []string `fory:"id=2"`
}

//fory:generate id=101
type Item struct {
	SKU string `fory:"id=0"`
	Qty int32  `fory:"id=1"`
}

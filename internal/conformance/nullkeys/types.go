// Package nullkeys holds a map with nullable (pointer) keys, official Fory
// Go's map[*string]*string: a nil key is a null-key chunk (docs/format.md
// §8.4). testdata/official.json keeps the bytes official Go (apache/fory
// c8bf233) wrote for it locally.
package nullkeys

//go:generate go run github.com/forygen/forygen/cmd/forygen

//fory:generate id=501
type PK struct {
	M map[*string]*string
	N int32
}

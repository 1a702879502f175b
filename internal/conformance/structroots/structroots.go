// Package structroots holds official Go's User for messages whose root is
// a list of structs (serializer.MarshalList, MarshalPtrList).
package structroots

//go:generate go run github.com/forygen/forygen/cmd/forygen

//fory:generate id=501
type User struct {
	ID   int64
	Name string
}

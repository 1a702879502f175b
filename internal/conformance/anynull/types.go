// Package anynull holds the nullable-any cases of xlang-fixtures-3 (group
// 3): any fields tagged nullable, alone, next to a struct and a string, and
// mixed with an untagged any, with tracking off and on.
//
// The declarations are the cases' go_types; the directives reproduce the
// cases' registrations.
package anynull

//go:generate go run github.com/forygen/forygen/cmd/forygen

//fory:generate id=350
type AnyAlone struct {
	Value any `fory:"nullable"`
}

//fory:generate id=351
type Leaf struct {
	Name string
	N    int32
}

//fory:generate id=352
type AnyWithStruct struct {
	ID    int32
	Thing any `fory:"nullable"`
	Text  any `fory:"nullable"`
	Name  string
}

//fory:generate id=353
type AnyMixed struct {
	Flag  bool
	A     any `fory:"nullable"`
	B     any `fory:"nullable"`
	C     any `fory:"nullable"`
	D     any `fory:"nullable"`
	Plain any
	List  []string
}

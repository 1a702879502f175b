// Package nonevolving holds the types of structs whose schema evolution a
// peer turned off (official Go's ForyEvolving() false, Java's
// evolving=false): in compatible mode they are written as STRUCT and the
// user id, or NAMED_STRUCT and a shared TypeDef, with a body without the
// schema hash. The bytes in the tests were written by official Fory Go at
// apache/fory c8bf233 with ForyEvolving() returning false on Fixed and
// FixedN.
package nonevolving

//go:generate go run github.com/forygen/forygen/cmd/forygen

//fory:generate id=601
type Fixed struct {
	Name string
	N    int32
}

//fory:generate id=602
type Outer struct {
	F  Fixed
	FP *Fixed
	L  []Fixed
}

//fory:generate name=demo.FixedN
type FixedN struct {
	Name string
	N    int32
}

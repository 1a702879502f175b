// Package bad holds declarations the generator must reject, each with a
// position, the field path and a hint.
package bad

//fory:generate id=1
type Bad struct {
	C chan int
	F func()
	I interface{ M() }
	U uintptr
	N Plain
	P **int32
	E int32 `fory:"encoding=zigzag"`
	X int   `fory:"encoding=fixed"`
	A struct{ X int }
	M map[float64]int32
}

// Plain is a struct without a directive.
type Plain struct{}

//fory:generate
type NoReg struct{}

//fory:generate id=2
type G[T any] struct{ V T }

//fory:enum id=3
type NotInt string

//fory:generate id=4 evolving=maybe
type BadEvolving struct{}

//fory:generate id=5 fast=true
type BadOption struct{}

//fory:enum id=6 evolving=false
type EvolvingEnum int32

//fory:generate id=7 extra=1
type Extra struct{}

//fory:enum id=8 extra=1
type ExtraEnum int32

type Celsius float64

// Useless holds tags that would do nothing (issue 27 item 10).
//
//fory:generate id=9
type Useless struct {
	N   int32   `fory:"nullable"`
	C   Celsius `fory:"nullable=true"`
	B   bool    `fory:"ref"`
	S   string  `fory:"ref"`
	PI  *int64  `fory:"ref=true"`
	OK1 int32   `fory:"nullable=false,ref=false"` // states the default: accepted
	OK2 *int32  `fory:"nullable"`                 // the TypeDef's nullable bit: accepted
	OK3 string  `fory:"nullable"`                 // a flag before the string: accepted
	L   []int32 `fory:"type=lst"`
	U8  uint8   `fory:"encoding=varint"`
}

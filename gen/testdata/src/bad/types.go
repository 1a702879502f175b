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

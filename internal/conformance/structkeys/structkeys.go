// Package structkeys is official Go's maps keyed by a struct and by an
// array (map[Point]string, map[[2]int32]string): a declared key, a struct
// body or a list of the array's elements (docs/format.md §8.4).
package structkeys

//go:generate go run github.com/forygen/forygen/cmd/forygen

//fory:generate id=800
type Point struct {
	X int32
	Y int32
}

//fory:generate id=801
type Grid struct {
	ByPoint map[Point]string
	ByPair  map[[2]int32]string
}

// Package off declares nonevolving's types with evolving=false, as official
// Go's ForyEvolving() false declares them: forygen writes official's bytes.
package off

//go:generate go run github.com/forygen/forygen/cmd/forygen

//fory:generate id=601 evolving=false
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

//fory:generate name=demo.FixedN evolving=false
type FixedN struct {
	Name string
	N    int32
}

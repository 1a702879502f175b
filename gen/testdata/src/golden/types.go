// Package golden holds the generator's golden-test input: one struct with a
// field of every kind, to pin the generated code.
package golden

import (
	"time"

	"github.com/forygen/forygen/serializer"
)

//fory:enum id=11
type Level int32

// Celsius is a named type over a primitive: written as its underlying type.
type Celsius float64

//fory:generate id=10
type Point struct {
	X, Y int32
}

//fory:generate name=demo.Sample
type Sample struct {
	ID     int64 `fory:"id=1"`
	Name   string
	Tags   []string
	Scores map[string]int32
	Temp   Celsius
	Level  Level
	Origin Point
	Next   *Point
	Points []Point
	Maybe  []*Point
	ByKey  map[int32]*Point
	Raw    []byte  `fory:"type=bytes"`
	Dense  []int32 `fory:"type=array(element=int32)"`
	When   time.Time
	Every  time.Duration
	Day    serializer.Date
	Flags  [4]bool
	Opt    *int32
	Fixed  uint32              `fory:"encoding=fixed"`
	Big    int64               `fory:"encoding=tagged"`
	Maybes []string            `fory:"nullable"`
	Fixeds []int64             `fory:"type=list(element=int64(encoding=fixed))"`
	Cells  [][]float32         `fory:"type=list(element=array(element=float32))"`
	Grid   [2]int32            `fory:"type=array(element=int32)"`
	Pairs  map[[2]int32]string `fory:"type=map(value=_(nullable=false))"`
	secret string
	Skip   string `fory:"-"`
}

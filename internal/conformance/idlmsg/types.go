// Package idlmsg holds the message of golden set 3, group 4: the Go types
// Fory's IDL compiler (foryc --go_out) emits for a message using every IDL
// field kind, with the registrations foryc's RegisterTypes makes; the
// declarations are the case's go_types (official packages become
// serializer's carrier types). Package withunion has the same message
// with a union field, under other ids.
package idlmsg

import (
	"time"

	"github.com/forygen/forygen/serializer"
)

//go:generate go run github.com/forygen/forygen/cmd/forygen

//fory:generate id=204
type Everything struct {
	B         bool                        `fory:"id=1"`
	I8        int8                        `fory:"id=2"`
	I16       int16                       `fory:"id=3"`
	I32       int32                       `fory:"id=4"`
	Fi32      int32                       `fory:"id=5,encoding=fixed"`
	I64       int64                       `fory:"id=6"`
	Fi64      int64                       `fory:"id=7,encoding=fixed"`
	Ti64      int64                       `fory:"id=8,encoding=tagged"`
	U32       uint32                      `fory:"id=9"`
	U64       uint64                      `fory:"id=10"`
	F32       float32                     `fory:"id=11"`
	F64       float64                     `fory:"id=12"`
	S         string                      `fory:"id=13"`
	Bin       []byte                      `fory:"id=14,type=bytes"`
	Ts        time.Time                   `fory:"id=15"`
	D         serializer.Date             `fory:"id=16"`
	Dur       time.Duration               `fory:"id=17"`
	Dec       serializer.Decimal          `fory:"id=18"`
	H         serializer.Float16          `fory:"id=19"`
	Os        serializer.Optional[string] `fory:"id=20,nullable"`
	Oi        serializer.Optional[int32]  `fory:"id=21,nullable"`
	Leaf      *Leaf                       `fory:"id=22,nullable"`
	Shared    *Leaf                       `fory:"id=23,nullable,ref"`
	Leaves    []Leaf                      `fory:"id=24"`
	Ostrs     []*string                   `fory:"id=25,nullable=false"`
	Rleaves   []*Leaf                     `fory:"id=26,nullable=false,type=list(element=_(nullable=false,ref=true))"`
	Lmap      map[string]Leaf             `fory:"id=27"`
	Omap      map[string]*int32           `fory:"id=28,nullable=false"`
	Arr       []int32                     `fory:"id=29,type=array(element=int32)"`
	Kind      Kind                        `fory:"id=30"`
	Anything  any                         `fory:"id=32,nullable"`
	FixedList []int32                     `fory:"id=33,type=list(element=int32(encoding=fixed))"`
	Nested    map[int64]string            `fory:"id=34"`
}

//fory:enum id=201
type Kind int32

const (
	KindA Kind = 0
	KindB Kind = 1
)

//fory:generate id=202
type Leaf struct {
	Name string `fory:"id=1"`
	N    int32  `fory:"id=2"`
}

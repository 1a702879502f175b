// Package schema holds one annotated type of every kind the Fory IDL can
// describe, every field tagged, for the golden test of forygen schema
// (gen/testdata/schema/schema.fdl).
package schema

import (
	"time"

	"github.com/forygen/forygen/serializer"
)

//fory:enum id=201
type Level int32

const (
	LevelLow  Level = 0
	LevelHigh Level = 1
	LevelMax  Level = 1 // an alias: the IDL keeps the first name
)

//fory:enum name=fixture.Mood
type Mood uint8

const (
	Calm Mood = iota
	Angry
)

//fory:generate id=202
type Leaf struct {
	V int32 `fory:"id=1"`
}

//fory:generate name=fixture.Named
type Named struct {
	S string `fory:"id=1"`
}

// Pick is a union of three cases.
//
//fory:union id=203 1=*Leaf 2=string 3=int64
type Pick struct {
	id uint32
	v  any
}

func (p Pick) ForyUnionGet() (uint32, any)    { return p.id, p.v }
func (p *Pick) ForyUnionSet(id uint32, v any) { p.id, p.v = id, v }

//fory:generate id=200
type Everything struct {
	B      bool                       `fory:"id=0"`
	I8     int8                       `fory:"id=1"`
	I16    int16                      `fory:"id=2"`
	I32    int32                      `fory:"id=3"`
	FI32   int32                      `fory:"id=4,encoding=fixed"`
	I64    int64                      `fory:"id=5"`
	FI64   int64                      `fory:"id=6,encoding=fixed"`
	TI64   int64                      `fory:"id=7,encoding=tagged"`
	U8     uint8                      `fory:"id=8"`
	U16    uint16                     `fory:"id=9"`
	U32    uint32                     `fory:"id=10"`
	FU32   uint32                     `fory:"id=11,encoding=fixed"`
	U64    uint64                     `fory:"id=12"`
	TU64   uint64                     `fory:"id=13,encoding=tagged"`
	I      int                        `fory:"id=14"`
	I32V   int                        `fory:"id=15,encoding=varint"`
	H      serializer.Float16         `fory:"id=16"`
	BH     serializer.BFloat16        `fory:"id=17"`
	F32    float32                    `fory:"id=18"`
	F64    float64                    `fory:"id=19"`
	S      string                     `fory:"id=20"`
	Raw    []byte                     `fory:"id=21,type=bytes"`
	U8s    []byte                     `fory:"id=22"`
	When   time.Time                  `fory:"id=23"`
	Dur    time.Duration              `fory:"id=24"`
	Day    serializer.Date            `fory:"id=25"`
	Dec    serializer.Decimal         `fory:"id=26"`
	Lvl    Level                      `fory:"id=27"`
	Md     Mood                       `fory:"id=28"`
	Leaf   *Leaf                      `fory:"id=29,nullable"`
	Shared *Leaf                      `fory:"id=30,nullable,ref"`
	ByName *Named                     `fory:"id=31,nullable"`
	Strs   []string                   `fory:"id=32"`
	PStrs  []*string                  `fory:"id=33"`
	Fixed  [4]int32                   `fory:"id=34"`
	Leaves []*Leaf                    `fory:"id=35,type=list(element=_(ref=true))"`
	Vals   []Leaf                     `fory:"id=36"`
	DB     []bool                     `fory:"id=37,type=array(element=bool)"`
	DI8    []int8                     `fory:"id=38,type=array(element=int8)"`
	DI16   []int16                    `fory:"id=39,type=array(element=int16)"`
	DI32   []int32                    `fory:"id=40,type=array(element=int32)"`
	DI64   []int64                    `fory:"id=41,type=array(element=int64)"`
	DU8    []uint8                    `fory:"id=42,type=array(element=uint8)"`
	DU16   []uint16                   `fory:"id=43,type=array(element=uint16)"`
	DU32   []uint32                   `fory:"id=44,type=array(element=uint32)"`
	DU64   []uint64                   `fory:"id=45,type=array(element=uint64)"`
	DH     []serializer.Float16       `fory:"id=46,type=array(element=float16)"`
	DBH    []serializer.BFloat16      `fory:"id=47,type=array(element=bfloat16)"`
	DF32   []float32                  `fory:"id=48,type=array(element=float32)"`
	DF64   []float64                  `fory:"id=49,type=array(element=float64)"`
	M      map[string]int32           `fory:"id=50"`
	ML     map[int64]*Leaf            `fory:"id=51,type=map(value=_(ref=false))"`
	ME     map[Level]string           `fory:"id=52"`
	OptI   serializer.Optional[int32] `fory:"id=53"`
	PI64   *int64                     `fory:"id=54,nullable"`
	PS     *string                    `fory:"id=55,nullable"`
	NStrs  []string                   `fory:"id=56,nullable"`
	NMap   map[string]bool            `fory:"id=57,nullable"`
	PWhen  *time.Time                 `fory:"id=58,nullable"`
	Pk     Pick                       `fory:"id=59"`
	NPk    Pick                       `fory:"id=60,nullable"`
	Any    any                        `fory:"id=61,nullable"`
	Anys   []any                      `fory:"id=62"`
	Props  map[string]any             `fory:"id=63"`
	Skip   string                     `fory:"-"`
}

package e2e

//go:generate go run github.com/forygen/forygen/cmd/forygen

import (
	"time"

	"github.com/forygen/forygen/internal/e2e/other"
	"github.com/forygen/forygen/serializer"
)

// Color is an enum registered by id.
//
//fory:enum id=910
type Color int32

// Color values.
const (
	ColorRed Color = iota
	ColorGreen
	ColorBlue
)

// Shade is an enum registered by name over an unsigned base.
//
//fory:enum name=e2e.Shade
type Shade uint16

// Named types over supported types: written as their underlying type.
type (
	Celsius float64
	Label   string
	Count   uint32
	Names   []string
	Scores  map[string]int32
)

// Base is embedded in Scalars: an embedded exported struct is one field
// named after its type, as in official Fory Go.
//
//fory:generate id=911
type Base struct {
	ID      int64
	Created time.Time
}

// Scalars covers every primitive kind, the integer encodings, named
// scalars, enums, the time types, pointers to scalars and an embedded
// struct.
//
//fory:generate id=920
type Scalars struct {
	Base
	B    bool
	I8   int8
	I16  int16
	I32  int32
	I64  int64
	I    int
	U8   uint8
	U16  uint16
	U32  uint32
	U64  uint64
	U    uint
	F32  float32
	F64  float64
	FI32 int32  `fory:"encoding=fixed"`
	FI64 int64  `fory:"encoding=fixed"`
	FU32 uint32 `fory:"encoding=fixed"`
	FU64 uint64 `fory:"encoding=fixed"`
	TI64 int64  `fory:"encoding=tagged"`
	TU64 uint64 `fory:"encoding=tagged"`
	Temp Celsius
	Lbl  Label
	Cnt  Count
	Col  Color
	Shd  Shade
	Stat other.Status
	When time.Time
	Dur  time.Duration
	Day  serializer.Date
	PB   *bool
	PI64 *int64
	PF32 *float32
	PS   *string
	PCol *Color
	Tagd int32 `fory:"id=7"`
}

// Containers covers strings, bytes, fixed-size arrays, lists, dense arrays
// and nullable-tagged containers.
//
//fory:generate name=e2e.Containers
type Containers struct {
	S      string
	Raw    []byte `fory:"type=bytes"`
	Bytes  []byte
	Arr    [3]int16
	StrArr [2]string
	Bools  []bool
	I8s    []int8
	I16s   []int16
	I32s   []int32
	I64s   []int64
	U16s   []uint16
	U32s   []uint32
	U64s   []uint64
	F32s   []float32
	F64s   []float64
	Strs   []string
	Colors []Color
	Nested [][]int32
	Named  Names
	DBools []bool           `fory:"type=array(element=bool)"`
	DI8    []int8           `fory:"type=array(element=int8)"`
	DI16   []int16          `fory:"type=array(element=int16)"`
	DI32   []int32          `fory:"type=array(element=int32)"`
	DI64   []int64          `fory:"type=array(element=int64)"`
	DU16   []uint16         `fory:"type=array(element=uint16)"`
	DU32   []uint32         `fory:"type=array(element=uint32)"`
	DU64   []uint64         `fory:"type=array(element=uint64)"`
	DF32   []float32        `fory:"type=array(element=float32)"`
	DF64   []float64        `fory:"type=array(element=float64)"`
	NStrs  []string         `fory:"nullable"`
	NI64s  []int64          `fory:"nullable"`
	NMap   map[string]int32 `fory:"nullable"`
	PStrs  []*string
	PI32s  []*int32
	Times  []time.Time
}

// Maps covers every key kind and struct, pointer and container values.
//
//fory:generate id=922
type Maps struct {
	ByBool   map[bool]string
	ByI8     map[int8]int8
	ByI16    map[int16]int16
	ByI32    map[int32]string
	ByI64    map[int64]float64
	ByInt    map[int]int
	ByU8     map[uint8]uint8
	ByU16    map[uint16]uint16
	ByU32    map[uint32]uint32
	ByU64    map[uint64]uint64
	ByUint   map[uint]bool
	ByStr    map[string]string
	ByEnum   map[Color]int32
	Structs  map[string]other.Address
	Ptrs     map[int32]*other.Address
	Lists    map[string][]int64
	Inner    map[string]map[int32]string
	PVals    map[string]*int64
	Named    Scores
	ShadeKey map[Shade]Label
}

// Composite nests generated structs: by value and pointer, from this
// package and another, in lists and maps; it also has fields the
// serializer must ignore (fory:"-" and unexported).
//
//fory:generate id=923
type Composite struct {
	Title    string
	Scalars  Scalars
	PScalars *Scalars
	Home     other.Address
	Work     *other.Address
	Addrs    []other.Address
	PAddrs   []*other.Address
	Tags     []other.Tag
	PTag     *other.Tag
	ByName   map[string]*other.Tag
	Ignored  string `fory:"-"`
	//lint:ignore U1000 an unexported field, which the generator must ignore
	internal int
}

// Node is a recursive type (through a pointer) for the depth tests.
//
//fory:generate id=924
type Node struct {
	Value int32
	Next  *Node
}

// Tree recurses through a list of pointers and a map, for the depth tests
// of containers.
//
//fory:generate id=925
type Tree struct {
	Name     string
	Children []*Tree
	Index    map[string]*Tree
}

// Carriers holds the carrier types of serializer: sets, 16-bit floats,
// decimals and optionals, bare and in containers.
//
//fory:generate id=926
type Carriers struct {
	Words   serializer.Set[string]
	Codes   serializer.Set[int32]
	Half    serializer.Float16
	Brain   serializer.BFloat16
	Halves  []serializer.Float16
	Brains  []serializer.BFloat16 `fory:"type=array(element=bfloat16)"`
	PHalf   *serializer.Float16
	Price   serializer.Decimal
	Prices  []serializer.Decimal
	PPrice  *serializer.Decimal
	MaybeN  serializer.Optional[int64]
	MaybeS  serializer.Optional[string]
	Nothing serializer.Optional[float32]
	ByName  map[string]serializer.Set[int32]
}

// Hinted covers nested type hints (element, key and value encodings, dense
// arrays of Go arrays and inside containers, array map keys).
// (nullable=false on a struct pointer is in internal/conformance/hints:
// its zero value, a nil pointer, cannot be written.)
//
//fory:generate id=927
type Hinted struct {
	FixedI64  []int64             `fory:"type=list(element=int64(encoding=fixed))"`
	TaggedI64 []int64             `fory:"type=list(element=int64(encoding=tagged))"`
	FixedU32  []uint32            `fory:"type=list(element=uint32(encoding=fixed))"`
	PFixedU64 []*uint64           `fory:"type=list(element=uint64(encoding=fixed))"`
	ArrList   [2]int32            `fory:"type=list(element=int32(encoding=fixed))"`
	GoF32     [3]float32          `fory:"type=array(element=float32)"`
	GoI8      [2]int8             `fory:"type=array(element=int8)"`
	GoU8      [4]uint8            `fory:"type=array(element=uint8)"`
	Arrays    [][]int64           `fory:"type=list(element=array(element=int64))"`
	ByFixed   map[int64]uint64    `fory:"type=map(key=int64(encoding=fixed),value=uint64(encoding=tagged))"`
	ArrVals   map[int32][]float64 `fory:"type=map(value=array(element=float64))"`
	StrKeys   map[[2]string]int32 `fory:"type=map(key=_(nullable=false))"`
	EnumKeys  map[[2]Color]bool
	Opt       serializer.Optional[uint64] `fory:"encoding=fixed"`
	Fixed     serializer.Set[int32]       `fory:"type=set(element=int32(encoding=fixed))"`
}

// Package v2 is one side of forygen's schema-evolution tests: the types of
// evolution/v1 and evolution/v2 share their registrations (ids and names) but
// not their schemas, like two releases of one service (docs/format.md §11.4).
//
// Every struct has a common set of fields (read by field matching on both
// sides) and a set only this side has (Add*: skipped by the other side's
// reader, zero when this side reads the other side's bytes).
package v2

//go:generate go run github.com/forygen/forygen/cmd/forygen

import (
	"time"

	"github.com/forygen/forygen/serializer"
)

// Color is an enum; v2 knows three values, the wire does not care.
//
//fory:enum id=300
type Color int32

const (
	Red   Color = 0
	Green Color = 1
	Blue  Color = 2
)

// MyInt and MyString are named types over primitives.
type (
	MyInt    int64
	MyString string
)

// Scalars covers every scalar kind, plain, with encodings, and behind pointers.
//
//fory:generate id=310
type Scalars struct {
	B         bool
	I8        int8
	I16       int16
	I32       int32
	I64       int64
	I         int
	U8        uint8
	U16       uint16
	U32       uint32
	U64       uint64
	U         uint
	F32       float32
	F64       float64
	S         string
	E         Color
	T         time.Time
	D         time.Duration
	Dt        serializer.Date
	FixI32    int32  `fory:"encoding=fixed"`
	FixU32    uint32 `fory:"encoding=fixed"`
	FixI64    int64  `fory:"encoding=fixed"`
	FixU64    uint64 `fory:"encoding=fixed"`
	TagI64    int64  `fory:"encoding=tagged"`
	TagU64    uint64 `fory:"encoding=tagged"`
	PB        *bool
	PI8       *int8
	PI32      *int32
	PI64      *int64
	PU16      *uint16
	PU64      *uint64
	PF32      *float32
	PF64      *float64
	PS        *string
	PE        *Color
	PT        *time.Time
	PD        *time.Duration
	PDt       *serializer.Date
	MyI       MyInt
	MyS       MyString
	AddB      bool
	AddI8     int8
	AddI16    int16
	AddI32    int32
	AddI64    int64
	AddI      int
	AddU8     uint8
	AddU16    uint16
	AddU32    uint32
	AddU64    uint64
	AddU      uint
	AddF32    float32
	AddF64    float64
	AddS      string
	AddE      Color
	AddT      time.Time
	AddD      time.Duration
	AddDt     serializer.Date
	AddFixI32 int32  `fory:"encoding=fixed"`
	AddFixU32 uint32 `fory:"encoding=fixed"`
	AddFixI64 int64  `fory:"encoding=fixed"`
	AddFixU64 uint64 `fory:"encoding=fixed"`
	AddTagI64 int64  `fory:"encoding=tagged"`
	AddTagU64 uint64 `fory:"encoding=tagged"`
	AddPB     *bool
	AddPI8    *int8
	AddPI32   *int32
	AddPI64   *int64
	AddPU16   *uint16
	AddPU64   *uint64
	AddPF32   *float32
	AddPF64   *float64
	AddPS     *string
	AddPE     *Color
	AddPT     *time.Time
	AddPD     *time.Duration
	AddPDt    *serializer.Date
	AddMyI    MyInt
	AddMyS    MyString
}

// Containers covers []byte (list and binary), dense arrays, Go arrays, lists,
// maps with several key kinds, and nullable containers.
//
//fory:generate id=311
type Containers struct {
	Raw      []byte
	Bin      []byte    `fory:"type=bytes"`
	ABool    []bool    `fory:"type=array(element=bool)"`
	AI8      []int8    `fory:"type=array(element=int8)"`
	AI16     []int16   `fory:"type=array(element=int16)"`
	AI32     []int32   `fory:"type=array(element=int32)"`
	AI64     []int64   `fory:"type=array(element=int64)"`
	AU8      []uint8   `fory:"type=array(element=uint8)"`
	AU16     []uint16  `fory:"type=array(element=uint16)"`
	AU32     []uint32  `fory:"type=array(element=uint32)"`
	AU64     []uint64  `fory:"type=array(element=uint64)"`
	AF32     []float32 `fory:"type=array(element=float32)"`
	AF64     []float64 `fory:"type=array(element=float64)"`
	Fix      [3]int16
	LB       []bool
	LI8      []int8
	LI32     []int32
	LI64     []int64
	LU16     []uint16
	LU64     []uint64
	LF32     []float32
	LF64     []float64
	LS       []string
	LE       []Color
	LT       []time.Time
	LL       [][]int32
	LM       []map[string]int32
	LPI      []*int32
	MSI      map[string]int32
	MIS      map[int32]string
	MI64F    map[int64]float64
	MBS      map[bool]string
	MES      map[Color]string
	MU8      map[uint8]uint16
	MSL      map[string][]string
	MSM      map[string]map[string]int32
	MSP      map[string]*int32
	NLS      []string         `fory:"nullable"`
	NM       map[string]int32 `fory:"nullable"`
	NBin     []byte           `fory:"nullable,type=bytes"`
	AddRaw   []byte
	AddBin   []byte    `fory:"type=bytes"`
	AddABool []bool    `fory:"type=array(element=bool)"`
	AddAI8   []int8    `fory:"type=array(element=int8)"`
	AddAI16  []int16   `fory:"type=array(element=int16)"`
	AddAI32  []int32   `fory:"type=array(element=int32)"`
	AddAI64  []int64   `fory:"type=array(element=int64)"`
	AddAU8   []uint8   `fory:"type=array(element=uint8)"`
	AddAU16  []uint16  `fory:"type=array(element=uint16)"`
	AddAU32  []uint32  `fory:"type=array(element=uint32)"`
	AddAU64  []uint64  `fory:"type=array(element=uint64)"`
	AddAF32  []float32 `fory:"type=array(element=float32)"`
	AddAF64  []float64 `fory:"type=array(element=float64)"`
	AddFix   [3]int16
	AddLB    []bool
	AddLI8   []int8
	AddLI32  []int32
	AddLI64  []int64
	AddLU16  []uint16
	AddLU64  []uint64
	AddLF32  []float32
	AddLF64  []float64
	AddLS    []string
	AddLE    []Color
	AddLT    []time.Time
	AddLL    [][]int32
	AddLM    []map[string]int32
	AddLPI   []*int32
	AddMSI   map[string]int32
	AddMIS   map[int32]string
	AddMI64F map[int64]float64
	AddMBS   map[bool]string
	AddMES   map[Color]string
	AddMU8   map[uint8]uint16
	AddMSL   map[string][]string
	AddMSM   map[string]map[string]int32
	AddMSP   map[string]*int32
	AddNLS   []string         `fory:"nullable"`
	AddNM    map[string]int32 `fory:"nullable"`
	AddNBin  []byte           `fory:"nullable,type=bytes"`
}

// Nested covers struct fields by value and by pointer, lists of structs and
// of pointers to structs, and a map of struct lists; Inner and Leaf evolved
// too. It is registered by name.
//
//fory:generate name=evo.Nested
type Nested struct {
	In       Inner
	PIn      *Inner
	LIn      []Inner
	LPIn     []*Inner
	MSLIn    map[string][]Inner
	Lf       Leaf
	PLf      *Leaf
	LLf      []Leaf
	AddIn    Inner
	AddPIn   *Inner
	AddLIn   []Inner
	AddLPIn  []*Inner
	AddMSLIn map[string][]Inner
	AddLf    Leaf
	AddPLf   *Leaf
	AddLLf   []Leaf
}

// Inner (v2): Score widened, Old removed, Extra added, Lf by value.
//
//fory:generate id=301
type Inner struct {
	Extra []string
	Lf    Leaf
	Score int64
	Name  string
}

// Leaf (v2) is registered by name.
//
//fory:generate name=evo.Leaf
type Leaf struct {
	W string
	V int32
}

// Changes (v2): see v1.Changes.
//
//fory:generate id=313
type Changes struct {
	NWP     *float32
	NPW     int64
	NM      map[string]int32
	NL      []int32 `fory:"nullable"`
	NPIn    Inner
	NIn     *Inner
	NS      string
	NP      *int32
	WIF     float64
	WSU     int32
	WFix    int64 `fory:"encoding=tagged"`
	WU      uint64
	WF      float64
	W8      int32
	W32     int64
	Total   int64  `fory:"id=2"`
	NewName string `fory:"id=1"`
}

//fory:generate id=314
type ReorderTags struct {
	E *bool   `fory:"id=0"`
	D float64 `fory:"id=4"`
	C []int64 `fory:"id=2"`
	B string  `fory:"id=1"`
	A int32   `fory:"id=3"`
}

//fory:generate id=315
type ReorderNames struct {
	Gamma *int16
	Beta  []string
	Mid   bool
	Alpha int64
	Zed   string
}

// MapHolder (v2) adds Extra, a map with struct values.
//
//fory:generate id=316
type MapHolder struct {
	Extra map[int32]Item
	Same  map[string]Item
	Name  string
}

// Item is the same in v1 and v2.
//
//fory:generate id=317
type Item struct {
	K string
	V int32
}

// Record (v2): Count widened to int64; see v1.Record.
//
//fory:generate id=320
type Record struct {
	ID     int64
	Name   string
	Count  int64
	Ratio  float64
	Active bool
	Tags   []string
	Scores map[string]int32
	Items  []Item
}

// Int32s is a named slice type.
type Int32s []int32

// Seqs (v2): every field's sequence type changed; see v1.Seqs.
//
//fory:generate id=318
type Seqs struct {
	L2A     []int32 `fory:"type=array(element=int32)"`
	A2L     []int64
	Bin2U8  []uint8 `fory:"type=array(element=uint8)"`
	U82Bin  []byte  `fory:"type=bytes"`
	Raw2Bin []byte  `fory:"type=bytes"`
	BoolL2A []bool  `fory:"type=array(element=bool)"`
	F32A2L  []float32
	U64L2A  []uint64 `fory:"type=array(element=uint64)"`
	Int2A   []int64  `fory:"type=array(element=int64)"`
	Arr2Go  [3]int16
	PtrL2A  []int32              `fory:"type=array(element=int32)"`
	NL      []uint16             `fory:"nullable"`
	H2A     []serializer.Float16 `fory:"type=array(element=float16)"`
	BH2L    []serializer.BFloat16
	Named   Int32s `fory:"type=array(element=int32)"`
	PA      *[]float64
}

// SeqsBad (v2): int32 elements became int64.
//
//fory:generate id=319
type SeqsBad struct {
	W []int64 `fory:"type=array(element=int64)"`
}

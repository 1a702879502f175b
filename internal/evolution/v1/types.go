// Package v1 is one side of forygen's schema-evolution tests: the types of
// evolution/v1 and evolution/v2 share their registrations (ids and names) but
// not their schemas, like two releases of one service (docs/format.md §11.4).
//
// Every struct has a common set of fields (read by field matching on both
// sides) and a set only this side has (Rm*: skipped by the other side's
// reader, zero when this side reads the other side's bytes).
package v1

//go:generate go run github.com/forygen/forygen/cmd/forygen

import (
	"time"

	"github.com/forygen/forygen/serializer"
)

// Color is an enum; v1 knows two values, the wire does not care.
//
//fory:enum id=300
type Color int32

const (
	Red   Color = 0
	Green Color = 1
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
	B        bool
	I8       int8
	I16      int16
	I32      int32
	I64      int64
	I        int
	U8       uint8
	U16      uint16
	U32      uint32
	U64      uint64
	U        uint
	F32      float32
	F64      float64
	S        string
	E        Color
	T        time.Time
	D        time.Duration
	Dt       serializer.Date
	FixI32   int32  `fory:"encoding=fixed"`
	FixU32   uint32 `fory:"encoding=fixed"`
	FixI64   int64  `fory:"encoding=fixed"`
	FixU64   uint64 `fory:"encoding=fixed"`
	TagI64   int64  `fory:"encoding=tagged"`
	TagU64   uint64 `fory:"encoding=tagged"`
	PB       *bool
	PI8      *int8
	PI32     *int32
	PI64     *int64
	PU16     *uint16
	PU64     *uint64
	PF32     *float32
	PF64     *float64
	PS       *string
	PE       *Color
	PT       *time.Time
	PD       *time.Duration
	PDt      *serializer.Date
	MyI      MyInt
	MyS      MyString
	RmB      bool
	RmI8     int8
	RmI16    int16
	RmI32    int32
	RmI64    int64
	RmI      int
	RmU8     uint8
	RmU16    uint16
	RmU32    uint32
	RmU64    uint64
	RmU      uint
	RmF32    float32
	RmF64    float64
	RmS      string
	RmE      Color
	RmT      time.Time
	RmD      time.Duration
	RmDt     serializer.Date
	RmFixI32 int32  `fory:"encoding=fixed"`
	RmFixU32 uint32 `fory:"encoding=fixed"`
	RmFixI64 int64  `fory:"encoding=fixed"`
	RmFixU64 uint64 `fory:"encoding=fixed"`
	RmTagI64 int64  `fory:"encoding=tagged"`
	RmTagU64 uint64 `fory:"encoding=tagged"`
	RmPB     *bool
	RmPI8    *int8
	RmPI32   *int32
	RmPI64   *int64
	RmPU16   *uint16
	RmPU64   *uint64
	RmPF32   *float32
	RmPF64   *float64
	RmPS     *string
	RmPE     *Color
	RmPT     *time.Time
	RmPD     *time.Duration
	RmPDt    *serializer.Date
	RmMyI    MyInt
	RmMyS    MyString
}

// Containers covers []byte (list and binary), dense arrays, Go arrays, lists,
// maps with several key kinds, and nullable containers.
//
//fory:generate id=311
type Containers struct {
	Raw     []byte
	Bin     []byte    `fory:"type=bytes"`
	ABool   []bool    `fory:"type=array(element=bool)"`
	AI8     []int8    `fory:"type=array(element=int8)"`
	AI16    []int16   `fory:"type=array(element=int16)"`
	AI32    []int32   `fory:"type=array(element=int32)"`
	AI64    []int64   `fory:"type=array(element=int64)"`
	AU8     []uint8   `fory:"type=array(element=uint8)"`
	AU16    []uint16  `fory:"type=array(element=uint16)"`
	AU32    []uint32  `fory:"type=array(element=uint32)"`
	AU64    []uint64  `fory:"type=array(element=uint64)"`
	AF32    []float32 `fory:"type=array(element=float32)"`
	AF64    []float64 `fory:"type=array(element=float64)"`
	Fix     [3]int16
	LB      []bool
	LI8     []int8
	LI32    []int32
	LI64    []int64
	LU16    []uint16
	LU64    []uint64
	LF32    []float32
	LF64    []float64
	LS      []string
	LE      []Color
	LT      []time.Time
	LL      [][]int32
	LM      []map[string]int32
	LPI     []*int32
	MSI     map[string]int32
	MIS     map[int32]string
	MI64F   map[int64]float64
	MBS     map[bool]string
	MES     map[Color]string
	MU8     map[uint8]uint16
	MSL     map[string][]string
	MSM     map[string]map[string]int32
	MSP     map[string]*int32
	NLS     []string         `fory:"nullable"`
	NM      map[string]int32 `fory:"nullable"`
	NBin    []byte           `fory:"nullable,type=bytes"`
	RmRaw   []byte
	RmBin   []byte    `fory:"type=bytes"`
	RmABool []bool    `fory:"type=array(element=bool)"`
	RmAI8   []int8    `fory:"type=array(element=int8)"`
	RmAI16  []int16   `fory:"type=array(element=int16)"`
	RmAI32  []int32   `fory:"type=array(element=int32)"`
	RmAI64  []int64   `fory:"type=array(element=int64)"`
	RmAU8   []uint8   `fory:"type=array(element=uint8)"`
	RmAU16  []uint16  `fory:"type=array(element=uint16)"`
	RmAU32  []uint32  `fory:"type=array(element=uint32)"`
	RmAU64  []uint64  `fory:"type=array(element=uint64)"`
	RmAF32  []float32 `fory:"type=array(element=float32)"`
	RmAF64  []float64 `fory:"type=array(element=float64)"`
	RmFix   [3]int16
	RmLB    []bool
	RmLI8   []int8
	RmLI32  []int32
	RmLI64  []int64
	RmLU16  []uint16
	RmLU64  []uint64
	RmLF32  []float32
	RmLF64  []float64
	RmLS    []string
	RmLE    []Color
	RmLT    []time.Time
	RmLL    [][]int32
	RmLM    []map[string]int32
	RmLPI   []*int32
	RmMSI   map[string]int32
	RmMIS   map[int32]string
	RmMI64F map[int64]float64
	RmMBS   map[bool]string
	RmMES   map[Color]string
	RmMU8   map[uint8]uint16
	RmMSL   map[string][]string
	RmMSM   map[string]map[string]int32
	RmMSP   map[string]*int32
	RmNLS   []string         `fory:"nullable"`
	RmNM    map[string]int32 `fory:"nullable"`
	RmNBin  []byte           `fory:"nullable,type=bytes"`
}

// Nested covers struct fields by value and by pointer, lists of structs and
// of pointers to structs, and a map of struct lists; Inner and Leaf evolved
// too. It is registered by name.
//
//fory:generate name=evo.Nested
type Nested struct {
	In      Inner
	PIn     *Inner
	LIn     []Inner
	LPIn    []*Inner
	MSLIn   map[string][]Inner
	Lf      Leaf
	PLf     *Leaf
	LLf     []Leaf
	RmIn    Inner
	RmPIn   *Inner
	RmLIn   []Inner
	RmLPIn  []*Inner
	RmMSLIn map[string][]Inner
	RmLf    Leaf
	RmPLf   *Leaf
	RmLLf   []Leaf
}

// Inner (v1): Score is widened and Old removed in v2; Lf becomes a value.
//
//fory:generate id=301
type Inner struct {
	Name  string
	Score int32
	Old   bool
	Lf    *Leaf
}

// Leaf (v1) is registered by name; v2 drops Gone and adds W.
//
//fory:generate name=evo.Leaf
type Leaf struct {
	V    int32
	Gone string
}

// Changes holds fields that change between v1 and v2: widened, renamed
// behind a tag id, and with another nullability.
//
//fory:generate id=313
type Changes struct {
	OldName string `fory:"id=1"`
	Count   int32  `fory:"id=2"`
	W32     int32
	W8      int8
	WF      float32
	WU      uint16
	WFix    int32 `fory:"encoding=fixed"`
	WSU     uint16
	WIF     int32
	NP      int32
	NS      *string
	NIn     Inner
	NPIn    *Inner
	NL      []int32
	NM      map[string]int32 `fory:"nullable"`
	NPW     *int16
	NWP     int8
}

// ReorderTags and ReorderNames declare the same fields as v2 in another
// order: the Fory field order (docs/format.md §9.3) does not depend on it.
//
//fory:generate id=314
type ReorderTags struct {
	A int32   `fory:"id=3"`
	B string  `fory:"id=1"`
	C []int64 `fory:"id=2"`
	D float64 `fory:"id=4"`
	E *bool   `fory:"id=0"`
}

//fory:generate id=315
type ReorderNames struct {
	Zed   string
	Alpha int64
	Mid   bool
	Beta  []string
	Gamma *int16
}

// MapHolder has a map with struct values; v2 adds another one, which v1
// cannot skip (docs/format.md §14.11).
//
//fory:generate id=316
type MapHolder struct {
	Name string
	Same map[string]Item
}

// Item is the same in v1 and v2.
//
//fory:generate id=317
type Item struct {
	K string
	V int32
}

// Record is the benchmark pair: v2 widens Count to int64, so the same
// logical value is read by field matching from v1 bytes and by the
// generated fast path from v2 bytes.
//
//fory:generate id=320
type Record struct {
	ID     int64
	Name   string
	Count  int32
	Ratio  float64
	Active bool
	Tags   []string
	Scores map[string]int32
	Items  []Item
}

// Int32s is a named slice type.
type Int32s []int32

// Seqs holds sequences of scalars whose wire type changes between list,
// dense array and BINARY in v2 (docs/format.md §11.4 point 3).
//
//fory:generate id=318
type Seqs struct {
	L2A     []int32
	A2L     []int64 `fory:"type=array(element=int64)"`
	Bin2U8  []byte  `fory:"type=bytes"`
	U82Bin  []uint8 `fory:"type=array(element=uint8)"`
	Raw2Bin []byte
	BoolL2A []bool
	F32A2L  []float32 `fory:"type=array(element=float32)"`
	U64L2A  []uint64
	Int2A   []int
	Arr2Go  []int16 `fory:"type=array(element=int16)"`
	PtrL2A  []*int32
	NL      []uint16 `fory:"nullable,type=array(element=uint16)"`
	// 16-bit floats, list ↔ dense array (fory-java sends lists where Go
	// declares arrays).
	H2A   []serializer.Float16
	BH2L  []serializer.BFloat16 `fory:"type=array(element=bfloat16)"`
	Named Int32s
	PA    *[]float64 `fory:"type=array(element=float64)"`
}

// SeqsBad changes the element domain of a sequence, which no reader
// converts.
//
//fory:generate id=319
type SeqsBad struct {
	W []int32
}

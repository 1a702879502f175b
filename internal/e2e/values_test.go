package e2e_test

import (
	"math"
	"math/big"
	"time"

	"github.com/forygen/forygen/internal/e2e"
	"github.com/forygen/forygen/internal/e2e/other"
	"github.com/forygen/forygen/serializer"
)

// The values below set every serialized field to a non-zero value (maps and
// lists with several entries), so a field that is dropped, misread or read
// into the wrong place shows up as a difference. Times are built with
// time.Unix, which is what the decoder returns (docs/format.md §12), so they
// compare equal with reflect.DeepEqual.

func ptrTo[T any](v T) *T { return &v }

func fullBase() e2e.Base {
	return e2e.Base{ID: -42, Created: time.Unix(1_600_000_000, 5)}
}

func fullScalars() *e2e.Scalars {
	return &e2e.Scalars{
		Base: fullBase(),
		B:    true,
		I8:   math.MinInt8,
		I16:  math.MaxInt16,
		I32:  -123456,
		I64:  math.MinInt64,
		I:    math.MinInt32 + 7, // fits a 32-bit int (GOARCH=386)
		U8:   math.MaxUint8,
		U16:  5000,
		U32:  math.MaxUint32,
		U64:  math.MaxUint64,
		U:    1<<31 + 5,
		F32:  -1.5,
		F64:  math.Pi,
		FI32: -7,
		FI64: math.MaxInt64,
		FU32: 0xdeadbeef,
		FU64: 1 << 63,
		TI64: 1 << 40, // the 9-byte tagged form
		TU64: 12,      // the 4-byte tagged form
		Temp: -40.25,
		Lbl:  "label",
		Cnt:  99,
		Col:  e2e.ColorBlue,
		Shd:  e2e.Shade(700),
		Stat: other.StatusRetired,
		When: time.Unix(1_700_000_000, 123_456_789),
		Dur:  -90*time.Minute - 3*time.Nanosecond,
		Day:  serializer.Date{Year: 2024, Month: time.February, Day: 29},
		PB:   ptrTo(false),
		PI64: ptrTo(int64(-1)),
		PF32: ptrTo(float32(2.5)),
		PS:   ptrTo("héllo, 世界"),
		PCol: ptrTo(e2e.ColorGreen),
		Tagd: 77,
	}
}

func fullContainers() *e2e.Containers {
	return &e2e.Containers{
		S:      "a string with ünïcode ✓",
		Raw:    []byte{0, 1, 2, 0xff},
		Bytes:  []byte{9, 8, 7},
		Arr:    [3]int16{-1, 0, 32767},
		StrArr: [2]string{"x", ""},
		Bools:  []bool{true, false, true},
		I8s:    []int8{-128, 0, 127},
		I16s:   []int16{-300, 300},
		I32s:   []int32{math.MinInt32, 1, math.MaxInt32},
		I64s:   []int64{math.MinInt64, -1, math.MaxInt64},
		U16s:   []uint16{0, 65535},
		U32s:   []uint32{1, math.MaxUint32},
		U64s:   []uint64{math.MaxUint64, 3},
		F32s:   []float32{1.25, -0.5},
		F64s:   []float64{math.SmallestNonzeroFloat64, -1e300},
		Strs:   []string{"one", "", "three"},
		Colors: []e2e.Color{e2e.ColorBlue, e2e.ColorRed},
		Nested: [][]int32{{1, 2}, {}, {3}},
		Named:  e2e.Names{"n1", "n2"},
		DBools: []bool{false, true},
		DI8:    []int8{-5, 5},
		DI16:   []int16{-1000, 1000},
		DI32:   []int32{-70000, 70000},
		DI64:   []int64{-1 << 50, 1 << 50},
		DU16:   []uint16{1, 2, 3},
		DU32:   []uint32{4_000_000_000},
		DU64:   []uint64{1 << 60},
		DF32:   []float32{3.5},
		DF64:   []float64{-2.25, 1e-9},
		NStrs:  []string{"nullable", "list"},
		NI64s:  []int64{10, -10},
		NMap:   map[string]int32{"k": 1, "kk": -2},
		PStrs:  []*string{ptrTo("p"), nil, ptrTo("")},
		PI32s:  []*int32{ptrTo(int32(1)), ptrTo(int32(-1))},
		Times:  []time.Time{time.Unix(1, 2), time.Unix(-86400, 0)},
	}
}

func fullAddress(i int) other.Address {
	return other.Address{
		Street: "street " + string(rune('A'+i)),
		Zip:    int32(10000 + i),
		Lines:  []string{"line", string(rune('a' + i))},
		Status: other.StatusActive,
	}
}

func fullMaps() *e2e.Maps {
	a0, a1 := fullAddress(0), fullAddress(1)
	return &e2e.Maps{
		ByBool:   map[bool]string{true: "t", false: "f"},
		ByI8:     map[int8]int8{-1: 1, 100: -100},
		ByI16:    map[int16]int16{-300: 3},
		ByI32:    map[int32]string{1 << 20: "big", -5: "neg"},
		ByI64:    map[int64]float64{math.MinInt64: 0.5},
		ByInt:    map[int]int{-7: 7, 1 << 30: 1},
		ByU8:     map[uint8]uint8{255: 0},
		ByU16:    map[uint16]uint16{65535: 1},
		ByU32:    map[uint32]uint32{math.MaxUint32: 2},
		ByU64:    map[uint64]uint64{math.MaxUint64: 3},
		ByUint:   map[uint]bool{9: true},
		ByStr:    map[string]string{"": "empty key", "ключ": "значение"},
		ByEnum:   map[e2e.Color]int32{e2e.ColorGreen: 1, e2e.ColorBlue: 2},
		Structs:  map[string]other.Address{"home": a0, "work": a1},
		Ptrs:     map[int32]*other.Address{1: &a0, 2: nil, 3: &a1},
		Lists:    map[string][]int64{"a": {1, 2}, "b": {}},
		Inner:    map[string]map[int32]string{"x": {1: "one"}, "y": {}},
		PVals:    map[string]*int64{"set": ptrTo(int64(5)), "nil": nil},
		Named:    e2e.Scores{"alice": 10},
		ShadeKey: map[e2e.Shade]e2e.Label{3: "three"},
	}
}

func fullComposite() *e2e.Composite {
	a0, a1 := fullAddress(2), fullAddress(3)
	return &e2e.Composite{
		Title:    "composite",
		Scalars:  *fullScalars(),
		PScalars: fullScalars(),
		Home:     fullAddress(0),
		Work:     &a0,
		Addrs:    []other.Address{fullAddress(1), fullAddress(4)},
		PAddrs:   []*other.Address{&a1, nil},
		Tags:     []other.Tag{{Key: "k", Value: "v"}, {Key: "", Value: "x"}},
		PTag:     &other.Tag{Key: "p", Value: "q"},
		ByName:   map[string]*other.Tag{"t": {Key: "a", Value: "b"}, "nil": nil},
	}
}

// chain returns a list of n Nodes; n must be at least 1.
func chain(n int) *e2e.Node {
	root := &e2e.Node{Value: 1}
	cur := root
	for i := 2; i <= n; i++ {
		cur.Next = &e2e.Node{Value: int32(i)}
		cur = cur.Next
	}
	return root
}

func fullTree() *e2e.Tree {
	leaf := &e2e.Tree{Name: "leaf", Children: []*e2e.Tree{}, Index: map[string]*e2e.Tree{}}
	mid := &e2e.Tree{Name: "mid", Children: []*e2e.Tree{leaf, nil}, Index: map[string]*e2e.Tree{"l": leaf}}
	return &e2e.Tree{Name: "root", Children: []*e2e.Tree{mid}, Index: map[string]*e2e.Tree{"m": mid, "none": nil}}
}

// root is one e2e root type with a full value.
type root struct {
	name  string
	value func() any // a pointer to a full value
	fresh func() any // a pointer to a new zero value of the same type
}

func roots() []root {
	return []root{
		{"Scalars", func() any { return fullScalars() }, func() any { return new(e2e.Scalars) }},
		{"Containers", func() any { return fullContainers() }, func() any { return new(e2e.Containers) }},
		{"Maps", func() any { return fullMaps() }, func() any { return new(e2e.Maps) }},
		{"Composite", func() any { return fullComposite() }, func() any { return new(e2e.Composite) }},
		{"Node", func() any { return chain(5) }, func() any { return new(e2e.Node) }},
		{"Tree", func() any { return fullTree() }, func() any { return new(e2e.Tree) }},
		{"Address", func() any { a := fullAddress(0); return &a }, func() any { return new(other.Address) }},
		{"Tag", func() any { return &other.Tag{Key: "k", Value: "v"} }, func() any { return new(other.Tag) }},
		{"Base", func() any { b := fullBase(); return &b }, func() any { return new(e2e.Base) }},
		{"Carriers", func() any { return fullCarriers() }, func() any { return new(e2e.Carriers) }},
		{"Hinted", func() any { return fullHinted() }, func() any { return new(e2e.Hinted) }},
	}
}

// modes are the two wire modes.
var modes = []struct {
	name       string
	compatible bool
}{{"consistent", false}, {"compatible", true}}

func fullCarriers() *e2e.Carriers {
	h := serializer.Float16FromFloat32(-2.5)
	huge, _ := new(big.Int).SetString("-123456789012345678901234567890", 10)
	p := serializer.NewDecimal(huge, 12)
	return &e2e.Carriers{
		Words: serializer.NewSet("alpha"), Codes: serializer.NewSet[int32](-7),
		Half: serializer.Float16FromFloat32(1.5), Brain: serializer.BFloat16FromFloat32(-3),
		Halves: []serializer.Float16{0x3c00, 0x7bff}, Brains: []serializer.BFloat16{0x3f80, 0xc040}, PHalf: &h,
		Price:  serializer.NewDecimal(big.NewInt(12345), 2),
		Prices: []serializer.Decimal{serializer.NewDecimal(big.NewInt(-1), 0), serializer.NewDecimal(new(big.Int).Lsh(big.NewInt(1), 70), -3)},
		PPrice: &p, MaybeN: serializer.Some[int64](1 << 40), MaybeS: serializer.Some("é"),
		ByName: map[string]serializer.Set[int32]{"k": serializer.NewSet[int32](1)},
	}
}

// parsableRoots are the roots whose messages the schema-rewriting tests
// (fuzz_evolved_test.go) can take apart: their value encoder and parser do
// not know the carrier types (SET, FLOAT16, DECIMAL, optionals) yet, so
// Carriers is left to the other tests.
func parsableRoots() []root {
	var out []root
	for _, r := range roots() {
		if r.name != "Carriers" {
			out = append(out, r)
		}
	}
	return out
}

func fullHinted() *e2e.Hinted {
	return &e2e.Hinted{
		FixedI64:  []int64{math.MinInt64, -1, 0, math.MaxInt64},
		TaggedI64: []int64{1 << 40, -5, math.MinInt64},
		FixedU32:  []uint32{0, math.MaxUint32},
		PFixedU64: []*uint64{ptrTo(uint64(math.MaxUint64)), nil, ptrTo(uint64(7))},
		ArrList:   [2]int32{math.MinInt32, 9},
		GoF32:     [3]float32{-1.5, 0, 3.25},
		GoI8:      [2]int8{math.MinInt8, math.MaxInt8},
		GoU8:      [4]uint8{0, 1, 254, 255},
		Arrays:    [][]int64{{1, -2}, {}, {math.MaxInt64}},
		ByFixed:   map[int64]uint64{-3: 1 << 60, 4: 2},
		ArrVals:   map[int32][]float64{1: {math.Pi, -0.5}, -2: {}},
		StrKeys:   map[[2]string]int32{{"a", "b"}: 1, {"", "ü"}: -2},
		EnumKeys:  map[[2]e2e.Color]bool{{e2e.ColorRed, e2e.ColorBlue}: true, {e2e.ColorGreen, e2e.ColorGreen}: false},
		Opt:       serializer.Some(uint64(math.MaxUint64)),
		Fixed:     serializer.NewSet[int32](-7, 0, 1<<30),
	}
}

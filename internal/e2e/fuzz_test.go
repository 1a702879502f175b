package e2e_test

import (
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/forygen/forygen/internal/e2e"
	"github.com/forygen/forygen/internal/e2e/hostile"
	"github.com/forygen/forygen/internal/e2e/narrow"
	"github.com/forygen/forygen/internal/e2e/other"
	"github.com/forygen/forygen/serializer"
)

// Fuzz targets (issue 6, item 6). Each decode target feeds arbitrary bytes
// to one root type in both modes; an input is copied into an exactly sized
// slice, so a read past its end cannot hide in spare capacity. There is no
// recover: a panic is a finding. Run them with internal/scripts/fuzz.sh, or one with
//
//	go test -run='^$' -fuzz='^FuzzDecodeScalars$' -fuzztime=10s ./e2e/

var (
	fuzzConsistent = serializer.New(serializer.WithCompatible(false))
	fuzzCompatible = serializer.New()
	fuzzForys      = []*serializer.Fory{fuzzConsistent, fuzzCompatible}
	// fuzzTracking are fuzzForys with WithTrackRef, for the values that
	// only they can write again: a Fory reads a message the way it was
	// written (a tracked root flag, docs/format.md §2.1), so one without
	// tracking may decode a cyclic value, which it refuses to write.
	fuzzTracking = map[*serializer.Fory]*serializer.Fory{
		fuzzConsistent: serializer.New(serializer.WithCompatible(false), serializer.WithTrackRef(true)),
		fuzzCompatible: serializer.New(serializer.WithTrackRef(true)),
	}
	// fuzzBlockForys are fuzzForys with WithBlockAlloc, whose decodes must
	// agree with theirs; small blocks, so that inputs span several.
	fuzzBlockForys = []*serializer.Fory{
		serializer.New(serializer.WithCompatible(false), serializer.WithBlockAlloc(128)),
		serializer.New(serializer.WithBlockAlloc(128)),
	}
)

// addSeeds adds the encodings of r's full, one-entry-map and zero values in
// both modes, and a few hostile inputs, to f's corpus.
func addSeeds(f *testing.F, r root) {
	for _, fy := range fuzzForys {
		for _, v := range []any{r.value(), deterministic(r), r.fresh()} {
			data, err := fy.Serialize(v)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(data)
		}
	}
	f.Add([]byte{})
	f.Add([]byte{0x01, 0xff})
	f.Add([]byte{0x01, 0xff, 0x1c, 0x00})
}

// checkDecoded: an accepted input re-encodes, and the re-encoding decodes to
// the same value (up to nil and empty containers).
func checkDecoded(t *testing.T, fy *serializer.Fory, v any, fresh func() any) {
	out, err := fy.Serialize(v)
	if tr := fuzzTracking[fy]; err != nil && tr != nil &&
		errors.Is(err, serializer.ErrInvalidValue) && strings.Contains(err.Error(), "a cycle") {
		// A cycle read from a tracked message (FuzzDecodeNode's
		// 01 00 1b 9c 07 30 fe 00: a Node whose Next is itself): the
		// refusal is right, and the value must write with tracking.
		fy = tr
		out, err = fy.Serialize(v)
	}
	if err != nil {
		t.Fatalf("decoded value does not re-encode: %v", err)
	}
	again := fresh()
	if err := fy.Deserialize(out, again); err != nil {
		t.Fatalf("re-encoded value does not decode: %v", err)
	}
	// A field the writer's schema lacked decodes as nil and comes back
	// empty (compatible mode, docs/format.md §11.4).
	emptyNotNil(reflect.ValueOf(v))
	if !sameValue(reflect.ValueOf(v), reflect.ValueOf(again)) {
		t.Fatalf("re-encoded value decodes to another value:\n%#v\n%#v", v, again)
	}
}

// fuzzDecode is the body of the decode targets.
func fuzzDecode(f *testing.F, name string) {
	var r root
	for _, x := range roots() {
		if x.name == name {
			r = x
		}
	}
	if r.value == nil {
		f.Fatalf("no root %s", name)
	}
	addSeeds(f, r)
	switch name {
	case "Tree":
		// Nested claims (alloc_test.go), small enough to mutate.
		for _, compatible := range []bool{false, true} {
			f.Add(treeBomb(f, compatible, 4, 64, 64))
			f.Add(indexBomb(f, compatible, 4, 32, 64))
		}
		f.Add(typeDefChain(f, 3, 2))
		f.Add(typeDefFan(f, 3, 1))
	case "Node":
		f.Add(nodeChain(f, false, 25))
		f.Add(nodeChain(f, true, 25))
	}
	typeName := goName(r)
	f.Fuzz(func(t *testing.T, data []byte) {
		in := make([]byte, len(data))
		copy(in, data)
		for i, fy := range fuzzForys {
			v := r.fresh()
			err := fy.Deserialize(in, v)
			// The same input with blocks: the same outcome, the same value.
			vb := r.fresh()
			errb := fuzzBlockForys[i].Deserialize(in, vb)
			if (err == nil) != (errb == nil) || err != nil && err.Error() != errb.Error() {
				t.Fatalf("with blocks the decode gives %v, without %v", errb, err)
			}
			if err != nil {
				hostile.CheckError(t, err, in, typeName)
				continue
			}
			if !sameValue(reflect.ValueOf(v), reflect.ValueOf(vb)) {
				t.Fatalf("with blocks the decode gives\n%#v\nwithout\n%#v", vb, v)
			}
			checkDecoded(t, fy, v, r.fresh)
		}
		if !reflect.DeepEqual(in, data) {
			t.Fatal("Deserialize modified its input")
		}
	})
}

func FuzzDecodeScalars(f *testing.F)    { fuzzDecode(f, "Scalars") }
func FuzzDecodeContainers(f *testing.F) { fuzzDecode(f, "Containers") }
func FuzzDecodeMaps(f *testing.F)       { fuzzDecode(f, "Maps") }
func FuzzDecodeComposite(f *testing.F)  { fuzzDecode(f, "Composite") }
func FuzzDecodeNode(f *testing.F)       { fuzzDecode(f, "Node") }
func FuzzDecodeTree(f *testing.F)       { fuzzDecode(f, "Tree") }
func FuzzDecodeBase(f *testing.F)       { fuzzDecode(f, "Base") }
func FuzzDecodeAddress(f *testing.F)    { fuzzDecode(f, "Address") }
func FuzzDecodeTag(f *testing.F)        { fuzzDecode(f, "Tag") }

// narrowTargets are the schema-evolution readers of FuzzSkip: each reads
// an e2e type's messages with fewer fields and skips the rest.
var narrowTargets = []struct {
	name  string
	fresh func() any
	from  string // the e2e root whose messages seed it
}{
	{"narrow.Scalars", func() any { return new(narrow.Scalars) }, "Scalars"},
	{"narrow.Containers", func() any { return new(narrow.Containers) }, "Containers"},
	{"narrow.Maps", func() any { return new(narrow.Maps) }, "Maps"},
	{"narrow.Composite", func() any { return new(narrow.Composite) }, "Composite"},
	{"narrow.Node", func() any { return new(narrow.Node) }, "Node"},
}

// FuzzSkip decodes compatible-mode messages into the narrow types, whose
// schemas differ from the writers': the field matching and the skip path
// (docs/format.md §11.4) see arbitrary bytes. which picks the narrow type.
func FuzzSkip(f *testing.F) {
	for i, nt := range narrowTargets {
		for _, r := range roots() {
			if r.name != nt.from {
				continue
			}
			for _, v := range []any{r.value(), deterministic(r), r.fresh()} {
				data, err := fuzzCompatible.Serialize(v)
				if err != nil {
					f.Fatal(err)
				}
				f.Add(uint8(i), data)
			}
		}
	}
	f.Add(uint8(4), nodeChain(f, true, 30))
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		nt := narrowTargets[int(which)%len(narrowTargets)]
		in := make([]byte, len(data))
		copy(in, data)
		v := nt.fresh()
		err := fuzzCompatible.Deserialize(in, v)
		if err != nil {
			hostile.CheckError(t, err, in, nt.name)
			return
		}
		if _, err := fuzzCompatible.Serialize(v); err != nil {
			t.Fatalf("decoded value does not re-encode: %v", err)
		}
	})
}

// FuzzRoundTrip builds values from fuzzed scalars, strings and bytes,
// serializes them in both modes and checks that they decode to the same
// value, and that SerializeTo writes exactly the bytes Serialize returns.
func FuzzRoundTrip(f *testing.F) {
	f.Add(int64(0), uint64(0), 0.0, "", []byte(nil), false, uint8(0))
	f.Add(int64(math.MinInt64), uint64(math.MaxUint64), math.Inf(-1), "héllo\x00", []byte{0, 0xff}, true, uint8(200))
	f.Add(int64(1<<40), uint64(1<<35), 1e-300, strings.Repeat("abc", 100), []byte("bytes"), true, uint8(17))
	f.Fuzz(func(t *testing.T, i int64, u uint64, fl float64, s string, b []byte, flag bool, n uint8) {
		s = strings.ToValidUTF8(s, "?")
		values := fuzzValues(i, u, fl, s, b, flag, int(n%16))
		for _, v := range values {
			emptyNotNil(reflect.ValueOf(v))
		}
		for _, fy := range fuzzForys {
			for _, v := range values {
				data, err := fy.Serialize(v)
				if err != nil {
					t.Fatalf("Serialize(%T): %v", v, err)
				}
				// SerializeTo appends to what the buffer holds. (Its length
				// equals Serialize's only for a fixed map order: a map with
				// nil values is chunked by order; TestSerializeToSize checks
				// the lengths.)
				buf, err := fy.SerializeAppend([]byte{0xee}, v)
				if err != nil {
					t.Fatalf("SerializeAppend(%T): %v", v, err)
				}
				for _, enc := range [][]byte{data, buf[1:]} {
					got := reflect.New(reflect.TypeOf(v).Elem()).Interface()
					if err := fy.Deserialize(enc, got); err != nil {
						t.Fatalf("Deserialize(%T): %v", v, err)
					}
					if !sameValue(reflect.ValueOf(v), reflect.ValueOf(got)) {
						t.Fatalf("%T round trip differs:\n%#v\n%#v", v, v, got)
					}
				}
			}
		}
	})
}

// fuzzValues spreads the fuzzed inputs over the e2e types; n sizes the
// lists and maps.
func fuzzValues(i int64, u uint64, fl float64, s string, b []byte, flag bool, n int) []any {
	sc := &e2e.Scalars{
		Base: e2e.Base{ID: i, Created: time.Unix(i%(1<<40), int64(u%1e9))},
		B:    flag, I8: int8(i), I16: int16(i), I32: int32(i), I64: i, I: int(i),
		U8: uint8(u), U16: uint16(u), U32: uint32(u), U64: u, U: uint(u),
		F32: float32(fl), F64: fl, FI32: int32(i >> 3), FI64: i, FU32: uint32(u >> 7), FU64: u,
		TI64: i, TU64: u, Temp: e2e.Celsius(fl), Lbl: e2e.Label(s), Cnt: e2e.Count(u),
		Col: e2e.Color(u % 3), Shd: e2e.Shade(u), Stat: other.Status(i & 0xffff),
		When: time.Unix(i%(1<<40), int64(u%1e9)), Dur: time.Duration(i),
		Day:  serializer.Date{Year: 1970 + int(i%500), Month: time.Month(1 + u%12), Day: 1 + int(u%28)},
		Tagd: int32(u),
	}
	if flag {
		sc.PB, sc.PI64, sc.PS, sc.PCol = &flag, &i, &s, &sc.Col
		sc.PF32 = &sc.F32
	}
	ct := &e2e.Containers{S: s, Raw: b, Arr: [3]int16{int16(i), int16(u), int16(n)}, StrArr: [2]string{s, ""}}
	mp := &e2e.Maps{}
	nd := &e2e.Node{Value: int32(i)}
	cur := nd
	for k := 0; k < n; k++ {
		ct.Bools = append(ct.Bools, flag != (k%2 == 0))
		ct.I64s = append(ct.I64s, i+int64(k))
		ct.U64s = append(ct.U64s, u-uint64(k))
		ct.F64s = append(ct.F64s, fl)
		ct.Strs = append(ct.Strs, s)
		ct.DI32 = append(ct.DI32, int32(i)+int32(k))
		ct.DU64 = append(ct.DU64, u+uint64(k))
		ct.DF32 = append(ct.DF32, sc.F32)
		ct.Nested = append(ct.Nested, ct.DI32)
		ct.PI32s = append(ct.PI32s, nil, &sc.I32)
		if mp.ByI64 == nil {
			mp.ByI64, mp.ByStr, mp.Lists, mp.PVals = map[int64]float64{}, map[string]string{}, map[string][]int64{}, map[string]*int64{}
		}
		mp.ByI64[i+int64(k)] = fl
		mp.ByStr[s+string(rune('a'+k))] = s
		mp.Lists[string(rune('a'+k))] = ct.I64s
		if k%2 == 0 {
			mp.PVals[string(rune('a'+k))] = &i
		} else {
			mp.PVals[string(rune('a'+k))] = nil
		}
		cur.Next = &e2e.Node{Value: int32(u) + int32(k)}
		cur = cur.Next
	}
	if b != nil {
		ct.Bytes = append([]byte{}, b...)
	}
	return []any{sc, ct, mp, nd, &e2e.Composite{Title: s, Scalars: *sc, PScalars: sc, Tags: []other.Tag{{Key: s, Value: s}}}}
}

// emptyNotNil replaces nil slices and maps by empty ones in every field
// that is not tagged nullable: such fields are written as empty and
// decoded as empty, non-nil values, as official Fory Go does.
// A value decoded with reference tracking may be cyclic (a Node whose Next
// is itself): each pointer is visited once.
func emptyNotNil(v reflect.Value) { emptyNotNilSeen(v, map[uintptr]bool{}) }

func emptyNotNilSeen(v reflect.Value, seen map[uintptr]bool) {
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() && !seen[v.Pointer()] {
			seen[v.Pointer()] = true
			emptyNotNilSeen(v.Elem(), seen)
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			sf := v.Type().Field(i)
			if !sf.IsExported() {
				continue
			}
			fv := v.Field(i)
			tag := sf.Tag.Get("fory")
			if tag == "-" {
				continue
			}
			if (fv.Kind() == reflect.Slice || fv.Kind() == reflect.Map) && fv.IsNil() && !strings.Contains(tag, "nullable") {
				if fv.Kind() == reflect.Slice {
					fv.Set(reflect.MakeSlice(fv.Type(), 0, 0))
				} else {
					fv.Set(reflect.MakeMap(fv.Type()))
				}
			}
			emptyNotNilSeen(fv, seen)
		}
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			e := v.Index(i)
			if e.Kind() == reflect.Slice && e.IsNil() {
				e.Set(reflect.MakeSlice(e.Type(), 0, 0))
			}
			emptyNotNilSeen(e, seen)
		}
	case reflect.Map:
		for _, k := range v.MapKeys() {
			e := reflect.New(v.Type().Elem()).Elem()
			e.Set(v.MapIndex(k))
			if e.Kind() == reflect.Slice && e.IsNil() {
				e.Set(reflect.MakeSlice(e.Type(), 0, 0))
			}
			emptyNotNilSeen(e, seen)
			v.SetMapIndex(k, e)
		}
	}
}

// sameValue is reflect.DeepEqual with floats compared by their bits, so a
// decoded NaN equals the NaN it was encoded from. As DeepEqual does, a pair
// of pointers or maps met again is taken as equal, so that cyclic values
// (reference tracking) compare in finite time.
func sameValue(a, b reflect.Value) bool { return sameValueSeen(a, b, map[seenPair]bool{}) }

type seenPair struct {
	a, b uintptr
	t    reflect.Type
}

func sameValueSeen(a, b reflect.Value, seen map[seenPair]bool) bool {
	if a.Kind() != b.Kind() || a.Type() != b.Type() {
		return false
	}
	switch a.Kind() {
	case reflect.Float32, reflect.Float64:
		return math.Float64bits(a.Float()) == math.Float64bits(b.Float()) ||
			(a.Kind() == reflect.Float32 && math.Float32bits(float32(a.Float())) == math.Float32bits(float32(b.Float())))
	case reflect.Pointer:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		if a.Pointer() == b.Pointer() {
			return true
		}
		k := seenPair{a.Pointer(), b.Pointer(), a.Type()}
		if seen[k] {
			return true
		}
		seen[k] = true
		return sameValueSeen(a.Elem(), b.Elem(), seen)
	case reflect.Struct:
		for i := 0; i < a.NumField(); i++ {
			if !sameValueSeen(a.Field(i), b.Field(i), seen) {
				return false
			}
		}
		return true
	case reflect.Slice:
		if a.IsNil() != b.IsNil() {
			return false
		}
		fallthrough
	case reflect.Array:
		if a.Len() != b.Len() {
			return false
		}
		for i := 0; i < a.Len(); i++ {
			if !sameValueSeen(a.Index(i), b.Index(i), seen) {
				return false
			}
		}
		return true
	case reflect.Map:
		if a.IsNil() != b.IsNil() || a.Len() != b.Len() {
			return false
		}
		mk := seenPair{a.Pointer(), b.Pointer(), a.Type()}
		if seen[mk] {
			return true
		}
		seen[mk] = true
		for _, k := range a.MapKeys() {
			bv := b.MapIndex(k)
			if !bv.IsValid() || !sameValueSeen(a.MapIndex(k), bv, seen) {
				return false
			}
		}
		return true
	case reflect.Interface:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		return sameValueSeen(a.Elem(), b.Elem(), seen)
	case reflect.Bool:
		return a.Bool() == b.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return a.Int() == b.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return a.Uint() == b.Uint()
	case reflect.String:
		return a.String() == b.String()
	}
	return false
}

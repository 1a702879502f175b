package serializer_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	v1 "github.com/forygen/forygen/internal/evolution/v1"
	v2 "github.com/forygen/forygen/internal/evolution/v2"
	"github.com/forygen/forygen/internal/meta"
	"github.com/forygen/forygen/serializer"
	"github.com/forygen/forygen/serializer/foryimpl"
)

// Hostile TypeDefs in compatible-mode messages (docs/format.md §11): every byte
// of every TypeDef in a message is replaced by several values, once as is
// (the header hash must catch it) and once with the header hash recomputed
// (so the parser, the field matching and the skipping see the change), and
// the message is cut at every offset inside every TypeDef. The decoder must
// never panic; an error is a *serializer.DecodeError wrapping exactly one
// sentinel; a success after a change that keeps the data layout (renamed
// fields) must be the decode the renamed schema implies.

// hostileCase is a message and the types it is read into.
type hostileCase struct {
	name    string
	msg     any          // the value written
	readers []func() any // each gets the mutated bytes
	defs    []any        // values whose generated TypeDefs appear in the message
}

func hostileCases(t *testing.T) []hostileCase {
	t.Helper()
	s := "s"
	nested := &v2.Nested{
		In:    v2.Inner{Name: "in", Score: -5, Extra: []string{"e"}, Lf: v2.Leaf{V: 3, W: "w"}},
		PIn:   &v2.Inner{Name: "pin", Score: 1 << 20},
		LIn:   []v2.Inner{{Name: "a"}, {Name: "b", Score: 2}},
		LPIn:  []*v2.Inner{{Name: "c"}, nil},
		MSLIn: map[string][]v2.Inner{"k": {{Name: "d"}}},
		Lf:    v2.Leaf{V: 1, W: s}, PLf: &v2.Leaf{V: 2}, LLf: []v2.Leaf{{V: 4}},
		AddIn: v2.Inner{Name: "add"}, AddLPIn: []*v2.Inner{nil, {Name: "x"}},
	}
	changes := &v1.Changes{
		OldName: "old", Count: 7, W32: -1, W8: 8, WF: 1.5, WU: 9, WFix: -10, WSU: 11, WIF: 12, NP: 13, NS: &s,
		NIn: v1.Inner{Name: "nin", Lf: &v1.Leaf{V: 1, Gone: "g"}}, NL: []int32{1, 2}, NM: map[string]int32{"a": 1},
		NPW: new(int16), NWP: -3,
	}
	containers := &v2.Containers{
		Raw: []byte{1, 2}, Bin: []byte{3}, AI32: []int32{-1, 1}, AF64: []float64{0.5}, Fix: [3]int16{1, 2, 3},
		LI32: []int32{1 << 30}, LS: []string{"a", "b"}, LE: []v2.Color{v2.Blue}, LT: []time.Time{time.Unix(5, 6)},
		LL: [][]int32{{1}, {}}, LM: []map[string]int32{{"x": 1}}, LPI: []*int32{nil, new(int32)},
		MSI: map[string]int32{"a": 1}, MBS: map[bool]string{true: "t"}, MES: map[v2.Color]string{v2.Green: "g"},
		MSL: map[string][]string{"l": {"m"}}, MSM: map[string]map[string]int32{"o": {"p": 1}},
		MSP: map[string]*int32{"nil": nil}, NLS: []string{"n"}, AddLS: []string{"skip"}, AddMSM: map[string]map[string]int32{"q": {}},
		AddABool: []bool{true}, AddLPI: []*int32{nil},
	}
	scalars := &v1.Scalars{I64: -1 << 40, S: "x", T: time.Unix(1, 2), D: -time.Second, PS: &s, RmS: "rm", RmPT: &time.Time{}, RmTagU64: 1 << 60}
	pa := []float64{1.5}
	seqs := &v1.Seqs{
		L2A: []int32{-1, 1 << 30}, A2L: []int64{1 << 40}, Bin2U8: []byte{1}, U82Bin: []uint8{2, 3}, Raw2Bin: []byte{4},
		BoolL2A: []bool{true, false}, F32A2L: []float32{0.5}, U64L2A: []uint64{1 << 63}, Int2A: []int{-5},
		Arr2Go: []int16{1, 2, 3}, PtrL2A: []*int32{new(int32), new(int32)}, NL: []uint16{7}, Named: v1.Int32s{8}, PA: &pa,
	}
	return []hostileCase{
		{"Seqs", seqs, []func() any{func() any { return new(v1.Seqs) }, func() any { return new(v2.Seqs) }},
			[]any{new(v1.Seqs)}},
		{"Nested", nested, []func() any{func() any { return new(v1.Nested) }, func() any { return new(v2.Nested) }},
			[]any{new(v2.Nested), new(v2.Inner), new(v2.Leaf)}},
		{"Changes", changes, []func() any{func() any { return new(v1.Changes) }, func() any { return new(v2.Changes) }},
			[]any{new(v1.Changes), new(v1.Inner), new(v1.Leaf)}},
		{"Containers", containers, []func() any{func() any { return new(v1.Containers) }, func() any { return new(v2.Containers) }},
			[]any{new(v2.Containers)}},
		{"Scalars", scalars, []func() any{func() any { return new(v2.Scalars) }},
			[]any{new(v1.Scalars)}},
	}
}

// span is one TypeDef occurrence in a message.
type span struct {
	start, end int
	root       bool // the root struct's TypeDef
}

func typeDefSpans(t *testing.T, data []byte, defs []any) []span {
	t.Helper()
	var out []span
	for i, d := range defs {
		td := d.(foryimpl.Message).ForyType().TypeDef
		for off := 0; ; {
			j := bytes.Index(data[off:], td)
			if j < 0 {
				break
			}
			out = append(out, span{off + j, off + j + len(td), i == 0})
			off += j + len(td)
		}
	}
	require.NotEmpty(t, out)
	require.True(t, out[0].root)
	return out
}

// checkErr asserts the error contract of Deserialize.
func checkErr(t *testing.T, err error, context string) {
	t.Helper()
	var de *serializer.DecodeError
	if !errors.As(err, &de) {
		t.Fatalf("%s: error %v (%T) is not a *serializer.DecodeError", context, err, err)
	}
	n := 0
	for _, s := range []error{serializer.ErrMalformed, serializer.ErrSchemaMismatch, serializer.ErrLimit, serializer.ErrUnsupported} {
		if errors.Is(err, s) {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("%s: error %v wraps %d sentinels, want 1", context, err, n)
	}
}

// decode reads data into a new value from mk, turning a panic into a test
// failure.
func decode(t *testing.T, f *serializer.Fory, data []byte, mk func() any, context string) (v any, err error) {
	t.Helper()
	defer func() {
		if p := recover(); p != nil {
			t.Fatalf("%s: panic: %v", context, p)
		}
	}()
	v = mk()
	return v, f.Deserialize(data, v)
}

// rehash recomputes the header hash of the TypeDef at td[0:] (its size
// unchanged), docs/format.md §11.1.
func rehash(td []byte) {
	header := binary.LittleEndian.Uint64(td)
	low := header & 0xfff
	off := 8
	if low&0xff == 0xff {
		for td[off] >= 0x80 {
			off++
		}
		off++
	}
	body := append(append([]byte(nil), td[off:]...), byte(low), byte(low>>8))
	h1, _ := meta.Murmur3x64_128(body, 47)
	h := int64(h1 << 12)
	if h < 0 {
		h = -h
	}
	binary.LittleEndian.PutUint64(td, uint64(h)&^0xfff|low)
}

// bodyStart returns the offset of the body in a TypeDef.
func bodyStart(td []byte) int {
	off := 8
	if td[0] == 0xff {
		for td[off] >= 0x80 {
			off++
		}
		off++
	}
	return off
}

func TestHostileTypeDefMutations(t *testing.T) {
	for _, hc := range hostileCases(t) {
		t.Run(hc.name, func(t *testing.T) {
			f := serializer.New()
			data, err := f.Serialize(hc.msg)
			require.NoError(t, err)
			spans := typeDefSpans(t, data, hc.defs)
			originals := make([]any, len(hc.readers))
			for i, mk := range hc.readers {
				v, err := decode(t, f, data, mk, "original")
				require.NoError(t, err)
				originals[i] = v
			}
			var decoded, failed, checked int
			for _, sp := range spans {
				td := data[sp.start:sp.end]
				body := bodyStart(td)
				origDef, _, err := meta.ParseTypeDef(td, meta.DefaultLimits)
				require.NoError(t, err)
				// The type id and marker before the TypeDef too.
				for off := sp.start - 2; off < sp.end; off++ {
					orig := data[off]
					for _, rb := range []byte{0x00, 0xff, orig ^ 0x01, orig ^ 0x80, orig + 1, 0x1f, 0x3c} {
						if rb == orig {
							continue
						}
						for _, fix := range []bool{false, true} {
							if fix && off < sp.start+body {
								continue // header bytes: a recomputed hash would hide nothing
							}
							m := append([]byte(nil), data...)
							m[off] = rb
							if fix {
								rehash(m[sp.start:sp.end])
							}
							context := fmt.Sprintf("offset %d (TypeDef byte %d) %#02x→%#02x rehash=%v", off, off-sp.start, orig, rb, fix)
							for i, mk := range hc.readers {
								got, err := decode(t, f, m, mk, context)
								if err != nil {
									checkErr(t, err, context)
									failed++
									continue
								}
								decoded++
								if off >= sp.start && !fix {
									t.Fatalf("%s: a TypeDef byte changed without its hash and the message still decoded", context)
								}
								if sp.root && off >= sp.start {
									mutated, _, perr := meta.ParseTypeDef(m[sp.start:sp.end], meta.DefaultLimits)
									require.NoError(t, perr, context)
									if checkRenamed(t, origDef, mutated, originals[i], got, context) {
										checked++
									}
								}
							}
						}
					}
				}
			}
			t.Logf("%d TypeDefs: %d decodes failed cleanly, %d succeeded (%d checked field by field)", len(spans), failed, decoded, checked)
			require.Positive(t, failed)
		})
	}
}

// ident returns a FieldDef's identifier: #tag or snake_case name.
func ident(fd *meta.FieldDef) string {
	if fd.TagID >= 0 {
		return "#" + strconv.Itoa(fd.TagID)
	}
	return fd.Name
}

// goIdent returns the identifier of Go struct field sf (docs/format.md §9.3).
func goIdent(sf reflect.StructField) string {
	for _, item := range strings.Split(sf.Tag.Get("fory"), ",") {
		if id, ok := strings.CutPrefix(strings.TrimSpace(item), "id="); ok {
			return "#" + id
		}
	}
	return meta.SnakeCase(sf.Name)
}

// checkRenamed checks a successful decode after a root TypeDef change that
// kept every field's type and nullability (so the data layout) and changed
// only identifiers: a local field that no remote field names is zero; one
// that a remote field names holds what the original decode put in the
// local field the original identifier named, when that field has the same
// Go type. It reports whether the change was of that kind.
func checkRenamed(t *testing.T, orig, mutated *meta.TypeDef, origVal, got any, context string) bool {
	t.Helper()
	if len(orig.Fields) != len(mutated.Fields) || orig.UserID != mutated.UserID || orig.ByName != mutated.ByName ||
		orig.Namespace != mutated.Namespace || orig.TypeName != mutated.TypeName {
		return false
	}
	for i := range orig.Fields {
		a, b := &orig.Fields[i], &mutated.Fields[i]
		if a.Nullable != b.Nullable || a.TrackRef != b.TrackRef || !reflect.DeepEqual(a.Type, b.Type) {
			return false
		}
	}
	ov, gv := reflect.ValueOf(origVal).Elem(), reflect.ValueOf(got).Elem()
	st := gv.Type()
	local := map[string]int{}
	for i := 0; i < st.NumField(); i++ {
		local[goIdent(st.Field(i))] = i
	}
	for i := 0; i < st.NumField(); i++ {
		id := goIdent(st.Field(i))
		var src []int
		for k := range mutated.Fields {
			if ident(&mutated.Fields[k]) == id {
				src = append(src, k)
			}
		}
		switch {
		case len(src) == 0:
			require.True(t, gv.Field(i).IsZero(), "%s: field %s is named by no remote field but holds %v", context, st.Field(i).Name, gv.Field(i))
		case len(src) == 1:
			j, ok := local[ident(&orig.Fields[src[0]])]
			if ok && st.Field(j).Type == st.Field(i).Type {
				require.Equal(t, ov.Field(j).Interface(), gv.Field(i).Interface(), "%s: field %s", context, st.Field(i).Name)
			}
		}
	}
	return true
}

// TestHostileTypeDefTruncations cuts each message at every offset inside
// each of its TypeDefs (and everywhere else): always ErrMalformed.
func TestHostileTypeDefTruncations(t *testing.T) {
	for _, hc := range hostileCases(t) {
		f := serializer.New()
		data, err := f.Serialize(hc.msg)
		require.NoError(t, err)
		inside := 0
		spans := typeDefSpans(t, data, hc.defs)
		for cut := 0; cut < len(data); cut++ {
			for _, sp := range spans {
				if cut > sp.start && cut < sp.end {
					inside++
					break
				}
			}
			for _, mk := range hc.readers {
				context := fmt.Sprintf("%s cut at %d of %d", hc.name, cut, len(data))
				_, err := decode(t, f, data[:cut], mk, context)
				require.Error(t, err, context)
				checkErr(t, err, context)
				require.ErrorIs(t, err, serializer.ErrMalformed, context)
			}
		}
		require.Positive(t, inside)
	}
}

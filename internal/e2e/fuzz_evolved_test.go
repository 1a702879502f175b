package e2e_test

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/rand/v2"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/forygen/forygen/internal/e2e/hostile"
	"github.com/forygen/forygen/internal/e2e/other"
	"github.com/forygen/forygen/internal/meta"
	"github.com/forygen/forygen/serializer"
	"github.com/forygen/forygen/serializer/foryimpl"
)

// FuzzEvolvedTypeDefs (issue 17, item 3) is a structure-aware fuzz target
// for compatible mode's schema evolution (docs/format.md §11.4). It parses a
// compatible message (data) into its TypeDefs and the bytes of every field
// value, then lets prog rewrite the schemas the way a peer with another
// version of the types would: drop, add (with values written by the small
// encoder below), retype, convert, reorder, rename, duplicate fields, flip
// their nullability, change registrations. The message is written again with
// every changed TypeDef re-encoded by meta.EncodeTypeDef (so its 52-bit hash
// is right) and shared TypeDef entries renumbered, and decoded into every
// e2e and narrow type. There is no recover: a panic is a finding; every
// error must be a *serializer.DecodeError wrapping exactly one sentinel.
//
// When prog changes only the root schema and only in ways whose outcome is
// known (dropping, reordering, adding unknown fields, renaming a field away,
// exact numeric conversions, list ↔ dense array, flipping nullability of a
// present value), the decoded value must be the original one with exactly
// the fields the new schema lacks left zero.
//
// The fuzzer also mutates data itself; the TypeDef hashes of what it
// changed are recomputed while parsing, so byte-level changes inside a
// TypeDef reach the field matching instead of failing the hash check.
//
//	go test -run='^$' -fuzz='^FuzzEvolvedTypeDefs$' -fuzztime=60s ./internal/e2e/
func FuzzEvolvedTypeDefs(f *testing.F) {
	evInit(f)
	// Each op code once, on the root and (high bit) on a nested schema,
	// plus a few longer programs, over every compatible seed message.
	var progs [][]byte
	for op := byte(0); op < evOps; op++ {
		progs = append(progs, []byte{op, 1, 2, 3, 4, 5, 6}, []byte{op | 0x80, 3, 7, 1, 2, 3, 4, 5})
	}
	progs = append(progs,
		[]byte{0, 0, 0, 0, 4, 0, 1, 2, 3, 1, 9, 9, 5},
		[]byte{1, 7, 7, 2, 1, 1, 8, 8, 3, 3, 1, 1, 4, 4, 9, 9, 9, 2},
		[]byte{9, 1, 2, 3, 9, 4, 5, 6, 3, 7, 8, 9, 10, 7, 1, 2, 3, 0},
		[]byte{0x82, 0, 1, 2, 3, 0x86, 5, 6, 7, 8, 0x8a, 1, 1, 1, 1},
	)
	k := 0
	for _, m := range evSeeds {
		f.Add(m, []byte{})
		for j := 0; j < 4; j++ {
			f.Add(m, progs[k%len(progs)])
			k++
		}
	}
	f.Fuzz(func(t *testing.T, data, prog []byte) {
		evFuzz(t, data, prog)
	})
}

// TestEvolvedTypeDefsMachinery runs the fuzz body over random programs
// (seeded, so it is repeatable) and checks that the machinery does what
// the fuzz target relies on: the seeds parse, many predictable changes are
// checked against their expected value, and the rewritten messages reach
// the evolved read path and fail in every documented way.
func TestEvolvedTypeDefsMachinery(t *testing.T) {
	evInit(t)
	rng := rand.New(rand.NewPCG(17, 3))
	n := 1500
	if testing.Short() {
		n = 300
	}
	if s := os.Getenv("FORYGEN_EVOLVED_PROGRAMS"); s != "" {
		// A longer random search than the fuzzer's seed run.
		var err error
		if n, err = strconv.Atoi(s); err != nil {
			t.Fatal(err)
		}
	}
	before := foryimpl.EvolvedReadCount()
	var parsed, checked, decoded int
	sentinels := map[error]int{}
	for i := 0; i < n; i++ {
		data := evSeeds[rng.IntN(len(evSeeds))]
		prog := make([]byte, rng.IntN(24))
		for j := range prog {
			prog[j] = byte(rng.Uint32())
		}
		if i%3 == 0 {
			// Root-only programs of predictable ops.
			for j := 0; j < len(prog); j += 4 {
				prog[j] = []byte{0, 1, 4, 5, 9, 3, 7}[rng.IntN(7)]
			}
		}
		o := evFuzz(t, data, prog)
		if o.parsed {
			parsed++
		}
		if o.checked {
			checked++
		}
		if o.sentinel == nil {
			decoded++
		} else {
			sentinels[o.sentinel]++
		}
	}
	evolved := foryimpl.EvolvedReadCount() - before
	t.Logf("%d programs: %d parsed, %d predictions checked, %d decoded, errors %v; %d evolved struct reads",
		n, parsed, checked, decoded, sentinels, evolved)
	if parsed != n {
		t.Errorf("%d of %d seed messages did not parse", n-parsed, n)
	}
	if checked < n/10 {
		t.Errorf("only %d of %d programs had their outcome checked", checked, n)
	}
	if evolved == 0 || sentinels[serializer.ErrSchemaMismatch] == 0 || sentinels[serializer.ErrMalformed] == 0 {
		t.Errorf("the rewritten messages do not reach the evolved path and its errors")
	}
}

// The e2e knowledge the parser and the oracle need, built once.
var (
	evOnce  sync.Once
	evSeeds [][]byte
	// evHints are the schemas of struct values in maps, which carry no
	// type meta (§14.11): by owner registration and field identifier.
	evHints map[string]*evDef
	// evGenuine maps a registration to the e2e root it is and the TypeDef
	// the generated code writes for it.
	evGenuine map[string]evRoot
	// evLocalNames are field identifiers of the e2e types, for renames
	// that collide.
	evLocalNames []string
	evTargets    []evTarget
)

type evRoot struct {
	r       root
	typeDef []byte
}

type evTarget struct {
	typeName string
	fresh    func() any
}

func evInit(tb testing.TB) {
	evOnce.Do(func() {
		evGenuine = map[string]evRoot{}
		regKeys := map[string]string{}
		names := map[string]bool{}
		for _, r := range parsableRoots() {
			for _, v := range []any{r.value(), deterministic(r), r.fresh()} {
				data, err := fuzzCompatible.Serialize(v)
				if err != nil {
					panic(err)
				}
				evSeeds = append(evSeeds, data)
			}
			data, err := fuzzCompatible.Serialize(r.fresh())
			if err != nil {
				panic(err)
			}
			td, n, err := meta.ParseTypeDef(data[4:], meta.DefaultLimits)
			if err != nil {
				panic(err)
			}
			own := slices.Clone(data[4 : 4+n])
			// The hash repair must leave a genuine TypeDef as it is.
			fixed := slices.Clone(own)
			evFixHash(fixed)
			if !bytes.Equal(fixed, own) {
				panic("evFixHash changes the genuine TypeDef of " + r.name)
			}
			evGenuine[evRegKey(td)] = evRoot{r: r, typeDef: own}
			regKeys[r.name] = evRegKey(td)
			for id := range evIdents(reflect.TypeOf(r.fresh()).Elem()) {
				if !names[id] && !strings.HasPrefix(id, "#") {
					names[id] = true
					evLocalNames = append(evLocalNames, id)
				}
			}
			evTargets = append(evTargets, evTarget{goName(r), r.fresh})
		}
		slices.Sort(evLocalNames)
		for _, nt := range narrowTargets {
			evTargets = append(evTargets, evTarget{nt.name, nt.fresh})
		}
		def := func(v any) *evDef {
			data, err := fuzzCompatible.Serialize(v)
			if err != nil {
				panic(err)
			}
			td, n, err := meta.ParseTypeDef(data[4:], meta.DefaultLimits)
			if err != nil {
				panic(err)
			}
			return &evDef{td: td, raw: slices.Clone(data[4 : 4+n])}
		}
		addr, tag, tree := def(&other.Address{}), def(&other.Tag{}), def(fullTree())
		key := func(r string) string { return regKeys[r] }
		evHints = map[string]*evDef{
			key("Maps") + "/structs":      addr,
			key("Maps") + "/ptrs":         addr,
			key("Composite") + "/by_name": tag,
			key("Tree") + "/index":        tree,
		}
	})
	if len(evSeeds) == 0 {
		tb.Fatal("no seeds")
	}
}

// evRegKey names a struct registration: its user id or namespace.name.
func evRegKey(td *meta.TypeDef) string {
	if td.ByName {
		return td.Namespace + "." + td.TypeName
	}
	return strconv.FormatUint(uint64(td.UserID), 10)
}

// evIdent is a remote field's identifier as the matching uses it.
func evIdent(fd *meta.FieldDef) string {
	if fd.TagID >= 0 {
		return "#" + strconv.Itoa(fd.TagID)
	}
	return fd.Name
}

// evIdents maps the identifiers of a generated struct's serialized fields
// (tag id or snake_case name, docs/format.md §6.2) to their field indexes.
func evIdents(t reflect.Type) map[string]int {
	out := map[string]int{}
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		tag := sf.Tag.Get("fory")
		if !sf.IsExported() || tag == "-" {
			continue
		}
		id := meta.SnakeCase(sf.Name)
		for _, part := range strings.Split(tag, ",") {
			if strings.HasPrefix(part, "id=") {
				id = "#" + part[3:]
			}
		}
		out[id] = i
	}
	return out
}

// evFixHash rewrites the 52-bit hash in the header of the TypeDef at the
// start of b (§11.1) to match its body, when b holds the whole TypeDef:
// MurmurHash3_x64_128(body ‖ low12 as two bytes, 47).h1, shifted by 12 and
// made non-negative. It is used only on bytes the fuzzer changed; schemas
// the test changes are re-encoded by meta.EncodeTypeDef.
func evFixHash(b []byte) {
	if len(b) < 8 {
		return
	}
	header := binary.LittleEndian.Uint64(b)
	low := header & 0xfff
	size, off := int(header&0xff), 8
	if size == 0xff {
		r := evReader{b: b, pos: 8}
		v, ok := r.varu32()
		if !ok {
			return
		}
		size += int(v)
		off = r.pos
	}
	if size > len(b)-off {
		return
	}
	h1, _ := meta.Murmur3x64_128(append(slices.Clip(b[off:off+size]), byte(low), byte(low>>8)), 47)
	h := int64(h1 << 12)
	if h < 0 {
		h = -h
	}
	binary.LittleEndian.PutUint64(b, uint64(h)&^0xfff|low)
}

// ---------------------------------------------------------------------------
// The parsed message.

// evDef is one shared TypeDef entry as received.
type evDef struct {
	td  *meta.TypeDef
	raw []byte
}

// evOcc is one use of a struct schema: the type meta of a struct field, of
// a list of structs or of a map chunk, or the root's, with the bodies
// written by it. Changing its schema changes all of them together.
type evOcc struct {
	td     *meta.TypeDef
	orig   []byte // td's encoding; nil when td changed and must be re-encoded
	bodies []*evBody
}

// evBody is one struct body: a value per field of its schema.
type evBody struct{ fields []evVal }

// evVal is the bytes of one value (with its null flag): raw bytes, shared
// TypeDef entries and nested bodies.
type evVal []evPiece

type evPiece struct {
	raw  []byte
	meta *evOcc  // the shared entry of this schema: a new one or a reference
	body *evBody // a nested struct body
}

// evFail stops the parse: the message is not one the test can rewrite.
type evFail struct{}

// evReader reads varints and fixed-width values without panicking.
type evReader struct {
	b   []byte
	pos int
}

func (r *evReader) left() int { return len(r.b) - r.pos }

func (r *evReader) take(n int) ([]byte, bool) {
	if n < 0 || n > r.left() {
		return nil, false
	}
	r.pos += n
	return r.b[r.pos-n : r.pos], true
}

func (r *evReader) u8() (byte, bool) {
	b, ok := r.take(1)
	if !ok {
		return 0, false
	}
	return b[0], true
}

func (r *evReader) varu32() (uint32, bool) {
	var v uint32
	for i := 0; i < 5; i++ {
		b, ok := r.u8()
		if !ok || (i == 4 && b > 0x0f) {
			return 0, false
		}
		v |= uint32(b&0x7f) << (7 * i)
		if b < 0x80 {
			return v, true
		}
	}
	return 0, false
}

func (r *evReader) varu64() (uint64, bool) {
	var v uint64
	for i := 0; i < 8; i++ {
		b, ok := r.u8()
		if !ok {
			return 0, false
		}
		v |= uint64(b&0x7f) << (7 * i)
		if b < 0x80 {
			return v, true
		}
	}
	b, ok := r.u8()
	return v | uint64(b)<<56, ok
}

func (r *evReader) fixed(n int) (uint64, bool) {
	b, ok := r.take(n)
	if !ok {
		return 0, false
	}
	var v uint64
	for i := n - 1; i >= 0; i-- {
		v = v<<8 | uint64(b[i])
	}
	return v, true
}

// evNum is a numeric or bool value: kind 'i' (i), 'u' (u) or 'f' (f).
type evNum struct {
	kind byte
	i    int64
	u    uint64
	f    float64
}

// num reads a scalar of type id 1..20 (bools as unsigned).
func (r *evReader) num(id uint8) (evNum, bool) {
	if id == 8 || id == 15 {
		// Tagged: 4 bytes with bit 0 clear, or 01 and 8 bytes (§3).
		b, ok := r.u8()
		if !ok {
			return evNum{}, false
		}
		if b&1 == 1 {
			v, ok := r.fixed(8)
			if id == 8 {
				return evNum{kind: 'i', i: int64(v)}, ok
			}
			return evNum{kind: 'u', u: v}, ok
		}
		r.pos--
		v, ok := r.fixed(4)
		if id == 8 {
			return evNum{kind: 'i', i: int64(int32(uint32(v)) >> 1)}, ok
		}
		return evNum{kind: 'u', u: uint64(uint32(v) >> 1)}, ok
	}
	var v uint64
	var ok bool
	switch id {
	case 1, 2, 9:
		v, ok = r.fixed(1)
	case 3, 10:
		v, ok = r.fixed(2)
	case 4, 11, 19:
		v, ok = r.fixed(4)
	case 6, 13, 20:
		v, ok = r.fixed(8)
	case 5, 12:
		var x uint32
		x, ok = r.varu32()
		v = uint64(x)
	case 7, 14:
		v, ok = r.varu64()
	}
	if !ok {
		return evNum{}, false
	}
	switch id {
	case 2:
		return evNum{kind: 'i', i: int64(int8(v))}, true
	case 3:
		return evNum{kind: 'i', i: int64(int16(v))}, true
	case 4:
		return evNum{kind: 'i', i: int64(int32(v))}, true
	case 5:
		x := uint32(v)
		return evNum{kind: 'i', i: int64(int32(x>>1) ^ -int32(x&1))}, true
	case 6:
		return evNum{kind: 'i', i: int64(v)}, true
	case 7:
		return evNum{kind: 'i', i: int64(v>>1) ^ -int64(v&1)}, true
	case 19:
		return evNum{kind: 'f', f: float64(math.Float32frombits(uint32(v)))}, true
	case 20:
		return evNum{kind: 'f', f: math.Float64frombits(v)}, true
	}
	return evNum{kind: 'u', u: v}, true
}

// ---------------------------------------------------------------------------
// Parsing.

type evParser struct {
	evReader
	defs  []evDef
	occs  []*evOcc
	cur   *evVal // the value being collected
	mark  int    // start of its pending raw bytes
	depth int
}

func (p *evParser) fail() { panic(evFail{}) }

func (p *evParser) must(ok bool) {
	if !ok {
		p.fail()
	}
}

func (p *evParser) byte1() byte {
	b, ok := p.u8()
	p.must(ok)
	return b
}

func (p *evParser) flush() {
	if p.pos > p.mark {
		*p.cur = append(*p.cur, evPiece{raw: p.b[p.mark:p.pos]})
	}
	p.mark = p.pos
}

// evParse parses a compatible message. The input is changed in place
// where TypeDef hashes are repaired; ok is false when the message is not
// one the test understands.
func evParse(in []byte) (msg evVal, root *evOcc, occs []*evOcc, ok bool) {
	p := &evParser{evReader: evReader{b: in}}
	defer func() {
		if r := recover(); r != nil {
			if _, is := r.(evFail); !is {
				panic(r)
			}
			ok = false
		}
	}()
	p.cur = &msg
	if p.byte1() != 0x01 || p.byte1() != 0xff {
		p.fail()
	}
	if id := p.byte1(); id != 28 && id != 30 {
		p.fail()
	}
	root = p.entry()
	p.bodyPiece(root)
	p.flush()
	if p.left() != 0 {
		p.fail()
	}
	return msg, root, p.occs, true
}

// entry reads a shared TypeDef entry (§11.3) and returns a new use of it.
func (p *evParser) entry() *evOcc {
	p.flush()
	m, ok := p.varu32()
	p.must(ok)
	idx := int(m >> 1)
	var d evDef
	if m&1 == 1 {
		p.must(idx < len(p.defs))
		d = p.defs[idx]
	} else {
		p.must(idx == len(p.defs))
		evFixHash(p.b[p.pos:])
		td, n, err := meta.ParseTypeDef(p.b[p.pos:], meta.DefaultLimits)
		p.must(err == nil && td.Kind >= 27 && td.Kind <= 30 && td.Validate() == nil)
		d = evDef{td: td, raw: p.b[p.pos : p.pos+n]}
		p.pos += n
		p.defs = append(p.defs, d)
	}
	o := &evOcc{td: evCloneTD(d.td), orig: d.raw}
	p.occs = append(p.occs, o)
	*p.cur = append(*p.cur, evPiece{meta: o})
	p.mark = p.pos
	return o
}

// bodyPiece parses a body of o's schema into the current value.
func (p *evParser) bodyPiece(o *evOcc) {
	p.flush()
	b := p.body(o)
	*p.cur = append(*p.cur, evPiece{body: b})
	p.mark = p.pos
}

func (p *evParser) body(o *evOcc) *evBody {
	p.depth++
	p.must(p.depth < 64)
	saved := p.cur
	b := &evBody{}
	owner := evRegKey(o.td)
	for i := range o.td.Fields {
		fd := &o.td.Fields[i]
		var v evVal
		p.cur, p.mark = &v, p.pos
		p.value(&fd.Type, fd.Nullable, evHints[owner+"/"+evIdent(fd)], 0)
		p.flush()
		b.fields = append(b.fields, v)
	}
	p.cur = saved
	o.bodies = append(o.bodies, b)
	p.depth--
	return b
}

func isStructID(id uint8) bool { return id >= 27 && id <= 30 }

func (p *evParser) flag() bool {
	switch p.byte1() {
	case 0xfd:
		return false
	case 0xff:
		return true
	}
	p.fail()
	return false
}

// value parses one value of type ft; bare is the schema of struct values
// of a map field (which carry no type meta).
func (p *evParser) value(ft *meta.FieldType, nullable bool, bare *evDef, lvl int) {
	p.must(lvl < 32)
	if nullable && !p.flag() {
		return
	}
	var ok bool
	switch id := ft.TypeID; id {
	case 1, 2, 9:
		_, ok = p.take(1)
	case 3, 10, 17, 18:
		_, ok = p.take(2)
	case 4, 11, 19:
		_, ok = p.take(4)
	case 6, 13, 20:
		_, ok = p.take(8)
	case 38:
		_, ok = p.take(12)
	case 5, 12, 25:
		_, ok = p.varu32()
	case 7, 14, 39:
		_, ok = p.varu64()
	case 37:
		if _, ok = p.varu64(); ok {
			_, ok = p.take(4)
		}
	case 8, 15:
		_, ok = p.num(id)
	case 21:
		var h uint64
		if h, ok = p.varu64(); ok {
			p.must(h>>2 <= uint64(p.left()))
			_, ok = p.take(int(h >> 2))
		}
	case 41, 43, 44, 45, 46, 47, 48, 49, 50, 51, 53, 54, 55, 56:
		var n uint32
		if n, ok = p.varu32(); ok {
			_, ok = p.take(int(n))
		}
	case 22, 23:
		p.must(len(ft.Children) == 1)
		p.list(&ft.Children[0], lvl)
		ok = true
	case 24:
		p.must(len(ft.Children) == 2)
		p.mapValue(&ft.Children[0], &ft.Children[1], bare, lvl)
		ok = true
	case 27, 28, 29, 30:
		if id := p.byte1(); id != 28 && id != 30 {
			p.fail()
		}
		p.bodyPiece(p.entry())
		ok = true
	}
	p.must(ok)
}

func (p *evParser) list(elem *meta.FieldType, lvl int) {
	n, ok := p.varu32()
	p.must(ok && int64(n) <= int64(p.left()))
	if n == 0 {
		return
	}
	h := p.byte1()
	p.must(h&^0x0f == 0 && h&0x01 == 0 && h&0x08 != 0)
	structElem := isStructID(elem.TypeID)
	var o *evOcc
	if h&0x04 == 0 {
		switch id := p.byte1(); {
		case id == 28 || id == 30:
			o, structElem = p.entry(), true
		case isStructID(id):
			p.fail()
		case id == 25:
			_, ok := p.varu32()
			p.must(ok)
		}
	}
	p.must(!structElem || o != nil)
	for i := 0; i < int(n); i++ {
		if h&0x02 != 0 && !p.flag() {
			continue
		}
		if structElem {
			p.bodyPiece(o)
		} else {
			p.value(elem, false, nil, lvl+1)
		}
	}
}

func (p *evParser) typeMeta() {
	if p.byte1() == 25 {
		_, ok := p.varu32()
		p.must(ok)
	}
}

func (p *evParser) mapValue(key, val *meta.FieldType, bare *evDef, lvl int) {
	n, ok := p.varu32()
	p.must(ok && int64(n) <= int64(p.left()))
	var bareOcc *evOcc
	for left := int(n); left > 0; {
		h := p.byte1()
		p.must(h&0xc0 == 0 && h&0x0b == 0)
		if h&0x10 != 0 {
			if h&0x04 == 0 {
				p.typeMeta()
			}
			p.value(key, false, nil, lvl+1)
			left--
			continue
		}
		size := int(p.byte1())
		p.must(size > 0 && size <= left)
		if h&0x04 == 0 {
			p.typeMeta()
		}
		var o *evOcc
		if h&0x20 == 0 {
			switch id := p.byte1(); {
			case id == 28 || id == 30:
				o = p.entry()
			case isStructID(id):
				p.fail()
			case id == 25:
				_, ok := p.varu32()
				p.must(ok)
			}
		}
		for j := 0; j < size; j++ {
			p.value(key, false, nil, lvl+1)
			switch {
			case o != nil:
				p.bodyPiece(o)
			case isStructID(val.TypeID):
				p.must(bare != nil)
				if bareOcc == nil {
					// Not in p.occs: the test cannot change a schema that
					// is not on the wire.
					bareOcc = &evOcc{td: bare.td, orig: bare.raw}
				}
				p.bodyPiece(bareOcc)
			default:
				p.value(val, false, nil, lvl+1)
			}
		}
		left -= size
	}
}

func evCloneTD(td *meta.TypeDef) *meta.TypeDef {
	c := *td
	c.Encoded, c.Header = nil, 0
	c.Fields = make([]meta.FieldDef, len(td.Fields))
	for i, f := range td.Fields {
		f.Type = evCloneFT(f.Type)
		c.Fields[i] = f
	}
	return &c
}

func evCloneFT(ft meta.FieldType) meta.FieldType {
	if ft.Children != nil {
		ch := make([]meta.FieldType, len(ft.Children))
		for i, c := range ft.Children {
			ch[i] = evCloneFT(c)
		}
		ft.Children = ch
	}
	return ft
}

// ---------------------------------------------------------------------------
// Writing the message again.

type evEmitter struct {
	out  []byte
	seen map[string]int
}

// evEmit writes msg, numbering the shared TypeDef entries in the order
// they now occur (one entry per distinct TypeDef); ok is false when a
// changed schema does not validate.
func evEmit(msg evVal) (out []byte, ok bool) {
	e := &evEmitter{seen: map[string]int{}}
	if !e.val(msg) {
		return nil, false
	}
	return e.out, true
}

func (e *evEmitter) val(v evVal) bool {
	for _, pc := range v {
		switch {
		case pc.meta != nil:
			o := pc.meta
			if o.orig == nil {
				if o.td.Validate() != nil {
					return false
				}
				o.orig = meta.EncodeTypeDef(o.td)
			}
			if i, ok := e.seen[string(o.orig)]; ok {
				e.out = evVaru32(e.out, uint32(i<<1|1))
				continue
			}
			i := len(e.seen)
			e.seen[string(o.orig)] = i
			e.out = evVaru32(e.out, uint32(i<<1))
			e.out = append(e.out, o.orig...)
		case pc.body != nil:
			for _, f := range pc.body.fields {
				if !e.val(f) {
					return false
				}
			}
		default:
			e.out = append(e.out, pc.raw...)
		}
	}
	return true
}

func evVaru32(b []byte, v uint32) []byte {
	for v >= 0x80 {
		b = append(b, byte(v)|0x80)
		v >>= 7
	}
	return append(b, byte(v))
}

func evVaru64(b []byte, v uint64) []byte {
	for i := 0; i < 8; i++ {
		if v < 0x80 {
			return append(b, byte(v))
		}
		b = append(b, byte(v)|0x80)
		v >>= 7
	}
	return append(b, byte(v))
}

func evFixed(b []byte, v uint64, n int) []byte {
	for i := 0; i < n; i++ {
		b = append(b, byte(v>>(8*i)))
	}
	return b
}

func evZZ64(v int64) uint64 { return uint64(v<<1) ^ uint64(v>>63) }

// evAppendNum writes n as a value of numeric (or bool) type id, converting
// with Go's conversions when it does not fit.
func evAppendNum(b []byte, id uint8, n evNum) []byte {
	var i int64
	var u uint64
	var f float64
	switch n.kind {
	case 'i':
		i, u, f = n.i, uint64(n.i), float64(n.i)
	case 'u':
		i, u, f = int64(n.u), n.u, float64(n.u)
	default:
		i, u, f = int64(n.f), uint64(n.f), n.f
	}
	switch id {
	case 1:
		return append(b, byte(u&1))
	case 2, 9:
		return append(b, byte(u))
	case 3, 10:
		return evFixed(b, u, 2)
	case 4, 11:
		return evFixed(b, u, 4)
	case 6, 13:
		return evFixed(b, u, 8)
	case 5:
		x := int32(i)
		return evVaru32(b, uint32(x<<1)^uint32(x>>31))
	case 12:
		return evVaru32(b, uint32(u))
	case 7:
		return evVaru64(b, evZZ64(i))
	case 14:
		return evVaru64(b, u)
	case 8:
		if i >= -1<<30 && i < 1<<30 {
			return evFixed(b, uint64(uint32(int32(i)<<1)), 4)
		}
		return evFixed(append(b, 1), uint64(i), 8)
	case 15:
		if u < 1<<31 {
			return evFixed(b, uint64(uint32(u)<<1), 4)
		}
		return evFixed(append(b, 1), u, 8)
	case 19:
		return evFixed(b, uint64(math.Float32bits(float32(f))), 4)
	case 20:
		return evFixed(b, math.Float64bits(f), 8)
	}
	panic("evAppendNum: type id " + strconv.Itoa(int(id)))
}

// evExact reports whether n is exactly representable as type id, by the
// rules the reader's conversions apply (§11.4 point 3), so that reading it
// back into the original type gives the same value.
func evExact(n evNum, id uint8) bool {
	switch n.kind {
	case 'f':
		switch id {
		case 20:
			return true
		case 19:
			return float64(float32(n.f)) == n.f
		}
		if n.f != math.Trunc(n.f) || n.f == 0 && math.Signbit(n.f) || n.f < -(1<<63) || n.f >= 1<<63 {
			return false
		}
		if isUnsigned(id) {
			return n.f >= 0 && evExact(evNum{kind: 'u', u: uint64(n.f)}, id)
		}
		return evExact(evNum{kind: 'i', i: int64(n.f)}, id)
	case 'u':
		if n.u > math.MaxInt64 {
			switch id {
			case 13, 14, 15:
				return true
			case 19:
				return float64(float32(n.u)) < 1<<64 && uint64(float32(n.u)) == n.u
			case 20:
				return float64(n.u) < 1<<64 && uint64(float64(n.u)) == n.u
			}
			return false
		}
		return evExact(evNum{kind: 'i', i: int64(n.u)}, id)
	}
	i := n.i
	switch id {
	case 2:
		return i >= math.MinInt8 && i <= math.MaxInt8
	case 3:
		return i >= math.MinInt16 && i <= math.MaxInt16
	case 4, 5:
		return i >= math.MinInt32 && i <= math.MaxInt32
	case 6, 7, 8:
		return true
	case 9:
		return i >= 0 && i <= math.MaxUint8
	case 10:
		return i >= 0 && i <= math.MaxUint16
	case 11, 12:
		return i >= 0 && i <= math.MaxUint32
	case 13, 14, 15:
		return i >= 0
	case 19:
		return float64(float32(i)) < 1<<63 && int64(float32(i)) == i
	case 20:
		return float64(i) < 1<<63 && int64(float64(i)) == i
	}
	return false
}

func isUnsigned(id uint8) bool { return id >= 9 && id <= 15 }

func isNumericID(id uint8) bool { return id >= 2 && id <= 15 || id == 19 || id == 20 }

// ---------------------------------------------------------------------------
// Mutating schemas.

const evOps = 12

type evMutator struct {
	root    *evOcc
	occs    []*evOcc
	rng     *rand.Rand
	fresh   int
	predict bool // the outcome is still known
	budget  int  // values the encoder may still write: keeps every run fast
}

type evProg struct {
	b []byte
	i int
}

func (p *evProg) more() bool { return p.i < len(p.b) }

func (p *evProg) next() byte {
	if p.i >= len(p.b) {
		return 0
	}
	p.i++
	return p.b[p.i-1]
}

func (p *evProg) pick(n int) int {
	if n <= 0 {
		return 0
	}
	return int(p.next()) % n
}

func (m *evMutator) apply(prog []byte) {
	pr := &evProg{b: prog}
	m.budget = 2000
	for n := 0; n < 12 && pr.more(); n++ {
		op := pr.next()
		o := m.root
		if op&0x80 != 0 {
			o = m.occs[pr.pick(len(m.occs))]
		}
		m.rng = rand.New(rand.NewPCG(uint64(pr.next()), uint64(pr.next())<<8|uint64(n)))
		if !m.op(o, int(op&0x7f)%evOps, pr) || o != m.root {
			m.predict = false
		}
	}
}

// op applies mutation k to o and reports whether the decoded value stays
// predictable (when o is the root).
func (m *evMutator) op(o *evOcc, k int, pr *evProg) bool {
	fields := &o.td.Fields
	nf := len(*fields)
	if nf == 0 && k != 1 && k != 8 {
		return true
	}
	i := pr.pick(nf)
	if k != 11 {
		// Before any value is generated: a random struct value may reuse
		// o's schema, which must then be re-encoded from td.
		o.orig = nil
	}
	switch k {
	case 0: // drop field i
		*fields = slices.Delete(*fields, i, i+1)
		for _, b := range o.bodies {
			b.fields = slices.Delete(b.fields, i, i+1)
		}
	case 1: // add a field no local type has, with random values
		i = pr.pick(nf + 1)
		fd := meta.FieldDef{TagID: -1, Nullable: pr.next()&1 == 1, Type: m.randType(0)}
		m.freshIdent(&fd, pr.next()&1 == 1)
		*fields = slices.Insert(*fields, i, fd)
		for _, b := range o.bodies {
			b.fields = slices.Insert(b.fields, i, m.randVal(&fd.Type, fd.Nullable, 0))
		}
	case 2: // another type, random values
		fd := &(*fields)[i]
		fd.Type, fd.Nullable = m.randType(0), pr.next()&1 == 1
		for _, b := range o.bodies {
			b.fields[i] = m.randVal(&fd.Type, fd.Nullable, 0)
		}
		o.orig = nil
		return false
	case 3: // the same numbers, as another numeric type
		o.orig = nil
		return m.convert(o, i, pr)
	case 4: // swap two fields
		j := pr.pick(nf)
		(*fields)[i], (*fields)[j] = (*fields)[j], (*fields)[i]
		for _, b := range o.bodies {
			b.fields[i], b.fields[j] = b.fields[j], b.fields[i]
		}
	case 5: // rename a field away: the reader skips it
		fd := &(*fields)[i]
		m.freshIdent(fd, pr.next()&1 == 1)
		o.orig = nil
		for _, b := range o.bodies {
			if evValHasBareMap(b.fields[i], map[*evOcc]bool{}) {
				return false
			}
		}
		return !evHasBareMap(&fd.Type)
	case 6: // rename onto another identifier (a duplicate or a local one)
		fd := &(*fields)[i]
		switch pr.next() % 3 {
		case 0:
			src := (*fields)[pr.pick(nf)]
			fd.TagID, fd.Name = src.TagID, src.Name
		case 1:
			fd.TagID, fd.Name = -1, evLocalNames[pr.pick(len(evLocalNames))]
		default:
			if fd.TagID >= 0 {
				fd.TagID, fd.Name = -1, evLocalNames[pr.pick(len(evLocalNames))]
			} else {
				fd.TagID, fd.Name = pr.pick(16), ""
			}
		}
		o.orig = nil
		return false
	case 7: // flip nullability
		o.orig = nil
		return m.flipNullable(o, i, pr)
	case 8: // another registration
		if o.td.ByName {
			o.td.TypeName += "X"
		} else {
			o.td.UserID ^= 1 << pr.pick(12)
		}
		o.orig = nil
		return false
	case 9: // list ↔ dense array of the same numbers
		o.orig = nil
		return m.listArray(o, i, pr)
	case 10: // a second field with the same identifier and value
		fd := (*fields)[i]
		fd.Type = evCloneFT(fd.Type)
		j := pr.pick(nf + 1)
		*fields = slices.Insert(*fields, j, fd)
		for _, b := range o.bodies {
			b.fields = slices.Insert(b.fields, j, b.fields[i])
		}
		o.orig = nil
		return false
	case 11: // garbage instead of one value
		if len(o.bodies) > 0 {
			b := o.bodies[pr.pick(len(o.bodies))]
			junk := make([]byte, pr.pick(10))
			for j := range junk {
				junk[j] = byte(m.rng.Uint32())
			}
			b.fields[i] = evVal{{raw: junk}}
		}
		return false
	}
	o.orig = nil
	return true
}

func (m *evMutator) freshIdent(fd *meta.FieldDef, tag bool) {
	m.fresh++
	if tag {
		fd.TagID, fd.Name = 100+m.fresh, ""
	} else {
		fd.TagID, fd.Name = -1, "xf"+strconv.Itoa(m.fresh)
	}
}

// evHasBareMap reports whether ft holds a map with struct values, whose
// chunks (as Go writes them) carry no TypeDef: such a field cannot be
// skipped.
func evHasBareMap(ft *meta.FieldType) bool {
	if ft.TypeID == 24 && len(ft.Children) == 2 && (isStructID(ft.Children[0].TypeID) || isStructID(ft.Children[1].TypeID)) {
		return true
	}
	for i := range ft.Children {
		if evHasBareMap(&ft.Children[i]) {
			return true
		}
	}
	return false
}

// evValHasBareMap reports whether a schema used inside v has a field that
// evHasBareMap: skipping v then fails.
func evValHasBareMap(v evVal, seen map[*evOcc]bool) bool {
	for _, pc := range v {
		if o := pc.meta; o != nil && !seen[o] {
			seen[o] = true
			for i := range o.td.Fields {
				if evHasBareMap(&o.td.Fields[i].Type) {
					return true
				}
			}
		}
		if pc.body != nil {
			for _, f := range pc.body.fields {
				if evValHasBareMap(f, seen) {
					return true
				}
			}
		}
	}
	return false
}

// rawVal returns the bytes of a value made of raw pieces only.
func rawVal(v evVal) ([]byte, bool) {
	var out []byte
	for _, pc := range v {
		if pc.raw == nil && (pc.meta != nil || pc.body != nil) {
			return nil, false
		}
		out = append(out, pc.raw...)
	}
	return out, true
}

var evNumericIDs = []uint8{2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 19, 20}

// convert rewrites numeric field i as another numeric type. With exact
// values it is predictable; otherwise, sometimes, the values are written
// converted anyway (a mismatch, or a different value the reader accepts).
func (m *evMutator) convert(o *evOcc, i int, pr *evProg) bool {
	fd := &o.td.Fields[i]
	if !isNumericID(fd.Type.TypeID) {
		return true
	}
	to := evNumericIDs[pr.pick(len(evNumericIDs))]
	type parsed struct {
		present bool
		n       evNum
	}
	vals := make([]parsed, len(o.bodies))
	exact := true
	for j, b := range o.bodies {
		raw, ok := rawVal(b.fields[i])
		if !ok {
			return true
		}
		r := evReader{b: raw}
		if fd.Nullable {
			f, ok := r.u8()
			if !ok || f != 0xff && f != 0xfd {
				return true
			}
			if f == 0xfd {
				continue
			}
		}
		n, ok := r.num(fd.Type.TypeID)
		if !ok || r.left() != 0 {
			return true
		}
		vals[j] = parsed{true, n}
		exact = exact && evExact(n, to)
	}
	if !exact && pr.next()&1 == 0 {
		return true
	}
	fd.Type.TypeID = to
	for j, b := range o.bodies {
		if !vals[j].present {
			continue
		}
		var out []byte
		if fd.Nullable {
			out = append(out, 0xff)
		}
		b.fields[i] = evVal{{raw: evAppendNum(out, to, vals[j].n)}}
	}
	return exact
}

// flipNullable makes field i nullable (a present value, or sometimes null)
// or not nullable (dropping the flag of present values; a null value gets
// a random one).
func (m *evMutator) flipNullable(o *evOcc, i int, pr *evProg) bool {
	fd := &o.td.Fields[i]
	if !fd.Nullable {
		fd.Nullable = true
		null := pr.next()%4 == 0
		for _, b := range o.bodies {
			if null {
				b.fields[i] = evVal{{raw: []byte{0xfd}}}
			} else {
				b.fields[i] = append(evVal{{raw: []byte{0xff}}}, b.fields[i]...)
			}
		}
		return !null
	}
	if !evWritable(&fd.Type) {
		// A null value needs a value of the field's type in its place,
		// and the byte-level mutations of the data can make a field of
		// a type the small encoder cannot write (all its values null).
		return false
	}
	fd.Nullable = false
	predictable := true
	for _, b := range o.bodies {
		v := b.fields[i]
		if len(v) == 0 || v[0].raw == nil || len(v[0].raw) == 0 {
			return false
		}
		if v[0].raw[0] != 0xff {
			b.fields[i] = m.randVal(&fd.Type, false, 0)
			predictable = false
			continue
		}
		nv := slices.Clone(v)
		nv[0].raw = nv[0].raw[1:]
		b.fields[i] = nv
	}
	return predictable
}

// evSeq describes the sequence types that convert into each other (§11.4
// point 3): lists of numbers or bools, dense arrays and BINARY.
func evSeq(ft *meta.FieldType) (elem uint8, dense bool) {
	switch ft.TypeID {
	case 22:
		if len(ft.Children) == 1 {
			if e := ft.Children[0].TypeID; e == 1 || isNumericID(e) {
				return e, false
			}
		}
		return 0, false
	case 41:
		return 9, true
	}
	arrays := map[uint8]uint8{43: 1, 44: 2, 45: 3, 46: 4, 47: 6, 48: 9, 49: 10, 50: 11, 51: 13, 55: 19, 56: 20}
	return arrays[ft.TypeID], arrays[ft.TypeID] != 0
}

// evDomain is the dense array of a sequence element, and the list element
// encodings of the same domain.
func evDomain(elem uint8) (arrays []uint8, elems []uint8) {
	switch elem {
	case 1:
		return []uint8{43}, []uint8{1}
	case 2:
		return []uint8{44}, []uint8{2}
	case 3:
		return []uint8{45}, []uint8{3}
	case 4, 5:
		return []uint8{46}, []uint8{4, 5}
	case 6, 7, 8:
		return []uint8{47}, []uint8{6, 7, 8}
	case 9:
		return []uint8{48, 41}, []uint8{9}
	case 10:
		return []uint8{49}, []uint8{10}
	case 11, 12:
		return []uint8{50}, []uint8{11, 12}
	case 13, 14, 15:
		return []uint8{51}, []uint8{13, 14, 15}
	case 19:
		return []uint8{55}, []uint8{19}
	case 20:
		return []uint8{56}, []uint8{20}
	}
	return nil, nil
}

func evWidth(elem uint8) int {
	switch elem {
	case 3, 10:
		return 2
	case 4, 11, 19:
		return 4
	case 6, 13, 20:
		return 8
	}
	return 1
}

// listArray rewrites sequence field i as a list if it is a dense array or
// BINARY, and as a dense array (or BINARY) if it is a list.
func (m *evMutator) listArray(o *evOcc, i int, pr *evProg) bool {
	fd := &o.td.Fields[i]
	elem, dense := evSeq(&fd.Type)
	if elem == 0 {
		return true
	}
	type parsed struct {
		present bool
		nums    []evNum
	}
	vals := make([]parsed, len(o.bodies))
	for j, b := range o.bodies {
		raw, ok := rawVal(b.fields[i])
		if !ok {
			return true
		}
		r := evReader{b: raw}
		if fd.Nullable {
			f, ok := r.u8()
			if !ok || f != 0xff && f != 0xfd {
				return true
			}
			if f == 0xfd {
				continue
			}
		}
		n, ok := r.varu32()
		if !ok || int64(n) > int64(r.left()) {
			return true
		}
		count := int(n)
		if dense {
			if count%evWidth(elem) != 0 {
				return true
			}
			count /= evWidth(elem)
		} else if count > 0 {
			h, ok := r.u8()
			if !ok || h != 0x0c {
				return true
			}
		}
		nums := make([]evNum, count)
		for k := range nums {
			if nums[k], ok = r.num(elem); !ok {
				return true
			}
		}
		if r.left() != 0 {
			return true
		}
		vals[j] = parsed{true, nums}
	}
	arrays, elems := evDomain(elem)
	var write func(nums []evNum) []byte
	if dense {
		to := elems[pr.pick(len(elems))]
		fd.Type = meta.FieldType{TypeID: 22, Children: []meta.FieldType{{TypeID: to, Nullable: pr.next()&1 == 1}}}
		write = func(nums []evNum) []byte {
			out := evVaru32(nil, uint32(len(nums)))
			if len(nums) > 0 {
				out = append(out, 0x0c)
			}
			for _, n := range nums {
				out = evAppendNum(out, to, n)
			}
			return out
		}
	} else {
		to := arrays[pr.pick(len(arrays))]
		fixed := map[uint8]uint8{4: 4, 5: 4, 6: 6, 7: 6, 8: 6, 11: 11, 12: 11, 13: 13, 14: 13, 15: 13}[elem]
		if fixed == 0 {
			fixed = elem
		}
		fd.Type = meta.FieldType{TypeID: to}
		write = func(nums []evNum) []byte {
			out := evVaru32(nil, uint32(len(nums)*evWidth(fixed)))
			for _, n := range nums {
				out = evAppendNum(out, fixed, n)
			}
			return out
		}
	}
	for j, b := range o.bodies {
		if !vals[j].present {
			continue
		}
		var out []byte
		if fd.Nullable {
			out = append(out, 0xff)
		}
		b.fields[i] = evVal{{raw: append(out, write(vals[j].nums)...)}}
	}
	return true
}

// ---------------------------------------------------------------------------
// Random schemas and values: the small encoder.

var (
	evScalarIDs = []uint8{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 17, 18, 19, 20, 21, 25, 37, 38, 39,
		41, 43, 44, 45, 46, 47, 48, 49, 50, 51, 53, 54, 55, 56}
	evKeyIDs = []uint8{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 21, 25}
)

func (m *evMutator) randType(depth int) meta.FieldType {
	ft := meta.FieldType{Nullable: m.rng.IntN(2) == 0}
	switch c := m.rng.IntN(12); {
	case depth < 2 && c == 0:
		ft.TypeID = 22
		if m.rng.IntN(4) == 0 {
			ft.TypeID = 23
		}
		ft.Children = []meta.FieldType{m.randType(depth + 1)}
	case depth < 2 && c == 1:
		ft.TypeID = 24
		key := meta.FieldType{TypeID: evKeyIDs[m.rng.IntN(len(evKeyIDs))]}
		ft.Children = []meta.FieldType{key, m.randType(depth + 1)}
	case depth < 3 && c == 2:
		ft.TypeID = 28
		if m.rng.IntN(2) == 0 {
			ft.TypeID = 30
		}
	default:
		ft.TypeID = evScalarIDs[m.rng.IntN(len(evScalarIDs))]
	}
	return ft
}

// randOcc returns a new struct schema: a genuine one of the message
// (whose random values the reader may decode on its fast path) or a
// random one.
func (m *evMutator) randOcc(depth int) *evOcc {
	if m.rng.IntN(3) == 0 && len(m.occs) > 0 && depth < 2 && m.budget > 0 {
		if src := m.occs[m.rng.IntN(len(m.occs))]; evTDWritable(src.td) {
			o := &evOcc{td: evCloneTD(src.td), orig: src.orig}
			m.occs = append(m.occs, o)
			return o
		}
	}
	m.fresh++
	td := &meta.TypeDef{Kind: 28, Compatible: true, UserID: uint32(5000 + m.fresh)}
	switch m.rng.IntN(4) {
	case 0:
		td.Kind, td.ByName, td.Namespace, td.TypeName = 30, true, "fuzz", "T"+strconv.Itoa(m.fresh)
	case 1:
		td.UserID = []uint32{901, 920, 922, 924}[m.rng.IntN(4)]
	}
	if depth < 3 && m.budget > 0 {
		for k := m.rng.IntN(4); k > 0; k-- {
			td.Fields = append(td.Fields, meta.FieldDef{TagID: -1, Name: "f" + strconv.Itoa(k),
				Nullable: m.rng.IntN(3) == 0, Type: m.randType(depth + 1)})
		}
	}
	o := &evOcc{td: td}
	m.occs = append(m.occs, o)
	return o
}

type evBuilder struct {
	v   evVal
	raw []byte
}

func (b *evBuilder) flush() {
	if len(b.raw) > 0 {
		b.v = append(b.v, evPiece{raw: b.raw})
		b.raw = nil
	}
}

func (b *evBuilder) piece(pc evPiece) {
	b.flush()
	b.v = append(b.v, pc)
}

// evWritable reports whether writeVal can write a value of type ft: a
// schema parsed from fuzzed bytes can hold any type id (FuzzEvolvedTypeDefs
// found a field of type id 57 whose values were all null).
func evWritable(ft *meta.FieldType) bool {
	switch ft.TypeID {
	case 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 17, 18, 19, 20, 21, 25, 37, 38, 39,
		41, 43, 44, 45, 46, 47, 48, 49, 50, 51, 53, 54, 55, 56, 27, 28, 29, 30:
		return true
	case 22, 23:
		return len(ft.Children) == 1 && evWritable(&ft.Children[0])
	case 24:
		return len(ft.Children) == 2 && evWritable(&ft.Children[0]) && evWritable(&ft.Children[1])
	}
	return false
}

// evTDWritable reports whether writeVal can write a body of td.
func evTDWritable(td *meta.TypeDef) bool {
	for i := range td.Fields {
		if !evWritable(&td.Fields[i].Type) {
			return false
		}
	}
	return true
}

func (m *evMutator) randVal(ft *meta.FieldType, nullable bool, depth int) evVal {
	b := &evBuilder{}
	m.writeVal(b, ft, nullable, depth)
	b.flush()
	return b.v
}

func (m *evMutator) randBody(o *evOcc, depth int) *evBody {
	body := &evBody{}
	for i := range o.td.Fields {
		fd := &o.td.Fields[i]
		body.fields = append(body.fields, m.randVal(&fd.Type, fd.Nullable, depth+1))
	}
	o.bodies = append(o.bodies, body)
	return body
}

// randInt returns an integer that is often an edge case.
func (m *evMutator) randInt() int64 {
	switch m.rng.IntN(6) {
	case 0:
		return []int64{0, 1, -1, math.MaxInt8, math.MinInt8, math.MaxInt16, math.MinInt16, math.MaxInt32,
			math.MinInt32, math.MaxInt64, math.MinInt64, 1 << 30, -1 << 30, 1<<31 - 1, 1 << 56, 1 << 53}[m.rng.IntN(16)]
	case 1, 2:
		return int64(m.rng.IntN(300)) - 150
	}
	return int64(m.rng.Uint64())
}

func (m *evMutator) writeVal(b *evBuilder, ft *meta.FieldType, nullable bool, depth int) {
	m.budget--
	if nullable {
		if m.rng.IntN(4) == 0 {
			b.raw = append(b.raw, 0xfd)
			return
		}
		b.raw = append(b.raw, 0xff)
	}
	rnd := func(n int) {
		for i := 0; i < n; i++ {
			b.raw = append(b.raw, byte(m.rng.Uint32()))
		}
	}
	switch id := ft.TypeID; id {
	case 1:
		b.raw = append(b.raw, byte(m.rng.IntN(2)))
	case 17, 18:
		rnd(2)
	case 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 19, 20:
		n := evNum{kind: 'i', i: m.randInt()}
		if m.rng.IntN(4) == 0 {
			n = evNum{kind: 'f', f: []float64{0, math.Copysign(0, -1), 1.5, math.Inf(1), math.NaN(), 1e300, -2.25}[m.rng.IntN(7)]}
		}
		b.raw = evAppendNum(b.raw, id, n)
	case 21:
		s := []string{"", "a", "héllo", "世界", "xf", "long string value for a field"}[m.rng.IntN(6)]
		b.raw = evVaru64(b.raw, uint64(len(s))<<2|2)
		b.raw = append(b.raw, s...)
	case 25:
		b.raw = evVaru32(b.raw, uint32(m.rng.IntN(5)))
	case 37:
		b.raw = evVaru64(b.raw, evZZ64(m.randInt()%(1<<40)))
		b.raw = evFixed(b.raw, uint64(m.rng.IntN(1e9)), 4)
	case 38:
		b.raw = evFixed(b.raw, uint64(m.randInt()%(1<<40)), 8)
		b.raw = evFixed(b.raw, uint64(m.rng.IntN(1e9)), 4)
	case 39:
		b.raw = evVaru64(b.raw, evZZ64(int64(m.rng.IntN(200000))-100000))
	case 41, 43, 44, 45, 46, 47, 48, 49, 50, 51, 53, 54, 55, 56:
		w := map[uint8]int{45: 2, 49: 2, 53: 2, 54: 2, 46: 4, 50: 4, 55: 4, 47: 8, 51: 8, 56: 8}[id]
		if w == 0 {
			w = 1
		}
		n := m.rng.IntN(5)
		b.raw = evVaru32(b.raw, uint32(n*w))
		if id == 43 {
			for i := 0; i < n; i++ {
				b.raw = append(b.raw, byte(m.rng.IntN(2)))
			}
		} else {
			rnd(n * w)
		}
	case 22, 23:
		n := m.rng.IntN(4)
		if m.budget <= 0 {
			n = 0
		}
		b.raw = evVaru32(b.raw, uint32(n))
		if n == 0 {
			return
		}
		elem := &ft.Children[0]
		hasNull := elem.Nullable && m.rng.IntN(2) == 0
		if isStructID(elem.TypeID) {
			o := m.randOcc(depth + 1)
			h := byte(0x08)
			if hasNull {
				h |= 0x02
			}
			b.raw = append(b.raw, h, o.td.Kind)
			b.piece(evPiece{meta: o})
			for i := 0; i < n; i++ {
				if hasNull {
					if m.rng.IntN(3) == 0 {
						b.raw = append(b.raw, 0xfd)
						continue
					}
					b.raw = append(b.raw, 0xff)
				}
				b.piece(evPiece{body: m.randBody(o, depth+1)})
			}
			return
		}
		h := byte(0x0c)
		if hasNull {
			h |= 0x02
		}
		b.raw = append(b.raw, h)
		for i := 0; i < n; i++ {
			m.writeVal(b, elem, hasNull, depth+1)
		}
	case 24:
		key, val := &ft.Children[0], &ft.Children[1]
		n := m.rng.IntN(4)
		if m.budget <= 0 {
			n = 0
		}
		nulls := 0
		if val.Nullable {
			nulls = m.rng.IntN(n + 1)
		}
		b.raw = evVaru32(b.raw, uint32(n))
		if k := n - nulls; k > 0 {
			if isStructID(val.TypeID) {
				// Java's form: the chunk carries the values' type meta,
				// so the map can be skipped.
				o := m.randOcc(depth + 1)
				b.raw = append(b.raw, 0x04, byte(k), o.td.Kind)
				b.piece(evPiece{meta: o})
				for i := 0; i < k; i++ {
					m.writeVal(b, key, false, depth+1)
					b.piece(evPiece{body: m.randBody(o, depth+1)})
				}
			} else {
				b.raw = append(b.raw, 0x24, byte(k))
				for i := 0; i < k; i++ {
					m.writeVal(b, key, false, depth+1)
					m.writeVal(b, val, false, depth+1)
				}
			}
		}
		for i := 0; i < nulls; i++ {
			b.raw = append(b.raw, 0x14)
			m.writeVal(b, key, false, depth+1)
		}
	case 27, 28, 29, 30:
		o := m.randOcc(depth + 1)
		b.raw = append(b.raw, o.td.Kind)
		b.piece(evPiece{meta: o})
		b.piece(evPiece{body: m.randBody(o, depth+1)})
	default:
		panic("writeVal: type id " + strconv.Itoa(int(id)))
	}
}

// ---------------------------------------------------------------------------
// The fuzz body.

// evOutcome is what one run of the fuzz body did, for
// TestEvolvedTypeDefsMachinery.
type evOutcome struct {
	parsed, checked bool  // the message was rewritten; the prediction was checked
	sentinel        error // the root type's decode error (nil: decoded)
}

func evFuzz(t *testing.T, data, prog []byte) (out evOutcome) {
	in := slices.Clone(data)
	msg, root, occs, ok := evParse(in)
	fresh := serializer.New()
	if !ok {
		// in holds whatever TypeDef hashes were repaired before the parse
		// gave up; the decoders see it as it is.
		evDecodeAll(t, fresh, in)
		return out
	}
	out.parsed = true
	genuine, known := evGenuine[evRegKey(root.td)]
	predict := known && bytes.Equal(root.orig, genuine.typeDef)
	baseline, ok := evEmit(msg)
	if !ok {
		t.Fatal("the unchanged message does not write again")
	}
	m := &evMutator{root: root, occs: occs, predict: predict}
	m.apply(prog)
	mutated, ok := evEmit(msg)
	if !ok {
		return out
	}
	evDecodeAll(t, fresh, mutated)

	if !known {
		return out
	}
	if _, err := evDecode(fresh, mutated, genuine.r.fresh); err != nil {
		_, out.sentinel = hostile.CheckError(t, err, mutated, goName(genuine.r))
	}
	// Writing the parsed message again does not change what it means.
	want, wantErr := evDecode(fresh, baseline, genuine.r.fresh)
	if orig, err := evDecode(fresh, in, genuine.r.fresh); err == nil {
		if wantErr != nil {
			t.Fatalf("the message decodes, but not once written again: %v\nin:  %x\nout: %x", wantErr, in, baseline)
		}
		if !evSame(orig, want) {
			t.Fatalf("the message written again decodes to another value:\n%#v\n%#v", orig, want)
		}
	}
	if !m.predict || wantErr != nil {
		return out
	}
	// The fields the new root schema lacks stay zero; the others decode
	// as before.
	have := map[string]bool{}
	for i := range root.td.Fields {
		have[evIdent(&root.td.Fields[i])] = true
	}
	wv := reflect.ValueOf(want).Elem()
	for id, idx := range evIdents(wv.Type()) {
		if !have[id] {
			wv.Field(idx).SetZero()
		}
	}
	got, err := evDecode(fresh, mutated, genuine.r.fresh)
	if err != nil {
		t.Fatalf("a predictable schema change (%x) fails to decode: %v\nbefore: %x\nafter:  %x", prog, err, baseline, mutated)
	}
	if !evSame(want, got) {
		t.Fatalf("a predictable schema change (%x) decodes to another value:\nwant %#v\ngot  %#v\nbefore: %x\nafter:  %x",
			prog, want, got, baseline, mutated)
	}
	out.checked = true
	return out
}

func evDecode(f *serializer.Fory, data []byte, fresh func() any) (any, error) {
	v := fresh()
	return v, f.Deserialize(slices.Clone(data), v)
}

func evSame(a, b any) bool {
	emptyNotNil(reflect.ValueOf(a))
	emptyNotNil(reflect.ValueOf(b))
	return sameValue(reflect.ValueOf(a), reflect.ValueOf(b))
}

// evDecodeAll decodes data into every e2e and narrow type, with a new Fory
// (the outcome depends on the input alone) and with the shared one (whose
// caches have seen every earlier input), checking the error contract.
func evDecodeAll(t *testing.T, fresh *serializer.Fory, data []byte) {
	in := slices.Clone(data)
	for _, fy := range []*serializer.Fory{fresh, fuzzCompatible} {
		for _, tg := range evTargets {
			v := tg.fresh()
			err := fy.Deserialize(in, v)
			if err != nil {
				hostile.CheckError(t, err, in, tg.typeName)
				continue
			}
			if _, err := fy.Serialize(v); err != nil {
				t.Fatalf("%s: a decoded value does not re-encode: %v\ninput: %x", tg.typeName, err, in)
			}
		}
	}
	if !bytes.Equal(in, data) {
		t.Fatal("Deserialize modified its input")
	}
}

// TestRemoteNameInErrorPath (CI finding of FuzzEvolvedTypeDefs, 2026-12-05):
// a field of the received schema with no local match is named in a
// DecodeError path as the peer sent it, quoted in brackets when it is not an
// identifier. Field names are meta strings, whose alphabets hold '$', '.'
// and '|'; a bare "p.f" would read as two path elements.
func TestRemoteNameInErrorPath(t *testing.T) {
	evInit(t)
	for _, tc := range []struct{ name, path string }{
		{"p$f32", `["p$f32"]`},
		{"p.f", `["p.f"]`},
		{"p|f", `["p|f"]`},
		{"xf_9", "xf_9"},
	} {
		msg, root, _, ok := evParse(slices.Clone(evSeeds[0]))
		if !ok {
			t.Fatal("the first seed does not parse")
		}
		// The first field, renamed away and made nullable: its value's
		// first byte, 0x40, is then read as a null flag and refused.
		fd := &root.td.Fields[0]
		fd.TagID, fd.Name, fd.Nullable = -1, tc.name, true
		root.orig = nil
		for _, b := range root.bodies {
			b.fields[0] = evVal{{raw: []byte{0x40}}}
		}
		data, ok := evEmit(msg)
		if !ok {
			t.Fatal("the rewritten message does not write")
		}
		g := evGenuine[evRegKey(root.td)]
		_, err := evDecode(serializer.New(), data, g.r.fresh)
		if err == nil {
			t.Fatalf("%q: a bad null flag decodes", tc.name)
		}
		de, _ := hostile.CheckError(t, err, data, goName(g.r))
		if de.Path != tc.path {
			t.Errorf("%q: DecodeError.Path = %q, want %q (%v)", tc.name, de.Path, tc.path, err)
		}
	}
}

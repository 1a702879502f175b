package foryimpl

import (
	"encoding/binary"
	"math/bits"
	"unsafe"

	"github.com/forygen/forygen/buffer"

	"github.com/forygen/forygen/internal/meta"
)

// Reference tracking (WithTrackRef, docs/format.md §2.1). With it, a value
// of a tracked kind is written behind a reference flag: 0x00 and the value
// the first time (the reader gives it the next reference id, counting from
// 0 in the order the flags appear), 0xFE and the id of the first occurrence
// afterwards, 0xFD for nil. A struct pointer is one object; a slice is its
// data pointer and length, as official Fory Go keys them.

// refKey identifies a written object: a pointer, or a slice's data pointer
// and length (n is -1 for a map).
type refKey struct {
	p unsafe.Pointer
	n int
}

// refTable maps written objects to their reference ids: open addressing
// over a power-of-two slice of at least refFirstSlots slots, emptied for
// the next message by a new generation instead of a clear
// (BenchmarkSerialize/SampleList/forygen-ref: 141 objects; a Go map took
// about 600 instructions an object). A new object whose first slot is
// free is recorded inline (recordNew); only a collision or a key seen
// before calls find. A small array scanned behind a 64-bit filter came
// first once: its filter, on the hash's middle bits, collided for most
// layouts of Sample's eight objects, and the search that followed cost
// as much as a tracked array (instructions.sh Sample forygen-ref
// Serialize: eight runs 1,787–1,887 with it, 1,762–1,838 with this;
// PERFORMANCE.md "Reference tracking, round 3").
type refTable struct {
	slots []refSlot
	gen   uint32
	// shift is 64 - log2(len(slots)): a key's first slot is its hash's top
	// bits, the ones Fibonacci hashing spreads (the middle bits collided
	// for the adjacent arrays of one Sample).
	shift uint8
	n     int
}

// refFirstSlots is the table's first size: eight times the objects of a
// Sample, so that a new object's first slot is taken by an earlier one in
// at most an eighth of the cases.
const refFirstSlots = 64

// hash spreads a key over the table: Fibonacci hashing, whose top bits
// index it (refTable.shift).
func (k refKey) hash() uint64 {
	return (uint64(uintptr(k.p)) ^ uint64(k.n)<<32) * 0x9e3779b97f4a7c15
}

type refSlot struct {
	k   refKey
	id  int32
	gen uint32
}

func (t *refTable) reset() {
	t.n = 0
	if len(t.slots) == 0 {
		return
	}
	if t.gen++; t.gen == 0 {
		clear(t.slots)
		t.gen = 1
	}
}

// recordNew records k as the next object and reports true when it is
// surely new: the first slot it probes is free, and the table has room.
// It inlines, so the common case of a tracked object costs no call; the
// caller calls find when it reports false (instructions.sh Sample
// forygen-ref Serialize: find's call and frame were about a third of a
// tracked array's cost).
func (t *refTable) recordNew(k refKey, hash uint64) bool {
	if 2*(t.n+1) > len(t.slots) {
		return false
	}
	s := &t.slots[hash>>(t.shift&63)]
	if s.gen == t.gen {
		return false
	}
	*s = refSlot{k: k, id: int32(t.n), gen: t.gen}
	t.n++
	return true
}

// lookup returns k's id, or records k with the next id and reports false.
func (t *refTable) lookup(k refKey) (int, bool) {
	hash := k.hash()
	if t.recordNew(k, hash) {
		return t.n - 1, false
	}
	return t.find(k, hash)
}

// find returns k's id, or records k with the next id and reports false;
// hash is k.hash().
func (t *refTable) find(k refKey, hash uint64) (int, bool) {
	if 2*(t.n+1) > len(t.slots) {
		t.grow()
	}
	mask := uint64(len(t.slots) - 1)
	for i := hash >> (t.shift & 63); ; i = (i + 1) & mask {
		s := &t.slots[i]
		if s.gen != t.gen {
			*s = refSlot{k: k, id: int32(t.n), gen: t.gen}
			t.n++
			return int(s.id), false
		}
		if s.k == k {
			return int(s.id), true
		}
	}
}

func (t *refTable) grow() {
	old, live := t.slots, t.gen
	// A new slice is all generation 0, which is never live.
	t.slots, t.gen = make([]refSlot, max(refFirstSlots, 2*len(old))), 1
	t.shift = uint8(64 - bits.TrailingZeros(uint(len(t.slots))))
	for _, s := range old {
		if s.gen == live && live != 0 {
			t.insertAt(s)
		}
	}
}

func (t *refTable) insertAt(s refSlot) {
	mask := uint64(len(t.slots) - 1)
	for i := s.k.hash() >> (t.shift & 63); ; i = (i + 1) & mask {
		if t.slots[i].gen != t.gen {
			s.gen = t.gen
			t.slots[i] = s
			return
		}
	}
}

// TrackRef reports whether the message is written with reference tracking.
func (c *WriteContext) TrackRef() bool { return c.trackRef }

// resetRefs empties the table of written objects for the next message.
func (c *WriteContext) resetRefs() { c.refs.reset() }

// WriteRootRef records the root struct p as object 0: the root prefix
// already holds its 0x00 flag.
func WriteRootRef[T any](c *WriteContext, p *T) {
	if k := (refKey{unsafe.Pointer(p), 0}); !c.refs.recordNew(k, k.hash()) {
		c.refs.find(k, k.hash())
	}
}

// WriteRefPtr writes the reference flag of a tracked pointer: 0xFD for nil
// and 0xFE with its id for a pointer written before, and reports true, as
// nothing follows; or 0x00 for a new one, whose value the caller writes.
func WriteRefPtr[T any](c *WriteContext, p *T) bool {
	if p == nil {
		c.buf.WriteUint8(FlagNull)
		return true
	}
	return c.writeRef(refKey{unsafe.Pointer(p), 0})
}

// WriteRefFresh writes 0x00 for a tracked value that is never shared (a
// marshal=binary value, marshaled anew each time): it takes a reference
// id, as a peer reading 0x00 records one, so the ids after it stay in step.
func WriteRefFresh(c *WriteContext) { c.writeRef(c.refs.sliceKey(nil, 0)) }

// WriteRefSlice is WriteRefPtr for a tracked slice: a dense array, bytes or
// a list tagged ref.
func WriteRefSlice[E any](c *WriteContext, s []E) bool {
	if s == nil {
		c.buf.WriteUint8(FlagNull)
		return true
	}
	return c.writeRef(c.refs.sliceKey(unsafe.Pointer(unsafe.SliceData(s)), len(s)))
}

// sliceKey is a slice's identity in the table: its data pointer and
// length. A zero-length slice is never shared, since Go gives every one
// the same base address (official Go shares them, and cannot read its own
// bytes back: docs/format.md §14): each gets a key no other object has.
func (t *refTable) sliceKey(p unsafe.Pointer, n int) refKey {
	if n == 0 {
		return refKey{nil, -2 - t.n}
	}
	return refKey{p, n}
}

// WriteRefMap is WriteRefPtr for a map tagged ref (a Set included).
func WriteRefMap[K comparable, V any](c *WriteContext, m map[K]V) bool {
	if m == nil {
		c.buf.WriteUint8(FlagNull)
		return true
	}
	return c.writeRef(refKey{*(*unsafe.Pointer)(unsafe.Pointer(&m)), -1})
}

func (c *WriteContext) writeRef(k refKey) bool {
	b := c.buf
	hash := k.hash()
	if c.refs.recordNew(k, hash) {
		b.WriteUint8(meta.FlagRefValue)
		return false
	}
	id, seen := c.refs.find(k, hash)
	if seen {
		b.Reserve(1 + buffer.MaxVarUint32Len + buffer.BatchSlack)
		w, off := b.Window(), b.WriterIndex()
		buffer.PutUint8At(w, off, meta.FlagRef)
		b.SetWriterIndex(buffer.PutVarUint32At(w, off+1, uint32(id)))
		return true
	}
	b.WriteUint8(meta.FlagRefValue)
	return false
}

// The states ReadRefFlag reports.
const (
	// RefNull: the value is null (or the read failed).
	RefNull = iota
	// RefFollows: the value follows; a new object when the id is not -1.
	RefFollows
	// RefBack: a reference to the object with the id.
	RefBack
)

// refEntry is a read object: v holds a pointer or map; a slice is its data
// pointer and length in p and n, with v a nil *E naming its element type,
// so recording it allocates nothing.
type refEntry struct {
	v any
	p unsafe.Pointer
	n int
}

// TrackRef reports whether the message is read with reference tracking.
func (c *ReadContext) TrackRef() bool { return c.trackRef }

// ReadRefFlag reads the reference flag of a tracked value. For 0x00 it
// reserves the next reference id and returns it with RefFollows; the
// caller records the object with SetRef before reading anything that can
// refer to it. For 0xFF it returns RefFollows and -1, for 0xFE RefBack and
// the id, which is checked to be one already given.
func (c *ReadContext) ReadRefFlag() (state, id int) {
	r := &c.r
	f := r.ReadUint8()
	switch f {
	case FlagNotNull:
		return RefFollows, -1
	case meta.FlagRefValue:
		if !c.trackRef {
			break
		}
		if !c.newRef() {
			return RefNull, -1
		}
		return RefFollows, c.refs.n - 1
	case meta.FlagRef:
		if !c.trackRef {
			break
		}
		n := r.ReadVarUint32()
		if r.Err() != nil {
			return RefNull, -1
		}
		if uint64(n) >= uint64(c.refs.n) {
			r.Fail(malformed("reference to object %d, but only %d objects were read before it", n, c.refs.n))
			return RefNull, -1
		}
		return RefBack, int(n)
	case FlagNull:
		return RefNull, -1
	default:
		if r.Err() == nil {
			r.Fail(malformed("bad reference flag 0x%02x", f))
		}
		return RefNull, -1
	}
	if r.Err() == nil {
		r.Fail(malformed("reference flag 0x%02x %s", f, untrackedMessage))
	}
	return RefNull, -1
}

// ReadEvolvedValueFlag reads the flag before a value no reference can
// share (an enum, a struct value) in a field read with another writer's
// schema, and reports whether the value follows: none when the remote
// field has no flag, a reference flag as ReadValueFlag reads it in a
// tracked message (unless the value is converted), else a null flag.
func (c *ReadContext) ReadEvolvedValueFlag(f *EvolvedField) bool {
	if !f.Flag {
		return true
	}
	if c.trackRef && !f.Convert {
		return c.ReadValueFlag()
	}
	return c.ReadFlag()
}

// ReadValueFlag reads the flag of a tracked kind that is held by value (an
// enum, a struct value): 0xFF, or 0x00, which takes a reference id no
// valid message can refer back to. It reports whether the value follows;
// null is refused, as a value cannot be nil.
func (c *ReadContext) ReadValueFlag() bool {
	st, _ := c.ReadRefFlag()
	if st == RefFollows {
		return true
	}
	if c.r.Err() == nil {
		if st == RefNull {
			c.r.Fail(malformed("null for a value that cannot be nil"))
		} else {
			c.r.Fail(malformed("a reference where a value that cannot be shared was expected"))
		}
	}
	return false
}

// TrackedFieldFlags reports whether a tracked message flags the fields the
// other languages write bare in same-schema mode (plan.Field.Unflagged:
// struct and enum values, dense arrays, binaries): in compatible mode, whose
// TypeDef declares the flag, or in official Go's form (docs/format.md §14.30).
func (c *ReadContext) TrackedFieldFlags() bool { return c.fieldFlags }

// ReadEvolvedRefFlag reads the flag of a slice field read with another
// writer's schema (ForyReadEvolved) as a reference state: with tracking and
// a flag that is not converted, the reference flag (ReadRefFlag); without
// tracking, the null flag (RefNull or RefFollows); without a flag,
// RefFollows. A slice that follows has id -1 unless tracked.
func (c *ReadContext) ReadEvolvedRefFlag(f *EvolvedField) (state, id int) {
	if !f.Flag {
		return RefFollows, -1
	}
	return c.readEvolvedRefFlag(f)
}

func (c *ReadContext) readEvolvedRefFlag(f *EvolvedField) (state, id int) {
	if c.trackRef && !f.Convert {
		return c.ReadRefFlag()
	}
	if c.ReadFlag() {
		return RefFollows, -1
	}
	return RefNull, -1
}

// ReadFieldRefFlag is ReadRefFlag for a tracked field whose flag only some
// forms write (TrackedFieldFlags): without one, the value follows and has
// no reference id (SetRefSlice then records nothing).
func (c *ReadContext) ReadFieldRefFlag() (state, id int) {
	if !c.TrackedFieldFlags() {
		return RefFollows, -1
	}
	return c.ReadRefFlag()
}

// TrackedFieldFlags is ReadContext.TrackedFieldFlags for the writer.
func (c *WriteContext) TrackedFieldFlags() bool { return c.fieldFlags }

// ReadStructValueFlag reads what may precede a struct value field of type t
// in a tracked message and reports whether the value follows: in compatible
// mode the 0xFF its TypeDef declares; in same-schema mode official Go's
// 0xFF or nothing, as the other languages write it (docs/format.md §14.30).
// The two are told apart by the schema hash that starts the value: a
// leading 0xFF is a flag unless the four bytes there are t's hash.
func (c *ReadContext) ReadStructValueFlag(t *TypeInfo) bool {
	if !c.compatible {
		r := c.r
		in, off := r.Bytes(), r.Offset()
		if r.Remaining() < 1 || in[off] != meta.FlagNotNull {
			return true
		}
		if r.Remaining() >= 4 {
			if h := int32(binary.LittleEndian.Uint32(in[off:])); h == t.SchemaHash || t.OfficialGoHash != 0 && h == t.OfficialGoHash {
				return true
			}
		}
	}
	return c.ReadValueFlag()
}

// ReadOptionalFlag reads the flag of a tracked kind held in a
// serializer.Optional (an enum): 0xFF or 0x00 when the value follows, 0xFD
// when it is unset; a back-reference is refused, as the value cannot be
// shared.
func (c *ReadContext) ReadOptionalFlag() bool {
	st, _ := c.ReadRefFlag()
	if st == RefBack && c.r.Err() == nil {
		c.r.Fail(malformed("a reference where a value that cannot be shared was expected"))
	}
	return st == RefFollows
}

// SetRef records the object read for the id ReadRefFlag returned (nothing
// for -1).
func SetRef[T any](c *ReadContext, id int, p *T) {
	if id >= 0 {
		c.setRef(id, refEntry{v: p})
	}
}

// SetRefSlice is SetRef for a slice.
func SetRefSlice[E any](c *ReadContext, id int, s []E) {
	if id >= 0 {
		c.setRef(id, sliceEntry(s))
	}
}

// sliceEntry is the read table's entry of slice s.
func sliceEntry[E any](s []E) refEntry {
	p := unsafe.Pointer(unsafe.SliceData(s))
	if len(s) == 0 {
		p = unsafe.Pointer(&emptySlice)
	}
	return refEntry{v: (*E)(nil), p: p, n: len(s)}
}

// emptySlice marks a zero-length slice in the read table. Official Go
// writes every later empty dense array, binary or inner list of a message
// as a reference to the first, whatever its type, because Go gives them
// one base address (docs/format.md §14): a reference to an empty slice
// reads as an empty slice of the type the reader expects, as nothing of
// it can be lost.
var emptySlice byte

// SetRefMap is SetRef for a map.
func SetRefMap[K comparable, V any](c *ReadContext, id int, m map[K]V) {
	if id >= 0 {
		c.setRef(id, refEntry{v: m})
	}
}

// BackRef returns the object id refers to, which must be a *T.
func BackRef[T any](c *ReadContext, id int) *T {
	p, ok := c.refs.get(id).v.(*T)
	if !ok || p == nil {
		c.badRef(id, "a struct pointer")
	}
	return p
}

// BackRefSlice returns the slice id refers to, which must be a []E.
func BackRefSlice[E any](c *ReadContext, id int) []E {
	e := c.refs.get(id)
	if e.p == unsafe.Pointer(&emptySlice) {
		return []E{}
	}
	if tag, ok := e.v.(*E); !ok || tag != nil {
		c.badRef(id, "a slice")
		return nil
	}
	if e.p == nil {
		return []E{}
	}
	return unsafe.Slice((*E)(e.p), e.n)
}

// BackRefMap returns the map id refers to, which must be a map[K]V.
func BackRefMap[K comparable, V any](c *ReadContext, id int) map[K]V {
	m, ok := c.refs.get(id).v.(map[K]V)
	if !ok || m == nil {
		c.badRef(id, "a map")
	}
	return m
}

func (c *ReadContext) badRef(id int, want string) {
	if c.r.Err() != nil {
		return
	}
	if c.refs.get(id).v == nil {
		c.r.Fail(malformed("reference to object %d, which is still being read or cannot be shared, where %s was expected", id, want))
		return
	}
	c.r.Fail(mismatch("reference to object %d, which is another type, where %s was expected", id, want))
}

// ReadMapChunkRef is ReadMapChunk for a map whose values are tracked (struct
// pointers or collections), read with reference tracking: tracked reports
// the chunk's value tracking bit, which puts a reference flag before every
// value of the chunk. valType is the TypeInfo of struct values, nil for
// other values, whose type id is valID.
func (c *ReadContext) ReadMapChunkRef(remaining int, keyID, valID byte, valType *TypeInfo) (size int, valNull, tracked bool, ev *Evolution) {
	in, off := c.r.Bytes(), c.r.Offset()
	if off < len(in) && in[off]&meta.MapValueTrackRef != 0 && in[off]&(meta.MapKeyTrackRef|meta.MapValueHasNull|^meta.MapChunkBits) == 0 {
		// Clear the bit for the shared chunk checks, on a copy of the
		// header byte: the input is not modified.
		h := in[off] &^ meta.MapValueTrackRef
		c.r.Skip(1)
		size, valNull, undeclared := c.readMapChunkAfter(h, remaining, keyID)
		if undeclared {
			if valType != nil {
				ev = c.ReadStructMeta(valType)
			} else {
				c.expectTypeID(valID)
			}
		}
		return size, valNull, true, ev
	}
	size, valNull, ev = c.ReadMapChunk(remaining, keyID, valID, valType, true)
	return size, valNull, false, ev
}

// AcceptRootRef is AcceptRoot for a message read with reference tracking
// whose prefix (flag 0x00) the generated reader matched: the root x is
// object 0.
func AcceptRootRef(c *ReadContext, n int, t *TypeInfo, x Message) {
	c.acceptRoot(n, t, t.tracked.self)
	c.newRef()
	c.setRef(0, refEntry{v: x})
}

// PutRefSliceAt is WriteRefSlice for a tracked slice written inside a run
// of put-at stores: it writes the reference flag at w[off:] (a
// back-reference and its id, null, or 0x00 after recording a new slice)
// and returns the offset after it, and whether the slice's value follows.
// The run's reserve counts the flag and an id. field is set for a dense
// array field, whose flag only some forms write (TrackedFieldFlags): in
// the others it writes nothing and the value follows. The form is checked
// here, not in an inlined wrapper: the generated writers are too large for
// the compiler to inline a call into, and a second call per array costs
// more than the check (instructions.sh Sample forygen-ref Serialize).
func PutRefSliceAt[E any](c *WriteContext, w []byte, off int, s []E, field bool) (int, bool) {
	if field && !c.TrackedFieldFlags() {
		return off, true
	}
	if s == nil {
		buffer.PutUint8At(w, off, meta.FlagNull)
		return off + 1, false
	}
	k := c.refs.sliceKey(unsafe.Pointer(unsafe.SliceData(s)), len(s))
	hash := k.hash()
	if c.refs.recordNew(k, hash) {
		buffer.PutUint8At(w, off, meta.FlagRefValue)
		return off + 1, true
	}
	id, seen := c.refs.find(k, hash)
	if seen {
		buffer.PutUint8At(w, off, meta.FlagRef)
		return buffer.PutVarUint32At(w, off+1, uint32(id)), false
	}
	buffer.PutUint8At(w, off, meta.FlagRefValue)
	return off + 1, true
}

// refEntrySize is what one read object costs in the read table.
const refEntrySize = uint64(unsafe.Sizeof(refEntry{}))

// readRefs is the read table: the objects read so far, by reference id.
// A message can give a new id per input byte (a 00 flag before a value that
// takes no bytes, such as NONE), so the table is kept in chunks of
// refChunk entries, each allocated when an entry in it is first recorded
// and charged to the allocation budget then: an appended slice would copy
// the table at every growth, and the copies would cost memory and time the
// budget did not see (issue 25 item 2: 188 MB and 340 ns per input byte for
// a []any of a million 00 flags), and ids given to values that are never
// recorded (NONE, a value the reader cannot share) take no memory at all.
// The first chunk grows by doubling from refFirstChunk entries, charged at
// each growth, so a small message pays for a small table; it is the only
// chunk kept between messages.
type readRefs struct {
	// chunks[i] holds ids i*refChunk on, len == cap; a nil chunk has no
	// entry recorded.
	chunks [][]refEntry
	// n is the number of ids given; used is the number of ids below which
	// an entry past the first chunk may have been recorded (what reset
	// clears there; in the first chunk it clears the first n).
	n, used int
	// first is chunks[0], for setRef's inlined case.
	first []refEntry
}

const (
	refChunkBits  = 10
	refChunk      = 1 << refChunkBits
	refFirstChunk = 8
)

// get returns the entry of id, which must be below t.n: the zero entry
// when none was recorded.
func (t *readRefs) get(id int) refEntry {
	if i, j := id>>refChunkBits, id&(refChunk-1); i < len(t.chunks) && j < len(t.chunks[i]) {
		return t.chunks[i][j]
	}
	return refEntry{}
}

// len is the number of ids given.
func (t *readRefs) len() int { return t.n }

// reset empties the table for the next message, keeping the first chunk.
func (t *readRefs) reset() {
	n := t.n
	t.n = 0
	if n == 0 {
		return
	}
	// One or two entries are zeroed by stores: clear's memclrHasPointers
	// and its write-barrier pass cost about 50 instructions for the one
	// entry of a tracked message whose root is its only object, stores
	// about 13 an entry, clear about 100 for Sample's 8 (instructions.sh
	// SmallMessage and Sample forygen-ref Deserialize).
	if first := t.first[:min(len(t.first), n)]; len(first) <= 2 {
		// Field by field: the compiler turns a loop of whole-entry
		// stores back into clear.
		for i := range first {
			e := &first[i]
			e.v, e.p, e.n = nil, nil, 0
		}
	} else {
		clear(first)
	}
	if len(t.chunks) > 1 {
		for i, ch := range t.chunks[1:] {
			if lo := (i + 1) << refChunkBits; lo < t.used {
				clear(ch[:min(len(ch), t.used-lo)])
			}
		}
		clear(t.chunks[1:])
		t.chunks = t.chunks[:1]
	}
	t.used = 0
}

// newRef gives the next reference id to an object whose value follows; the
// entry takes memory, charged, only when setRef records an object for it.
func (c *ReadContext) newRef() bool {
	c.refs.n++
	return true
}

// setRef records e for id, which newRef gave, allocating its chunk the
// first time, charged to the allocation budget (WithAllocLimit); once the
// budget is spent it records ErrLimit and nothing else.
func (c *ReadContext) setRef(id int, e refEntry) {
	// The first chunk's case inlines (instructions.sh Sample forygen-ref
	// Deserialize: eight objects a message).
	if first := c.refs.first; uint(id) < uint(len(first)) {
		first[id] = e
	} else {
		c.setRefChunked(id, e)
	}
}

// setRefChunked is setRef past the first chunk, or before it is allocated.
func (c *ReadContext) setRefChunked(id int, e refEntry) {
	t := &c.refs
	if i, j := id>>refChunkBits, id&(refChunk-1); i < len(t.chunks) && j < len(t.chunks[i]) {
		t.chunks[i][j] = e
		t.used = max(t.used, id+1)
		return
	}
	if c.growRefs(id) {
		t.chunks[id>>refChunkBits][id&(refChunk-1)] = e
		t.used = max(t.used, id+1)
	}
}

// growRefs is setRef's slow path: id's chunk is missing or, for the first
// chunk, too short. The chunk list grows by doubling, the first chunk by
// doubling up to refChunk entries, and every allocation is charged.
func (c *ReadContext) growRefs(id int) bool {
	t := &c.refs
	i, j := id>>refChunkBits, id&(refChunk-1)
	if i >= len(t.chunks) {
		if i >= cap(t.chunks) {
			n := max(2*cap(t.chunks), i+1, 4)
			if !c.chargeOne(allocSize(uint64(n) * uint64(unsafe.Sizeof([]refEntry(nil))))) {
				return false
			}
			chunks := make([][]refEntry, len(t.chunks), n)
			copy(chunks, t.chunks)
			t.chunks = chunks
		}
		t.chunks = t.chunks[:i+1]
	}
	old := t.chunks[i]
	n := refChunk
	if i == 0 {
		n = min(max(2*len(old), refFirstChunk), refChunk)
		for n <= j {
			n *= 2
		}
	}
	if !c.chargeOne(allocSize(uint64(n) * refEntrySize)) {
		return false
	}
	ch := make([]refEntry, n)
	copy(ch, old)
	t.chunks[i] = ch
	if i == 0 {
		t.first = ch
	}
	return true
}

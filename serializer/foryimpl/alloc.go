package foryimpl

import (
	"math"
	"math/bits"
	"sort"
	"unsafe"
)

// The decode allocation budget (issue 6). Checking each declared length
// against the bytes that remain is not enough: nested containers can each
// claim all the remaining bytes, so the sum of their allocations grows with
// the nesting depth, and a list of large structs allocates its elements'
// size per input byte. So every allocation the input can size is charged
// to a budget of defaultAllocPerByte × len(input) + defaultAllocBase bytes
// per decode before it is made; a decode that would go past it fails with
// ErrLimit. Legitimate messages stay far below it: a value takes at most
// a few dozen bytes of memory per byte of its encoding, except when a
// compatible-mode writer's schema lacks most of the reader's fields.
const (
	defaultAllocPerByte = 64
	defaultAllocBase    = 64 << 10
	// allocReserve is kept back from the budget for what a decode allocates
	// that is not charged (the error value, its field path, TypeDef
	// bookkeeping), so that the total stays within the bound.
	allocReserve = 16 << 10
)

// allocBudget is the budget for one decode of n input bytes.
func (o *Config) allocBudget(n int) uint64 {
	hi, lo := bits.Mul64(uint64(n), uint64(o.AllocPerByte))
	if hi != 0 {
		return 1<<64 - 1
	}
	b := lo + uint64(o.AllocBase)
	if b < lo {
		return 1<<64 - 1
	}
	if b > allocReserve {
		b -= allocReserve
	}
	return b
}

// charge takes n values of size bytes from the allocation budget, or
// records ErrLimit and returns false.
func (c *ReadContext) charge(n, size uint64) bool {
	if size != 0 && n > c.budget/size {
		if c.r.Err() == nil {
			c.r.Fail(limit("decoding needs more memory than %d bytes per input byte (WithAllocLimit)", c.opts.AllocPerByte))
		}
		c.budget = 0
		return false
	}
	c.budget -= n * size
	return true
}

// chargeOne is charge(1, size), which inlines: no division, and the
// failure out of line (BenchmarkDeserializeFresh/Sample: one charge per
// slice).
func (c *ReadContext) chargeOne(size uint64) bool {
	if size <= c.budget {
		c.budget -= size
		return true
	}
	return c.charge(1, size)
}

// MakeSlice returns make(S, n) once n elements fit the decode's allocation
// budget; otherwise it records ErrLimit and returns nil. Generated code
// calls it after ReadLength has checked n against the remaining input.
func MakeSlice[S ~[]E, E any](c *ReadContext, n int) S {
	var e E
	size := uint64(unsafe.Sizeof(e))
	if n < 0 || size != 0 && uint64(n) > math.MaxUint64/size || !c.chargeOne(allocSize(uint64(n)*size)) {
		return nil
	}
	return make(S, n)
}

// sizeClasses are the Go allocator's size classes for small objects
// (runtime/sizeclasses.go, Go 1.21 to 1.26): an allocation of n bytes
// takes the first class of at least n.
var sizeClasses = [...]uint16{8, 16, 24, 32, 48, 64, 80, 96, 112, 128, 144, 160, 176, 192, 208, 224, 240, 256,
	288, 320, 352, 384, 416, 448, 480, 512, 576, 640, 704, 768, 896, 1024, 1152, 1280, 1408, 1536, 1792, 2048,
	2304, 2688, 3072, 3200, 3456, 4096, 4864, 5376, 6144, 6528, 6784, 6912, 8192, 9472, 9728, 10240, 10880,
	12288, 13568, 14336, 16384, 18432, 19072, 20480, 21760, 24576, 27264, 28672, 32768}

// classBy8 and classBy128 map a size, in steps of 8 bytes up to 1 KiB and
// of 128 bytes above, to its class, as the runtime's own tables do: a
// lookup instead of a search (BenchmarkDoS/read:_100k_zero-field_structs,
// which charges one allocation per element).
var classBy8, classBy128 = func() (by8 [1024/8 + 1]uint16, by128 [(32768-1024)/128 + 1]uint16) {
	class := func(n int) uint16 {
		i := sort.Search(len(sizeClasses), func(i int) bool { return int(sizeClasses[i]) >= n })
		return sizeClasses[i]
	}
	for i := range by8 {
		by8[i] = class(max(i*8, 1))
	}
	for i := range by128 {
		by128[i] = class(1024 + i*128)
	}
	return
}()

// allocSize is what the allocator gives for a request of n bytes: its size
// class, or for a large object a whole number of 8 KiB pages. Charging it,
// not the size asked for, keeps the decode budget a bound on memory.
func allocSize(n uint64) uint64 {
	if n == 0 {
		return 0
	}
	if n <= 1024 {
		return uint64(classBy8[(n+7)>>3])
	}
	if n <= 32768 {
		return uint64(classBy128[(n-1024+127)>>7])
	}
	const page = 8192
	if n > math.MaxUint64-page {
		return math.MaxUint64
	}
	return (n + page - 1) / page * page
}

// mapSlotOverhead is charged per map slot beyond the key and value: the
// control byte of Go's map groups; mapHeaderCost is the map header.
const (
	mapSlotOverhead = 1
	mapHeaderCost   = 48
)

// MakeMap returns make(M, n) once a map of n entries fits the decode's
// allocation budget; otherwise it records ErrLimit and returns an empty
// map. The charge follows Go's map layout: groups of 8 slots, filled to at
// most 7/8, tables sized by powers of two.
func MakeMap[M ~map[K]V, K comparable, V any](c *ReadContext, n int) M {
	var k K
	var v V
	// An empty map is its header; slots come in groups of 8, filled to at
	// most 7/8, in tables sized by powers of two.
	slots := uint64(0)
	switch {
	case n > 7:
		slots = 1 << bits.Len64(uint64(n)*8/7)
	case n > 0:
		slots = 8
	}
	if n < 0 || !c.chargeOne(mapHeaderCost) ||
		!c.charge(slots, uint64(unsafe.Sizeof(k))+uint64(unsafe.Sizeof(v))+mapSlotOverhead) {
		return M{}
	}
	return make(M, n)
}

// Alloc returns new(T), charged to the decode's allocation budget; when the
// budget is exhausted it records ErrLimit (and still returns a pointer, so
// generated code needs no nil check on the error path).
func Alloc[T any](c *ReadContext) *T {
	var z T
	c.chargeOne(allocSize(uint64(unsafe.Sizeof(z))))
	return new(T)
}

// Per-field allocation of a parsed TypeDef (a meta.FieldDef, its child
// types and name) and of a field mapping (an EvolvedField and its name),
// rounded up from measurements (e2e TestAllocTypeDefs).
const (
	typeDefFieldCost   = 160
	typeDefBaseCost    = 512
	evolutionFieldCost = 64
	evolutionBaseCost  = 256
)

// typeDefCost is the allocation charged for a received TypeDef of n bytes
// with fields fields: the parsed form and the cache key copy.
func typeDefCost(n, fields int) uint64 {
	return typeDefBaseCost + uint64(n) + typeDefFieldCost*uint64(fields)
}

// evolutionCost is the allocation charged for matching a TypeDef of fields
// fields to a local type.
func evolutionCost(fields int) uint64 {
	return evolutionBaseCost + evolutionFieldCost*uint64(fields)
}

// cacheEntryCost is charged per entry when a decode adds a schema to a
// type's cache (remotes.go), which copies the entry list (a pointer each)
// and adds an entry with the TypeDef's bytes, whose copy typeDefCost has
// charged already.
const cacheEntryCost = 64

// ReuseSlice returns old[:n] when old is non-nil and has room for n
// elements, and MakeSlice's new slice otherwise. Generated readers pass the
// target's previous slice, so decoding into a reused value reuses its
// backing arrays, as encoding/json does (BenchmarkDeserialize/SampleList).
// The reader overwrites or zeroes every element; a struct element keeps its
// own slices for reuse in turn. A slice the caller kept from the previous
// value sees the new elements. n is a length ReadLength or ReadArrayLength
// returned, so never negative.
func ReuseSlice[S ~[]E, E any](c *ReadContext, old S, n int) S {
	// Small enough to inline into the generated reader, which a test of n
	// as unsigned would not be: n is not negative (BenchmarkFixedCost/
	// DeserializeWithContext).
	if old == nil || n > cap(old) {
		return MakeSlice[S](c, n)
	}
	return old[:n]
}

// claimSet is the set of backing arrays of the target's tracked slices
// reused in this message (ReadRefArray, ReadRefBoolArray). A previous
// message may have made two of the target's tracked slices one object (a
// back-reference gives the same slice), and reusing that memory for both
// would give one field the other's elements (issue 25 item 1). So each
// backing array is reused by the first tracked slice that claims it in a
// message, and the others get new slices. A back-reference shares the
// slice itself, so its data pointer is the key; a slice of no capacity has
// no memory to share (every one has the same data pointer) and claims
// nothing. The set is open addressing over a power-of-two table of addresses,
// emptied for the next message by a new generation. An address is kept as
// a uintptr, which costs no write barrier and keeps nothing alive: every
// address in the set is of an array the target still holds until the
// message ends (it was reused), so no other object can take its address
// while the set is in use. The first probe (claimNew) inlines into
// ReadRefArray, one multiply and one compare where a refTable record took
// a call, a filter and at times a search (instructions.sh Sample
// forygen-ref Deserialize). It is not a refTable, the write side's table
// of the same shape: refTable's 24-byte slots hold a pointer and an id,
// and reading SampleList with tracking through one cost 2.8 % more
// (51,641 against 50,224 instructions, median of five).
type claimSet struct {
	slots []claimSlot
	gen   uint32
	shift uint8 // 64 - log2(len(slots)): an address's first slot is its hash's top bits
	// room is how many more addresses the table takes before it is half
	// full and grows.
	room int
}

type claimSlot struct {
	p   uintptr
	gen uint32
}

// claimNew records p and reports true when the first slot p probes is
// free and the table has room: p is surely new. It calls nothing, so it
// inlines; claimSlow decides the rest.
func (s *claimSet) claimNew(p uintptr) bool {
	if i := uint64(p) * 0x9e3779b97f4a7c15 >> (s.shift & 63); s.room > 0 && i < uint64(len(s.slots)) && s.slots[i].gen != s.gen {
		s.slots[i] = claimSlot{p, s.gen}
		s.room--
		return true
	}
	return false
}

// claimSlow decides what claimNew did not: it probes on, records p if it
// is new and reports so, and grows the table (to 16 slots at first) when
// it is half full.
func (s *claimSet) claimSlow(p uintptr) bool {
	if s.room <= 0 {
		s.grow()
	}
	mask := uint64(len(s.slots) - 1)
	for i := uint64(p) * 0x9e3779b97f4a7c15 >> (s.shift & 63); ; i = (i + 1) & mask {
		sl := &s.slots[i]
		if sl.gen != s.gen {
			*sl = claimSlot{p, s.gen}
			s.room--
			return true
		}
		if sl.p == p {
			return false
		}
	}
}

// grow doubles the table and moves the current generation's addresses.
func (s *claimSet) grow() {
	old, gen := s.slots, s.gen
	size := max(16, 2*len(old))
	s.slots, s.gen, s.room = make([]claimSlot, size), 1, size/2
	s.shift = uint8(64 - bits.TrailingZeros(uint(size)))
	for _, sl := range old {
		if sl.gen == gen {
			s.claimSlow(sl.p)
		}
	}
}

// reset empties the set for the next message.
func (s *claimSet) reset() {
	if s.room == len(s.slots)/2 {
		return
	}
	s.room = len(s.slots) / 2
	if s.gen++; s.gen == 0 {
		clear(s.slots)
		s.gen = 1
	}
}

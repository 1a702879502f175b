// Package buffer is the byte-level runtime of forygen's generated code: a
// growable write buffer, unchecked little-endian stores and loads, the
// varint and tagged integer encodings of the Fory xlang format
// (docs/format.md §3), and a bounds-checked [Reader] with sticky errors. It
// uses only the standard library and knows nothing about Fory types.
//
// Users need nothing from it: package serializer takes and returns byte
// slices (serializer.MarshalAppend appends to a reused one without
// allocating). It is to generated code what protowire is to protobuf's.
//
// # Writing: reserve, put-at, commit
//
// Generated serializers write a struct's primitive fields in three steps:
//
//	b.Reserve(maxBytes)       // one capacity check for the whole run
//	buf, off := b.Window(), b.WriterIndex()
//	buffer.PutInt32At(buf, off, v.A)              // fixed width at a known offset
//	off = buffer.PutVarInt64At(buf, off+4, v.B)   // varint composed in a register
//	b.SetWriterIndex(off)     // one commit
//
// maxBytes is a constant computed by the generator: the sum of the fields'
// maximum encoded widths ([MaxVarUint64Len], [MaxTaggedLen], ...) plus
// [BatchSlack], because a batched varint store writes whole 4- or 8-byte words
// and may overwrite up to BatchSlack bytes past its encoding. Those bytes are
// scratch: the next field or the next write overwrites them, and the writer
// index never covers them.
//
// The Put…At functions do not check bounds; Reserve is what makes them safe.
// The Write… methods are the checked convenience form (reserve, put, commit
// in one call) for code that is not on a hot path.
//
// # Reading
//
// [Reader] reads untrusted input. Every Read… method checks bounds; the first
// error is kept and every later read returns a zero value without moving, so
// generated code checks [Reader.Err] once per struct. A run of fixed-width
// fields takes one [Reader.Need] and then the unchecked Read…At loads on
// [Reader.Bytes], committed with [Reader.SetOffset].
package buffer

// Buffer is a growable byte buffer written through reserved windows. Its
// storage always has len == cap, so [Buffer.Window] exposes all of it, and the
// writer index marks the end of the written bytes.
type Buffer struct {
	buf []byte // storage; len(buf) == cap(buf)
	w   int    // writer index: buf[:w] is written
	// scratch is the caller's state for writing into this buffer (see
	// [Buffer.Scratch]); the buffer never reads it.
	scratch any
}

// Scratch returns the value last given to [Buffer.SetScratch]. A writer
// keeps per-call state there (the serializer keeps its write context):
// a Buffer is used by one goroutine at a time, so state attached to it
// needs no synchronization, unlike a shared pool (BenchmarkFixedCost).
func (b *Buffer) Scratch() any { return b.scratch }

// SetScratch attaches v to the buffer; Reset keeps it.
func (b *Buffer) SetScratch(v any) { b.scratch = v }

// New returns an empty Buffer with capacity bytes of storage.
func New(capacity int) *Buffer {
	if capacity < 0 {
		capacity = 0
	}
	return &Buffer{buf: make([]byte, capacity)}
}

// Reset empties the buffer and keeps its storage for reuse.
func (b *Buffer) Reset() { b.w = 0 }

// Adopt makes p the buffer's written bytes and p's spare capacity its free
// storage, as append would use it, and returns the storage the buffer held,
// so that a later Adopt(old[:0]) restores it. serializer.MarshalAppend
// writes into the caller's slice this way, without a copy.
func (b *Buffer) Adopt(p []byte) (old []byte) {
	old = b.buf
	b.buf, b.w = p[:cap(p)], len(p)
	return old
}

// Reserve makes sure that n bytes at [WriterIndex, WriterIndex+n) are
// writable, growing the storage if needed. It invalidates earlier Windows.
// A non-positive n does nothing.
func (b *Buffer) Reserve(n int) {
	// One comparison inline; growth stays out of line so Reserve inlines into
	// every generated writer.
	if len(b.buf)-b.w < n {
		b.grow(n)
	}
}

// grow reallocates so that n bytes past the writer index fit, at least
// doubling the storage so a sequence of Reserves costs amortized O(1) copies.
//
//go:noinline
func (b *Buffer) grow(n int) {
	need := b.w + n
	if need < b.w {
		panic("buffer: Reserve size overflows int")
	}
	c := 2 * len(b.buf)
	if c < need {
		c = need
	}
	if c < 64 {
		c = 64
	}
	// append copies the written bytes and rounds the capacity up to the
	// allocator's size class; the whole capacity then becomes storage.
	nb := append(b.buf[:b.w:b.w], make([]byte, c-b.w)...)
	b.buf = nb[:cap(nb)]
}

// Window returns the whole storage, len == capacity. Bytes from WriterIndex
// on are free to write after a Reserve; the slice is valid until the next
// Reserve, which may reallocate.
func (b *Buffer) Window() []byte { return b.buf }

// WriterIndex returns the number of bytes written, where the next write goes.
func (b *Buffer) WriterIndex() int { return b.w }

// SetWriterIndex commits a run of Put…At writes that ended at i. i must be
// within the storage (0 <= i <= len(Window())); it is not checked.
func (b *Buffer) SetWriterIndex(i int) { b.w = i }

// Bytes returns the written bytes. The slice aliases the storage: it is
// valid until the next write or Reset.
func (b *Buffer) Bytes() []byte { return b.buf[:b.w] }

// Len returns the number of bytes written.
func (b *Buffer) Len() int { return b.w }

// WriteUint8 appends v.
func (b *Buffer) WriteUint8(v uint8) {
	b.Reserve(1)
	PutUint8At(b.buf, b.w, v)
	b.w++
}

// WriteInt8 appends v.
func (b *Buffer) WriteInt8(v int8) { b.WriteUint8(uint8(v)) }

// WriteBool appends 1 for true, 0 for false.
func (b *Buffer) WriteBool(v bool) {
	b.Reserve(1)
	PutBoolAt(b.buf, b.w, v)
	b.w++
}

// WriteUint16 appends v little-endian.
func (b *Buffer) WriteUint16(v uint16) {
	b.Reserve(2)
	PutUint16At(b.buf, b.w, v)
	b.w += 2
}

// WriteInt16 appends v little-endian.
func (b *Buffer) WriteInt16(v int16) { b.WriteUint16(uint16(v)) }

// WriteUint32 appends v little-endian.
func (b *Buffer) WriteUint32(v uint32) {
	b.Reserve(4)
	PutUint32At(b.buf, b.w, v)
	b.w += 4
}

// WriteInt32 appends v little-endian.
func (b *Buffer) WriteInt32(v int32) { b.WriteUint32(uint32(v)) }

// WriteUint64 appends v little-endian.
func (b *Buffer) WriteUint64(v uint64) {
	b.Reserve(8)
	PutUint64At(b.buf, b.w, v)
	b.w += 8
}

// WriteInt64 appends v little-endian.
func (b *Buffer) WriteInt64(v int64) { b.WriteUint64(uint64(v)) }

// WriteFloat32 appends the IEEE 754 bits of v little-endian.
func (b *Buffer) WriteFloat32(v float32) {
	b.Reserve(4)
	PutFloat32At(b.buf, b.w, v)
	b.w += 4
}

// WriteFloat64 appends the IEEE 754 bits of v little-endian.
func (b *Buffer) WriteFloat64(v float64) {
	b.Reserve(8)
	PutFloat64At(b.buf, b.w, v)
	b.w += 8
}

// WriteVarUint32 appends v as varu32.
func (b *Buffer) WriteVarUint32(v uint32) {
	b.Reserve(MaxVarUint32Len + BatchSlack)
	b.w = PutVarUint32At(b.buf, b.w, v)
}

// WriteVarInt32 appends v as zz32.
func (b *Buffer) WriteVarInt32(v int32) {
	b.Reserve(MaxVarUint32Len + BatchSlack)
	b.w = PutVarInt32At(b.buf, b.w, v)
}

// WriteVarUint64 appends v as Fory varu64 (at most 9 bytes).
func (b *Buffer) WriteVarUint64(v uint64) {
	b.Reserve(MaxVarUint64Len + BatchSlack)
	b.w = PutVarUint64At(b.buf, b.w, v)
}

// WriteVarInt64 appends v as zz64.
func (b *Buffer) WriteVarInt64(v int64) {
	b.Reserve(MaxVarUint64Len + BatchSlack)
	b.w = PutVarInt64At(b.buf, b.w, v)
}

// WriteTaggedInt64 appends v as tagged i64 (4 or 9 bytes).
func (b *Buffer) WriteTaggedInt64(v int64) {
	b.Reserve(MaxTaggedLen)
	b.w = PutTaggedInt64At(b.buf, b.w, v)
}

// WriteTaggedUint64 appends v as tagged u64 (4 or 9 bytes).
func (b *Buffer) WriteTaggedUint64(v uint64) {
	b.Reserve(MaxTaggedLen)
	b.w = PutTaggedUint64At(b.buf, b.w, v)
}

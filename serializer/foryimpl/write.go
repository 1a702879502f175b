package foryimpl

import (
	"github.com/forygen/forygen/buffer"

	"github.com/forygen/forygen/internal/meta"
)

// WriteContext is the per-message state of a write. Generated code uses it;
// users do not need it.
type WriteContext struct {
	f          *Runtime // the options in use; see BeginWrite
	buf        *buffer.Buffer
	compatible bool
	maxDepth   int
	depth      int
	err        error
	// root is the message's root type, whose meta the generated root
	// prefix defines (BeginWrite): entry 0 of the table.
	root *TypeInfo
	// seen holds the other types whose meta this message defined. In
	// compatible mode it is the rest of the shared TypeDef table (§11.3):
	// the index of a TypeDef is its position plus one. In same-schema mode
	// it is the rest of the meta-string table: Go dedups namespace and
	// type name per registered type, two ref ids per type (§6.3, §14.8),
	// and the root's names, if it is registered by name, are the first two.
	seen []*TypeInfo
	// stack holds the values of the recursive types being written, from
	// the root down (Enter).
	stack []any
	// trackRef is the WithTrackRef option; refs holds the objects written
	// so far, by reference id (refs.go).
	trackRef bool
	// fieldFlags is TrackedFieldFlags, fixed with the options.
	fieldFlags bool
	refs       refTable
}

// Buffer returns the output buffer.
func (c *WriteContext) Buffer() *buffer.Buffer { return c.buf }

// Compatible reports whether the message is written in compatible mode.
func (c *WriteContext) Compatible() bool { return c.compatible }

// SchemaHash is the same-schema hash a generated writer writes for a
// struct whose two hashes differ: the other languages' (peers), or
// official Go's with WithOfficialGoForm (docs/format.md §14.29).
func (c *WriteContext) SchemaHash(peers, officialGo int32) int32 {
	if c.f.opts.OfficialGoForm {
		return officialGo
	}
	return peers
}

// Enter is called by a generated writer of a type that can contain itself
// before its body, with the value x (a pointer): it bounds the nesting depth
// so cyclic pointer data fails instead of overflowing the stack, and tells
// a cycle (x is already being written) from data nested too deep. It
// returns false once an error is recorded.
func (c *WriteContext) Enter(t *TypeInfo, x any) bool {
	c.depth++
	c.stack = append(c.stack, x)
	if c.depth > c.maxDepth {
		if c.err == nil {
			err := encodeLimit("structs nested deeper than the maximum depth %d (WithMaxDepth)", c.maxDepth)
			for _, y := range c.stack[:len(c.stack)-1] {
				if y == x {
					err = &detail{sentinel: ErrInvalidValue,
						msg: "a cycle: the value contains itself (enable WithTrackRef to write shared and cyclic pointers)"}
					break
				}
			}
			c.err = &EncodeError{Type: t.GoName, Err: err}
		}
		return false
	}
	return c.err == nil
}

// Leave ends a struct body started with Enter.
func (c *WriteContext) Leave() {
	c.depth--
	c.stack = c.stack[:len(c.stack)-1]
}

// Fail records an encode error.
func (c *WriteContext) Fail(err error) {
	if c.err == nil {
		c.err = err
	}
}

// WriteStructMeta writes the type meta of a struct value: `1b id` or the
// named form in same-schema mode, `1c`/`1e` and a shared TypeDef entry in
// compatible mode (docs/format.md §5, §11.3).
func (c *WriteContext) WriteStructMeta(t *TypeInfo) {
	if c.compatible && !t.metaByID() {
		c.writeSharedTypeDef(t.compatibleTypeID, t, t)
		return
	}
	c.writeConsistentMeta(t, t)
}

// WriteStructMetaPtr is WriteStructMeta for the element type of a []*T list:
// official Go keys its tables by Go type, so *T gets its own TypeDef table
// entry in compatible mode and its own meta strings in same-schema mode
// (written in full again after a []T of the same struct).
func (c *WriteContext) WriteStructMetaPtr(t *TypeInfo) {
	if c.compatible && !t.metaByID() {
		c.writeSharedTypeDef(t.compatibleTypeID, t.ptrKey, t)
		return
	}
	c.writeConsistentMeta(t.ptrKey, t)
}

func (c *WriteContext) writeSharedTypeDef(id byte, key, t *TypeInfo) {
	b := c.buf
	// A root without a TypeDef (a union registered by id) leaves entry 0
	// to the first type written here.
	idx, base := -1, 1
	if c.root == nil {
		base = 0
	}
	if key == c.root {
		idx = 0
	} else {
		for i, d := range c.seen {
			if d == key {
				idx = i + base
				break
			}
		}
	}
	if idx >= 0 {
		b.Reserve(1 + buffer.MaxVarUint32Len + buffer.BatchSlack)
		w, off := b.Window(), b.WriterIndex()
		buffer.PutUint8At(w, off, id)
		b.SetWriterIndex(buffer.PutVarUint32At(w, off+1, uint32(idx)<<1|1))
		return
	}
	c.seen = append(c.seen, key)
	idx = len(c.seen) - 1 + base
	td := t.TypeDef
	if c.trackRef {
		td = t.tracked.TypeDef
	}
	b.Reserve(1 + buffer.MaxVarUint32Len + len(td) + buffer.BatchSlack)
	w, off := b.Window(), b.WriterIndex()
	buffer.PutUint8At(w, off, id)
	off = buffer.PutVarUint32At(w, off+1, uint32(idx)<<1)
	off += copy(w[off:], td)
	b.SetWriterIndex(off)
}

// writeConsistentMeta writes t's same-schema type meta; key is t, or t's
// pointer key for []*T elements, whose names official Go writes again.
func (c *WriteContext) writeConsistentMeta(key, t *TypeInfo) {
	b := c.buf
	if !t.ByName {
		b.WriteBytes(t.ConsistentMeta)
		return
	}
	// The root's names, when it is registered by name, are entry 0.
	idx, base := -1, 0
	if c.root != nil && c.root.ByName {
		base = 1
	}
	if c.root == key {
		idx = 0
	} else {
		for i, n := range c.seen {
			if n == key {
				idx = i + base
				break
			}
		}
	}
	if idx < 0 {
		c.seen = append(c.seen, key)
		b.WriteBytes(t.ConsistentMeta)
		return
	}
	// Back-references to the namespace (id 2i) and type name (2i+1):
	// header ((ref_id+1) << 1) | 1 (§6.3).
	b.WriteUint8(t.consistentTypeID) // NAMED_STRUCT, or NAMED_ENUM for an enum in an any
	b.WriteVarUint32(uint32(2*idx+1)<<1 | 1)
	b.WriteVarUint32(uint32(2*idx+2)<<1 | 1)
}

// Map chunk headers Go writes for struct fields (docs/format.md §8.4): both sides
// declared, and a chunk of its own for a null value.
const (
	mapChunkDeclared = meta.MapKeyDeclared | meta.MapValueDeclared // 0x24
	mapChunkNullVal  = meta.MapKeyDeclared | meta.MapValueHasNull  // 0x14
)

// MapWriter writes the chunk framing of a map (docs/format.md §8.4); generated
// code writes the keys and values between its calls.
type MapWriter struct {
	sizeAt int // offset of the open chunk's size byte, -1 when none is open
	n      int // entries in the open chunk
	hdr    byte
}

// Begin writes the entry count.
func (m *MapWriter) Begin(b *buffer.Buffer, count int) {
	b.WriteVarUint32(uint32(count))
	m.sizeAt, m.n, m.hdr = -1, 0, mapChunkDeclared
}

// BeginTracked is Begin for a map whose values are tracked struct
// pointers: its chunks have the value tracking bit, and each value, nil
// included, is behind its reference flag (docs/format.md §8.4).
func (m *MapWriter) BeginTracked(b *buffer.Buffer, count int) {
	b.WriteVarUint32(uint32(count))
	m.sizeAt, m.n, m.hdr = -1, 0, mapChunkDeclared|meta.MapValueTrackRef
}

// Entry opens a chunk when needed; the entry's key and value follow.
func (m *MapWriter) Entry(b *buffer.Buffer) {
	if m.sizeAt < 0 || m.n == meta.MapChunkMax {
		m.close(b)
		b.Reserve(2)
		w, off := b.Window(), b.WriterIndex()
		buffer.PutUint8At(w, off, m.hdr)
		m.sizeAt = off + 1
		b.SetWriterIndex(off + 2)
	}
	m.n++
}

// NullEntry writes the header of an entry whose value is null; the key
// follows.
func (m *MapWriter) NullEntry(b *buffer.Buffer) {
	m.close(b)
	b.WriteUint8(mapChunkNullVal)
}

// NullKeyEntry writes the header of an entry whose key is null (a nil
// pointer key): 0x22, the value follows; NullKeyValueEntry the header of one
// whose key and value are both null, 0x12, nothing follows (docs/format.md
// §8.4, as official Go writes them).
func (m *MapWriter) NullKeyEntry(b *buffer.Buffer) {
	m.close(b)
	b.WriteUint8(meta.MapKeyHasNull | meta.MapValueDeclared)
}

// NullKeyValueEntry: see NullKeyEntry.
func (m *MapWriter) NullKeyValueEntry(b *buffer.Buffer) {
	m.close(b)
	b.WriteUint8(meta.MapKeyHasNull | meta.MapValueHasNull)
}

// End closes the last chunk.
func (m *MapWriter) End(b *buffer.Buffer) { m.close(b) }

func (m *MapWriter) close(b *buffer.Buffer) {
	if m.sizeAt >= 0 {
		b.Bytes()[m.sizeAt] = byte(m.n)
	}
	m.sizeAt, m.n = -1, 0
}

// FlatForm is how a flat struct's context-free writer (foryWriteFlat: a
// struct that nests no other) writes its body: as the root, with the root
// prefix first; and in a tracked message, with the reference flags
// official Go's form and compatible mode put before some fields
// (TrackedFieldFlags). One word rather than two bools keeps the writer's
// registers free (instructions.sh MediaContent forygen-consistent
// Serialize).
type FlatForm uint8

// The FlatForm bits.
const (
	FlatRoot FlatForm = 1 << iota
	FlatFieldFlags
)

// FlatForm is the form of a flat struct nested in c's message.
func (c *WriteContext) FlatForm() FlatForm {
	if c.trackRef && c.TrackedFieldFlags() {
		return FlatFieldFlags
	}
	return 0
}

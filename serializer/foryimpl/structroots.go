package foryimpl

import (
	"bytes"
	"math"
	"unsafe"

	"github.com/forygen/forygen/buffer"
	"github.com/forygen/forygen/internal/meta"
)

// Roots that are lists of generated structs, as official Go writes
// f.Serialize([]T{...}) and f.Serialize([]*T{...}) (docs/format.md §12.2):
// a LIST whose elements header says "same type" (08; 0a with null flags
// when a []*T holds nil; the tracking bit with WithTrackRef for []*T),
// the struct's type meta once, then the bodies. The list is the message's
// first value: with tracking its root flag is 00 and it is object 0.

// StructMessage is a pointer to a generated struct type T.
type StructMessage[T any] interface {
	*T
	Message
}

// SerializeRef appends a message whose root is x, of type t, with
// reference tracking (docs/format.md §2.1): the tracking root prefix, x
// recorded as object 0, and its body. The tracking entry of every
// generated struct but a flat one that tracking does not change: one body
// here instead of a method with the prefix as constant words in each
// struct (issue 28; benchmarks/PERFORMANCE.md "Generated code size,
// round 5").
func SerializeRef[T any, P StructMessage[T]](f *Runtime, b *buffer.Buffer, x P, t *TypeInfo) error {
	c := f.BeginWrite(b, t)
	start := b.WriterIndex()
	if c.compatible {
		b.WriteBytes(t.rootCompatibleRef)
	} else {
		b.WriteBytes(t.rootConsistentRef)
	}
	// WriteRootRef written out: a generic call from a generic body does
	// not inline.
	if k := (refKey{unsafe.Pointer(x), 0}); !c.refs.recordNew(k, k.hash()) {
		c.refs.find(k, k.hash())
	}
	x.ForyWrite(c)
	return c.EndWrite(start)
}

// DeserializeRef reads a tracked message (root flag 00) whose root is x,
// of type t, from c, which BeginRead set up: x is object 0. A message
// without t's own tracking prefix (another schema, an error) goes through
// ReadRoot.
func DeserializeRef(f *Runtime, c *ReadContext, x Message, t *TypeInfo) error {
	prefix := t.rootConsistentRef
	if c.compatible {
		prefix = t.rootCompatibleRef
	}
	if !bytes.HasPrefix(c.r.Bytes(), prefix) {
		return f.ReadRoot(c, x)
	}
	AcceptRootRef(c, len(prefix), t, x)
	x.ForyRead(c)
	// The message's objects are read: emptying the reference table and
	// the reuse claims now (release would, and does nothing more to them)
	// lets EndReadFast end a successful read, sparing EndRead and release
	// (instructions.sh SmallMessage forygen-ref Deserialize).
	c.refs.reset()
	c.claims.reset()
	if f.EndReadFast(c) {
		return nil
	}
	return f.EndRead(c, t)
}

// WriteStructListRoot appends the message whose root is s.
func WriteStructListRoot[T any, P StructMessage[T]](f *Runtime, b *buffer.Buffer, s []T) error {
	info := P(nil).ForyType()
	if uint64(len(s)) > math.MaxUint32 {
		return tooLong(info, len(s))
	}
	c, start := beginCollectionRoot(f, b, s == nil, meta.TypeList)
	if c == nil {
		return nil
	}
	b.WriteVarUint32(uint32(len(s)))
	if len(s) > 0 {
		b.WriteUint8(meta.ListSameType)
		c.WriteStructMeta(info)
		for i := range s {
			P(&s[i]).ForyWrite(c)
			if c.err != nil {
				break
			}
		}
	}
	return c.EndWrite(start)
}

// WriteStructPtrListRoot appends the message whose root is s, whose nil
// elements are null.
func WriteStructPtrListRoot[T any, P StructMessage[T]](f *Runtime, b *buffer.Buffer, s []*T) error {
	info := P(nil).ForyType()
	if uint64(len(s)) > math.MaxUint32 {
		return tooLong(info, len(s))
	}
	c, start := beginCollectionRoot(f, b, s == nil, meta.TypeList)
	if c == nil {
		return nil
	}
	b.WriteVarUint32(uint32(len(s)))
	if len(s) > 0 {
		h := byte(meta.ListSameType)
		for _, p := range s {
			if p == nil {
				h |= meta.ListHasNull
				break
			}
		}
		if c.trackRef {
			h |= meta.ListTrackRef
		}
		b.WriteUint8(h)
		c.WriteStructMetaPtr(info)
		for _, p := range s {
			switch {
			case c.trackRef:
				if WriteRefPtr(c, p) {
					continue
				}
			case h&meta.ListHasNull != 0:
				if p == nil {
					b.WriteUint8(FlagNull)
					continue
				}
				b.WriteUint8(FlagNotNull)
			}
			P(p).ForyWrite(c)
			if c.err != nil {
				break
			}
		}
	}
	return c.EndWrite(start)
}

// beginCollectionRoot writes the header, root flag and type id (LIST or
// MAP) of a collection root and returns the write context; for a nil one
// it writes the null root and returns a nil context.
func beginCollectionRoot(f *Runtime, b *buffer.Buffer, isNil bool, id byte) (*WriteContext, int) {
	if isNil {
		// Official Go writes a nil slice root as a null root.
		b.WriteUint8(meta.HeaderXlang)
		b.WriteUint8(FlagNull)
		return nil, 0
	}
	c := f.BeginWrite(b, nil)
	start := b.WriterIndex()
	flag := byte(FlagNotNull)
	if c.trackRef {
		flag = meta.FlagRefValue
		// The collection is object 0; nothing refers back to it.
		c.refs.lookup(c.refs.sliceKey(nil, 0))
	}
	b.WriteUint8(meta.HeaderXlang)
	b.WriteUint8(flag)
	b.WriteUint8(id)
	return c, start
}

// ReadStructListRoot reads data, exactly one message whose root is a list
// of T, into *out, which is replaced only when the message decodes (a
// null root sets it to nil). Elements a peer wrote null are zero values.
func ReadStructListRoot[T any, P StructMessage[T]](f *Runtime, data []byte, out *[]T) error {
	info := P(nil).ForyType()
	c, n, ok := beginReadCollectionRoot(f, data, info, meta.TypeList)
	var s []T
	if ok {
		s = MakeSlice[[]T](c, n)
		if n > 0 && !c.Failed() {
			hn, tr, ev := c.ReadStructListHeaderRef(info)
			for i := 0; i < n && !c.Failed(); i++ {
				if tr {
					switch st, id := c.ReadRefFlag(); st {
					case RefBack:
						if p := BackRef[T](c, id); p != nil {
							s[i] = *p
						}
						continue
					case RefFollows:
						SetRef(c, id, &s[i])
					default:
						continue
					}
				} else if hn && !c.ReadFlag() {
					continue
				}
				readElem(c, P(&s[i]), ev)
				if c.Failed() {
					c.TraceIndex(i)
				}
			}
		}
	}
	err := f.EndRead(c, listRootInfo(info))
	if err == nil {
		*out = s
	}
	return err
}

// ReadStructPtrListRoot is ReadStructListRoot for a list of *T: null
// elements are nil, and with tracking shared elements are one pointer.
func ReadStructPtrListRoot[T any, P StructMessage[T]](f *Runtime, data []byte, out *[]*T) error {
	info := P(nil).ForyType()
	c, n, ok := beginReadCollectionRoot(f, data, info, meta.TypeList)
	var s []*T
	if ok {
		s = MakeSlice[[]*T](c, n)
		if n > 0 && !c.Failed() {
			hn, tr, ev := c.ReadStructListHeaderRef(info)
			for i := 0; i < n && !c.Failed(); i++ {
				var p *T
				if tr {
					switch st, id := c.ReadRefFlag(); st {
					case RefBack:
						s[i] = BackRef[T](c, id)
						continue
					case RefFollows:
						p = Alloc[T](c)
						SetRef(c, id, p)
					default:
						continue
					}
				} else if hn && !c.ReadFlag() {
					continue
				} else {
					p = Alloc[T](c)
				}
				readElem(c, P(p), ev)
				s[i] = p
				if c.Failed() {
					c.TraceIndex(i)
				}
			}
		}
	}
	err := f.EndRead(c, listRootInfo(info))
	if err == nil {
		*out = s
	}
	return err
}

func readElem(c *ReadContext, m Message, ev *Evolution) {
	if ev != nil {
		m.ForyReadEvolved(c, ev)
	} else {
		m.ForyRead(c)
	}
}

func listRootInfo(info *TypeInfo) *TypeInfo { return rootInfo("[]" + info.GoName) }

// beginReadCollectionRoot reads the header, root flag, type id (LIST or
// MAP) and length of a collection root; ok is false for a null root or a
// failure, which c records.
func beginReadCollectionRoot(f *Runtime, data []byte, info *TypeInfo, want byte) (c *ReadContext, n int, ok bool) {
	c = f.BeginRead(data)
	r := &c.r
	if h := r.ReadUint8(); h != meta.HeaderXlang && r.Err() == nil {
		r.Fail(malformed("message header 0x%02x is not an xlang header without out-of-band buffers", h))
	}
	switch fl := r.ReadUint8(); {
	case r.Err() != nil:
		return c, 0, false
	case fl == FlagNull:
		return c, 0, false
	case fl == meta.FlagRefValue && c.trackRef:
		c.newRef() // the list, object 0
	case fl == meta.FlagRefValue:
		r.Fail(mismatch("a reference-tracked root (flag 00) where tracking is off; read it with WithTrackRef(true)"))
		return c, 0, false
	case fl != FlagNotNull:
		r.Fail(malformed("bad root flag 0x%02x before a collection of %s", fl, info.GoName))
		return c, 0, false
	}
	if id := r.ReadUint8(); id != want && r.Err() == nil {
		r.Fail(mismatch("root type id %d where a collection of %s (type id %d) was expected", id, info.GoName, want))
	}
	minBytes := 1
	if want == meta.TypeMap {
		minBytes = 2 // a key and a value, or a null-value header and a key
	}
	n = c.ReadLength(minBytes)
	return c, n, !c.Failed()
}

// WriteStructPtrMapRoot appends the message whose root is m, a
// map[string]*T, as official Go writes f.Serialize(m): MAP, the count,
// then chunks of at most 255 entries, each with its header (the value
// tracking bit with WithTrackRef), size, the key type STRING and the
// struct's type meta, then keys and values (reference flags with
// tracking); a nil value is a chunk of its own, header 10, STRING and the
// key (docs/format.md §8.4).
func WriteStructPtrMapRoot[T any, P StructMessage[T]](f *Runtime, b *buffer.Buffer, m map[string]*T) error {
	info := P(nil).ForyType()
	if uint64(len(m)) > math.MaxUint32 {
		return tooLong(info, len(m))
	}
	c, start := beginCollectionRoot(f, b, m == nil, meta.TypeMap)
	if c == nil {
		return nil
	}
	b.WriteVarUint32(uint32(len(m)))
	hdr := byte(0)
	if c.trackRef {
		hdr = meta.MapValueTrackRef
	}
	sizeAt, n := -1, 0
	closeChunk := func() {
		if sizeAt >= 0 {
			b.Bytes()[sizeAt] = byte(n)
		}
		sizeAt, n = -1, 0
	}
	check := c.CheckUTF8()
	for k, v := range m {
		if check && !ValidString(k) {
			c.Fail(InvalidUTF8(listRootInfo(info), "key"))
			break
		}
		if v == nil {
			closeChunk()
			b.WriteUint8(meta.MapValueHasNull)
			b.WriteUint8(meta.TypeString)
			WriteString(b, k)
			continue
		}
		if sizeAt < 0 || n == meta.MapChunkMax {
			closeChunk()
			b.WriteUint8(hdr)
			sizeAt = b.WriterIndex()
			b.WriteUint8(0)
			b.WriteUint8(meta.TypeString)
			c.WriteStructMetaPtr(info)
		}
		n++
		WriteString(b, k)
		if c.trackRef && WriteRefPtr(c, v) {
			continue
		}
		P(v).ForyWrite(c)
		if c.err != nil {
			break
		}
	}
	closeChunk()
	return c.EndWrite(start)
}

// ReadStructPtrMapRoot reads data, exactly one message whose root is a
// map[string]*T, into *out, replaced only when the message decodes (a null
// root sets it to nil). Every chunk header a writer may choose is read
// (ReadMapChunk); null values are nil, and with tracking shared values
// are one pointer.
func ReadStructPtrMapRoot[T any, P StructMessage[T]](f *Runtime, data []byte, out *map[string]*T) error {
	info := P(nil).ForyType()
	c, n, ok := beginReadCollectionRoot(f, data, info, meta.TypeMap)
	var m map[string]*T
	if ok {
		m = MakeMap[map[string]*T](c, n)
		for n > 0 && !c.Failed() {
			var size int
			var valNull, tracked bool
			var ev *Evolution
			if c.trackRef {
				size, valNull, tracked, ev = c.ReadMapChunkRef(n, meta.TypeString, info.compatibleTypeID, info)
			} else {
				size, valNull, ev = c.ReadMapChunk(n, meta.TypeString, info.compatibleTypeID, info, true)
			}
			if size <= 0 {
				if !c.Failed() {
					c.Fail(malformed("a map chunk of no entries with %d entries left", n))
				}
				break
			}
			for j := 0; j < size && !c.Failed(); j++ {
				k := c.ReadString()
				var v *T
				switch {
				case tracked:
					switch st, id := c.ReadRefFlag(); st {
					case RefBack:
						v = BackRef[T](c, id)
					case RefFollows:
						v = Alloc[T](c)
						SetRef(c, id, v)
						readElem(c, P(v), ev)
					}
				case !valNull:
					v = Alloc[T](c)
					readElem(c, P(v), ev)
				}
				m[k] = v
			}
			n -= size
		}
	}
	err := f.EndRead(c, rootInfo("map[string]*"+info.GoName))
	if err == nil {
		*out = m
	}
	return err
}

package foryimpl

import (
	"math"
	"unsafe"

	"github.com/forygen/forygen/buffer"
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

const typeListRoot = 22

// WriteStructListRoot appends the message whose root is s.
func WriteStructListRoot[T any, P StructMessage[T]](f *Runtime, b *buffer.Buffer, s []T) error {
	info := P(nil).ForyType()
	if uint64(len(s)) > math.MaxUint32 {
		return tooLong(info, len(s))
	}
	c, start := beginListRoot(f, b, s == nil, unsafe.Pointer(unsafe.SliceData(s)))
	if c == nil {
		return nil
	}
	b.WriteVarUint32(uint32(len(s)))
	if len(s) > 0 {
		b.WriteUint8(listSameType)
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
	c, start := beginListRoot(f, b, s == nil, unsafe.Pointer(unsafe.SliceData(s)))
	if c == nil {
		return nil
	}
	b.WriteVarUint32(uint32(len(s)))
	if len(s) > 0 {
		h := byte(listSameType)
		for _, p := range s {
			if p == nil {
				h |= listHasNull
				break
			}
		}
		if c.trackRef {
			h |= listTrackRef
		}
		b.WriteUint8(h)
		c.WriteStructMetaPtr(info)
		for _, p := range s {
			switch {
			case c.trackRef:
				if WriteRefPtr(c, p) {
					continue
				}
			case h&listHasNull != 0:
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

// beginListRoot writes the header, root flag and LIST type id of a list
// root whose data is at p, and returns the write context; for a nil list
// it writes the null root and returns a nil context.
func beginListRoot(f *Runtime, b *buffer.Buffer, isNil bool, p unsafe.Pointer) (*WriteContext, int) {
	if isNil {
		// Official Go writes a nil slice root as a null root.
		b.WriteUint8(headerXlang)
		b.WriteUint8(FlagNull)
		return nil, 0
	}
	c := f.BeginWrite(b, nil)
	start := b.WriterIndex()
	flag := byte(FlagNotNull)
	if c.trackRef {
		flag = flagRefVal
		c.refs.find(c.refs.sliceKey(p, 1)) // the list, object 0
	}
	b.WriteUint8(headerXlang)
	b.WriteUint8(flag)
	b.WriteUint8(typeListRoot)
	return c, start
}

// ReadStructListRoot reads data, exactly one message whose root is a list
// of T, into *out, which is replaced only when the message decodes (a
// null root sets it to nil). Elements a peer wrote null are zero values.
func ReadStructListRoot[T any, P StructMessage[T]](f *Runtime, data []byte, out *[]T) error {
	info := P(nil).ForyType()
	c, n, ok := beginReadListRoot(f, data, info)
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
	c, n, ok := beginReadListRoot(f, data, info)
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

// beginReadListRoot reads the header, root flag, LIST type id and length
// of a list root; ok is false for a null root or a failure, which c
// records.
func beginReadListRoot(f *Runtime, data []byte, info *TypeInfo) (c *ReadContext, n int, ok bool) {
	c = f.BeginRead(data)
	r := &c.r
	if h := r.ReadUint8(); h != headerXlang && r.Err() == nil {
		r.Fail(malformed("message header 0x%02x is not an xlang header without out-of-band buffers", h))
	}
	switch fl := r.ReadUint8(); {
	case r.Err() != nil:
		return c, 0, false
	case fl == FlagNull:
		return c, 0, false
	case fl == flagRefVal && c.trackRef:
		c.newRef() // the list, object 0
	case fl == flagRefVal:
		r.Fail(mismatch("a reference-tracked root (flag 00) where tracking is off; read it with WithTrackRef(true)"))
		return c, 0, false
	case fl != FlagNotNull:
		r.Fail(malformed("bad root flag 0x%02x before a list of %s", fl, info.GoName))
		return c, 0, false
	}
	if id := r.ReadUint8(); id != typeListRoot && r.Err() == nil {
		r.Fail(mismatch("root type id %d where a list of %s (type id %d) was expected", id, info.GoName, typeListRoot))
	}
	n = c.ReadLength(1)
	return c, n, !c.Failed()
}

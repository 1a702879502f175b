package foryimpl

import (
	"fmt"

	"github.com/forygen/forygen/buffer"
	"github.com/forygen/forygen/internal/meta"
)

// Extension types (EXT 31 by id, NAMED_EXT 32 by name): a type the user
// does not own, written by a codec the user writes (`//fory:ext`, README
// "Types you don't own"), wire-compatible with official Go's
// RegisterExtension and RegisterExtensionByName. The value is the codec's
// bytes with no length, so a reader that does not know the type cannot
// skip it. As official Go writes an extension field: in same-schema mode
// no type meta, in compatible mode the type meta before the value (EXT and
// the user id; NAMED_EXT and a shared TypeDef of kind NAMED_EXT,
// docs/format.md §12.6).

// ExtSpec is the registration of an extension type.
type ExtSpec struct {
	GoName    string // the extension type's Go name, for errors
	ByName    bool
	UserID    uint32
	Namespace string
	TypeName  string
}

// ExtInfo is the runtime view of an extension type, built once by
// NewExtType.
type ExtInfo struct {
	spec ExtSpec
	// user is its registration as an any value or list elements carry it
	// (writeUserMeta).
	user *TypeInfo
}

// NewExtType builds the ExtInfo of the extension type T written and read
// by the codec methods write and read; generated code calls it once per
// type. It also makes T's values (and *T's, tracked by address) writable in
// an any, and T's registration read back as a T. It panics on a malformed
// spec, which only a hand-edited generated file can produce.
func NewExtType[T any](spec ExtSpec, write func(b *buffer.Buffer, v *T) error, read func(r *buffer.Reader, v *T) error) *ExtInfo {
	if spec.GoName == "" || spec.ByName && spec.TypeName == "" {
		panic(fmt.Sprintf("serializer: bad generated extension spec %+v", spec))
	}
	e := &ExtInfo{spec: spec}
	info := newUserInfo(e.userType())
	e.user = info
	u := &anyUser{what: "extension type", info: info, idKind: meta.TypeExt, nameKind: meta.TypeNamedExt,
		read: func(c *ReadContext) any {
			var x T
			c.ExtRead(read(c.Reader(), &x))
			if c.r.Err() != nil {
				return nil
			}
			return x
		}}
	put := func(c *WriteContext, x *T) {
		if err := write(c.buf, x); err != nil {
			c.Fail(&EncodeError{Type: spec.GoName, Err: &causeDetail{detail{sentinel: ErrInvalidValue, msg: "its extension codec failed: " + err.Error()}, err}})
		}
	}
	var zero T
	registerCarrier(typeWord(zero), &anyCarrier{id: meta.TypeExt, user: u,
		write: func(c *WriteContext, v any) { x := v.(T); put(c, &x) }}, u)
	registerCarrier(typeWord((*T)(nil)), &anyCarrier{id: meta.TypeExt, user: u, shared: true,
		isNil: func(v any) bool { return v.(*T) == nil },
		assign: func(p, v any) bool {
			x, ok := v.(T)
			if ok {
				*p.(*T) = x
			}
			return ok
		},
		write: func(c *WriteContext, v any) { put(c, v.(*T)) }}, nil)
	return e
}

// WriteExtMeta writes the compatible-mode type meta of an extension value.
func (c *WriteContext) WriteExtMeta(e *ExtInfo) { c.writeUserMeta(e.user) }

// ReadExtMeta reads the compatible-mode type meta before an extension
// value and checks that it names e.
func (c *ReadContext) ReadExtMeta(e *ExtInfo) { c.readUserMeta(e.userType()) }

func (e *ExtInfo) userType() userType {
	s := &e.spec
	return userType{"extension type", s.GoName, meta.TypeExt, meta.TypeNamedExt, s.ByName, s.UserID, s.Namespace, s.TypeName}
}

// ExtWritten reports an extension codec's write error as an
// *EncodeError naming the field, failing c; it returns whether the write
// succeeded.
func (c *WriteContext) ExtWritten(t *TypeInfo, field string, err error) bool {
	if err == nil {
		return true
	}
	return c.extFailed(t, field, err)
}

// extFailed is ExtWritten's cold path, out of line so that ExtWritten
// inlines into generated writers (BenchmarkExtField).
func (c *WriteContext) extFailed(t *TypeInfo, field string, err error) bool {
	c.Fail(&EncodeError{Type: t.GoName, Path: field, Err: &causeDetail{detail{sentinel: ErrInvalidValue, msg: "its extension codec failed: " + err.Error()}, err}})
	return false
}

// ExtRead fails c when an extension codec refused the bytes it read (the
// message is malformed for the type); a read past the input is already
// the reader's error.
func (c *ReadContext) ExtRead(err error) {
	if err != nil && !c.Failed() {
		c.Fail(&causeDetail{detail{sentinel: ErrMalformed, msg: "the extension codec refused its bytes: " + err.Error()}, err})
	}
}

// An extension value as the root (Fory.Serialize(&money), as official Go
// writes f.Serialize(&m)): the header, the root flag (ff; 00 with
// tracking, official Go's root being a pointer), the type meta as in an
// any (by name: the names, or in compatible mode the TypeDef as entry 0),
// then the codec's bytes (docs/format.md §12.6).

// WriteExtRoot appends the message whose root is v, a *T of a registered
// extension type T; handled is false for any other v.
func (f *Runtime) WriteExtRoot(b *buffer.Buffer, v any) (handled bool, err error) {
	k := carriers().byType[typeWord(v)]
	if k == nil || k.user == nil || k.user.idKind != meta.TypeExt || !k.shared || dataWord(v) == nil {
		return false, nil
	}
	c := f.BeginWrite(b, nil)
	start := b.WriterIndex()
	b.WriteUint8(meta.HeaderXlang)
	WriteAny(c, v)
	return true, c.EndWrite(start)
}

// ReadExtRoot reads data, exactly one message whose root is an extension
// value, into p, a non-nil *T of a registered extension type T, set only
// when the whole message decodes; handled is false for any other p.
func (f *Runtime) ReadExtRoot(data []byte, p any) (handled bool, err error) {
	k := carriers().byType[typeWord(p)]
	if k == nil || k.user == nil || k.user.idKind != meta.TypeExt || k.assign == nil || dataWord(p) == nil {
		return false, nil
	}
	c := f.BeginRead(data)
	r := &c.r
	if h := r.ReadUint8(); h != meta.HeaderXlang && r.Err() == nil {
		r.Fail(malformed("message header 0x%02x is not an xlang header without out-of-band buffers", h))
	}
	var v any
	if r.Err() == nil {
		if v = ReadAny(c, true); v == nil && r.Err() == nil {
			r.Fail(mismatch("null root where the extension type %s cannot be nil", k.user.info.GoName))
		}
	}
	if r.Err() == nil && !k.assign(p, v) {
		r.Fail(mismatch("a root of %T where the extension type %s was expected", v, k.user.info.GoName))
	}
	return true, f.EndRead(c, k.user.info)
}

// WriteExtElemMeta writes the type meta of a list's extension elements,
// once after the elements header, in both modes: 1f and the user id; by
// name 20 and its names, or a shared TypeDef entry in compatible mode.
func (c *WriteContext) WriteExtElemMeta(e *ExtInfo) { c.writeUserMeta(e.user) }

// ReadExtListHeader reads the elements header of a list of extension
// values, which official Go writes as 08 (same type, not declared; 02
// with a null, 01 tracked) and the type meta once, and checks that the
// meta names e.
func (c *ReadContext) ReadExtListHeader(e *ExtInfo) (hasNull, tracked bool) {
	h := c.r.ReadUint8()
	if c.r.Err() != nil {
		return false, false
	}
	switch {
	case h&^meta.ListBits != 0 || h&meta.ListSameType == 0 || h&meta.ListDeclared != 0:
		c.r.Fail(malformed("unsupported elements header 0x%02x for a list of the extension type %s", h, e.spec.GoName))
		return false, false
	case h&meta.ListTrackRef != 0 && !c.trackRef:
		c.r.Fail(&detail{sentinel: ErrUnsupported, msg: "reference-tracked list elements " + untrackedMessage})
		return false, false
	}
	c.readUserMeta(e.userType())
	return h&meta.ListHasNull != 0, h&meta.ListTrackRef != 0
}

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
	// meta is the compatible-mode type meta of one registered by id: 1f
	// and the user id.
	meta []byte
	// info is the shared TypeDef table's key and entry of one registered
	// by name.
	info *TypeInfo
}

// NewExtType builds an ExtInfo; generated code calls it once per type. It
// panics on a malformed spec, which only a hand-edited generated file can
// produce.
func NewExtType(spec ExtSpec) *ExtInfo {
	if spec.GoName == "" || spec.ByName && spec.TypeName == "" {
		panic(fmt.Sprintf("serializer: bad generated extension spec %+v", spec))
	}
	e := &ExtInfo{spec: spec}
	if !spec.ByName {
		m := buffer.New(8)
		m.WriteUint8(meta.TypeExt)
		m.WriteVarUint32(spec.UserID)
		e.meta = append([]byte(nil), m.Bytes()...)
		return e
	}
	td := meta.EncodeTypeDef(&meta.TypeDef{Kind: meta.TypeNamedExt, ByName: true, Namespace: spec.Namespace, TypeName: spec.TypeName})
	e.info = &TypeInfo{StructSpec: StructSpec{GoName: spec.GoName, ByName: true, Namespace: spec.Namespace,
		TypeName: spec.TypeName, TypeDef: td}}
	e.info.tracked = e.info
	return e
}

// WriteExtMeta writes the compatible-mode type meta of an extension value.
func (c *WriteContext) WriteExtMeta(e *ExtInfo) {
	if e.info == nil {
		c.buf.WriteBytes(e.meta)
		return
	}
	c.writeSharedTypeDef(meta.TypeNamedExt, e.info, e.info)
}

// ReadExtMeta reads the compatible-mode type meta before an extension
// value and checks that it names e.
func (c *ReadContext) ReadExtMeta(e *ExtInfo) {
	r := &c.r
	id := r.ReadUint8()
	if r.Err() != nil {
		return
	}
	s := &e.spec
	want := byte(meta.TypeExt)
	if s.ByName {
		want = meta.TypeNamedExt
	}
	if id != want {
		r.Fail(mismatch("type id %d where the extension type %s (type id %d) was expected", id, s.GoName, want))
		return
	}
	if !s.ByName {
		if uid := r.ReadVarUint32(); uid != s.UserID && r.Err() == nil {
			r.Fail(mismatch("extension id %d where %s (id %d) was expected", uid, s.GoName, s.UserID))
		}
		return
	}
	d := c.readSharedTypeDef(nil)
	if d == nil {
		return
	}
	if d.def.Kind != meta.TypeNamedExt {
		r.Fail(mismatch("a TypeDef of kind %d where the extension type %s was expected", d.def.Kind, s.GoName))
		return
	}
	if d.def.Namespace != s.Namespace || d.def.TypeName != s.TypeName {
		r.Fail(mismatch("extension %q.%q where %s (%q.%q) was expected", d.def.Namespace, d.def.TypeName, s.GoName, s.Namespace, s.TypeName))
	}
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

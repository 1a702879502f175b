package foryimpl

import (
	"fmt"

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
	byID, _, td := e.userType().meta()
	if !spec.ByName {
		e.meta = byID
		return e
	}
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

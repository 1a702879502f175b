package foryimpl

import (
	"fmt"
	"math"

	"github.com/forygen/forygen/buffer"
	"github.com/forygen/forygen/internal/meta"
)

// Enum roots: a message whose root is a generated enum, as official Go
// writes f.Serialize(Color(2)): header, ff, the enum's type meta (ENUM and
// the user id; NAMED_ENUM and its names, or in compatible mode a shared
// TypeDef of kind NAMED_ENUM), the ordinal as a varuint32 (docs/format.md
// §12.2). Official Go writes ff even with tracking: an enum is a value.

// EnumSpec is the registration of a generated enum.
type EnumSpec struct {
	GoName    string
	ByName    bool
	UserID    uint32
	Namespace string
	TypeName  string
	// Max is the largest ordinal the enum's Go type holds.
	Max uint32
}

// EnumInfo is the runtime view of a generated enum, built once by
// NewEnumType.
type EnumInfo struct {
	spec EnumSpec
	// info names the enum in errors and is its entry in a message's type
	// tables when an any holds one: its names in same-schema mode, its
	// TypeDef in compatible mode, when registered by name.
	info                           *TypeInfo
	consistentMeta, compatibleMeta []byte
	// from returns ordinal o as the generated Go type (NewEnumType).
	from func(o uint32) any
}

// newEnumInfo builds an EnumInfo; it panics on a malformed spec, which
// only a hand-edited generated file can produce.
func newEnumInfo(spec EnumSpec) *EnumInfo {
	if spec.GoName == "" || spec.ByName && spec.TypeName == "" {
		panic(fmt.Sprintf("serializer: bad generated enum spec %+v", spec))
	}
	e := &EnumInfo{spec: spec, info: &TypeInfo{StructSpec: StructSpec{GoName: spec.GoName, ByName: spec.ByName,
		UserID: spec.UserID, Namespace: spec.Namespace, TypeName: spec.TypeName}}}
	var td []byte
	e.consistentMeta, e.compatibleMeta, td = e.userType().meta()
	e.info.ConsistentMeta, e.info.TypeDef = e.consistentMeta, td
	e.info.consistentTypeID, e.info.compatibleTypeID = meta.TypeEnum, meta.TypeEnum
	if spec.ByName {
		e.info.consistentTypeID, e.info.compatibleTypeID = meta.TypeNamedEnum, meta.TypeNamedEnum
	}
	e.info.tracked = e.info
	return e
}

// WriteEnumRoot appends the message whose root is the enum e's ordinal v
// (its Go value); a negative v or one above the Go type's range is an
// *EncodeError and nothing is appended.
func (f *Runtime) WriteEnumRoot(b *buffer.Buffer, e *EnumInfo, v int64) error {
	if v < 0 || v > math.MaxUint32 || uint32(v) > e.spec.Max {
		return &EncodeError{Type: e.spec.GoName, Err: &detail{sentinel: ErrInvalidValue,
			msg: fmt.Sprintf("%d is not an enum ordinal (0 to %d)", v, e.spec.Max)}}
	}
	b.WriteUint8(meta.HeaderXlang)
	b.WriteUint8(FlagNotNull)
	if f.opts.Compatible {
		b.WriteBytes(e.compatibleMeta)
	} else {
		b.WriteBytes(e.consistentMeta)
	}
	b.WriteVarUint32(uint32(v))
	return nil
}

// ReadEnumRoot reads data, exactly one message whose root is the enum e,
// and returns its ordinal, at most the Go type's maximum.
func (f *Runtime) ReadEnumRoot(data []byte, e *EnumInfo) (uint32, error) {
	c := f.BeginRead(data)
	r := &c.r
	if h := r.ReadUint8(); h != meta.HeaderXlang && r.Err() == nil {
		r.Fail(malformed("message header 0x%02x is not an xlang header without out-of-band buffers", h))
	}
	var v uint32
	switch fl := r.ReadUint8(); {
	case r.Err() != nil:
	case fl == FlagNotNull || fl == meta.FlagRefValue:
		if fl == meta.FlagRefValue {
			c.newRef()
		}
		c.readEnumMeta(e)
		if r.Err() == nil {
			v = c.ReadEnum(e.spec.Max)
		}
	case fl == FlagNull:
		r.Fail(mismatch("null root where the enum %s cannot be nil", e.spec.GoName))
	default:
		r.Fail(malformed("bad root flag 0x%02x before an enum", fl))
	}
	err := f.EndRead(c, e.info)
	return v, err
}

func (c *ReadContext) readEnumMeta(e *EnumInfo) { c.readUserMeta(e.userType()) }

func (e *EnumInfo) userType() userType {
	s := &e.spec
	return userType{"enum", s.GoName, meta.TypeEnum, meta.TypeNamedEnum, s.ByName, s.UserID, s.Namespace, s.TypeName}
}

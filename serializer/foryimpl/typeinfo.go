package foryimpl

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"

	"github.com/forygen/forygen/internal/meta"
)

// Message is implemented by every forygen-generated struct (on its pointer
// type): the body writers and readers the runtime calls for the struct as a
// root, a field or an element. The entry points, ForySerializeTo and
// ForyDeserialize, take the user's *serializer.Fory and are declared there.
type Message interface {
	// ForyType returns the static type information of the generated type.
	ForyType() *TypeInfo
	// ForyWrite writes the struct body (docs/format.md §9) in the context's mode.
	ForyWrite(c *WriteContext)
	// ForyRead reads a struct body written with the generated schema;
	// errors are recorded in the context.
	ForyRead(c *ReadContext)
	// ForyReadEvolved reads a compatible-mode struct body written with
	// another schema, following the field mapping ev.
	ForyReadEvolved(c *ReadContext, ev *Evolution)
}

// StructSpec is what the generator knows about a struct at generation time.
type StructSpec struct {
	GoName    string // package-qualified Go name, for errors
	ByName    bool
	UserID    uint32
	Namespace string
	TypeName  string
	// SchemaHash is the same-schema hash (docs/format.md §10);
	// OfficialGoHash is official Go's where it differs (a pointer or any
	// field, §14.29), else 0.
	SchemaHash     int32
	OfficialGoHash int32
	// GoFields are the Go names of the fields in write order, so that an
	// error in a value read with another writer's schema names the field
	// as Go does ("Order.Items") rather than by its tag id ("#7").
	GoFields []string
	// ConsistentMeta is the same-schema type meta with fresh names (§5.1).
	ConsistentMeta []byte
	// TypeDef is the compatible-mode TypeDef, header and body (§11).
	TypeDef []byte
	// RootConsistent and RootCompatible are the first bytes of a message
	// whose root is this type: header, root flag and type meta (§1). The
	// generated entry points write and compare them as constant words, or
	// a long RootCompatible by copying it (generated code declares it once
	// and passes its tail as TypeDef); NewStructType checks them against
	// ConsistentMeta and TypeDef.
	RootConsistent []byte
	RootCompatible []byte
	// TypeDefRef and RootCompatibleRef are TypeDef and RootCompatible with
	// reference tracking (WithTrackRef), whose track_ref bits differ; nil
	// when they are the same. Generated code gives them only when RefBits
	// cannot say the difference.
	TypeDefRef, RootCompatibleRef []byte
	// RefBits are the offsets in TypeDef of the track_ref bits tracking
	// sets: NewStructType derives TypeDefRef and RootCompatibleRef from
	// them (meta.WithRefBits), so that generated code declares each
	// TypeDef once (plan.Struct.RefBits).
	RefBits []uint16
	// NonEvolving is a struct declared evolving=false: in compatible mode
	// its meta is STRUCT and the user id, or NAMED_STRUCT and its TypeDef,
	// and its TypeDef is not marked compatible (docs/format.md §11.5).
	NonEvolving bool
	// Scalars are the fields the evolved reader leaves to ReadScalars
	// (scalars.go).
	Scalars ScalarFields
}

// TypeInfo is the runtime view of a generated struct, built once per type at
// package initialisation by NewStructType.
type TypeInfo struct {
	StructSpec
	consistentTypeID byte   // 27 or 29
	compatibleTypeID byte   // 28 or 30
	typeDefHeader    uint64 // the first 8 bytes of TypeDef: hash, size and flags
	// ptrKey distinguishes []*T list elements from T in the compatible-mode
	// TypeDef table: official Go keys that table by Go type (§11.3).
	ptrKey *TypeInfo
	// self is the generated TypeDef as a received one: a message carrying
	// exactly these bytes takes the generated fast path.
	self *remoteDef
	// rootConsistent and rootCompatible are the first bytes of a message
	// whose root is this type: header, root flag and type meta (§1).
	rootConsistent []byte
	rootCompatible []byte
	// rootConsistentRef and rootCompatibleRef are the two with reference
	// tracking: root flag 00, and the tracking TypeDef (SerializeRef).
	rootConsistentRef, rootCompatibleRef []byte
	// tracked is the view of the type with reference tracking: t itself,
	// or a TypeInfo whose TypeDef has the tracking track_ref bits.
	tracked *TypeInfo
	// fields are the local fields in write order, for field matching.
	fields []meta.FieldDef
	// scalars are the fields ReadScalars reads, by index (scalars.go).
	scalars []scalar
	// remotes are the received schemas accepted for this type.
	remotes remoteCache
}

// NewStructType builds a TypeInfo; generated code calls it once per type.
// It panics on a malformed spec, which only a hand-edited generated file can
// produce.
func NewStructType(spec StructSpec) *TypeInfo {
	if len(spec.TypeDef) < 8 || len(spec.ConsistentMeta) < 2 {
		panic(fmt.Sprintf("serializer: bad generated type spec for %s", spec.GoName))
	}
	t := newTypeInfo(spec, spec.TypeDef)
	t.ptrKey = &TypeInfo{StructSpec: StructSpec{GoName: "*" + spec.GoName}}
	if !bytes.Equal(spec.RootConsistent, t.rootConsistent) || !bytes.Equal(spec.RootCompatible, t.rootCompatible) {
		panic(fmt.Sprintf("serializer: generated root prefixes of %s do not match its type meta; regenerate", spec.GoName))
	}
	t.tracked = t
	if spec.RefBits != nil {
		if spec.TypeDefRef != nil {
			panic(fmt.Sprintf("serializer: generated type spec of %s has both RefBits and TypeDefRef; regenerate", spec.GoName))
		}
		spec.TypeDefRef = meta.WithRefBits(spec.TypeDef, spec.RefBits)
		spec.RootCompatibleRef = append([]byte{meta.HeaderXlang, meta.FlagRefValue, t.compatibleTypeID, 0}, spec.TypeDefRef...)
	}
	if spec.TypeDefRef != nil {
		ref := newTypeInfo(spec, spec.TypeDefRef)
		// With tracking the root struct is the first tracked object: flag 0x00.
		prefix := append([]byte{meta.HeaderXlang, meta.FlagRefValue, ref.compatibleTypeID, 0}, spec.TypeDefRef...)
		if !bytes.Equal(spec.RootCompatibleRef, prefix) {
			panic(fmt.Sprintf("serializer: generated tracking root prefix of %s does not match its TypeDef; regenerate", spec.GoName))
		}
		ref.ptrKey, ref.tracked = t.ptrKey, ref
		t.tracked = ref
	}
	t.rootConsistentRef = withRefFlag(t.rootConsistent)
	t.rootCompatibleRef = withRefFlag(t.tracked.rootCompatible)
	return t
}

// withRefFlag is a root prefix with the root flag of a tracked message,
// 00: the root is object 0.
func withRefFlag(prefix []byte) []byte {
	p := append([]byte(nil), prefix...)
	p[1] = meta.FlagRefValue
	return p
}

// newTypeInfo builds the TypeInfo of spec with the given TypeDef.
func newTypeInfo(spec StructSpec, typeDef []byte) *TypeInfo {
	t := &TypeInfo{StructSpec: spec}
	t.TypeDef = typeDef
	t.consistentTypeID, t.compatibleTypeID = meta.TypeStruct, meta.TypeCompatibleStruct
	if spec.ByName {
		t.consistentTypeID, t.compatibleTypeID = meta.TypeNamedStruct, meta.TypeNamedCompatibleStruct
	}
	if spec.NonEvolving {
		t.compatibleTypeID = t.consistentTypeID
	}
	t.typeDefHeader = binary.LittleEndian.Uint64(typeDef)
	td, n, err := meta.ParseTypeDef(typeDef, meta.Limits{MaxBodyBytes: math.MaxInt32, MaxFields: math.MaxInt32})
	if err != nil || n != len(typeDef) {
		panic(fmt.Sprintf("serializer: generated TypeDef of %s does not parse: %v", spec.GoName, err))
	}
	t.fields = td.Fields
	t.scalars = resolveScalars(&spec, td.Fields)
	t.self = &remoteDef{header: td.Header, def: td}
	t.rootConsistent = append([]byte{meta.HeaderXlang, FlagNotNull}, spec.ConsistentMeta...)
	t.rootCompatible = append([]byte{meta.HeaderXlang, FlagNotNull, t.compatibleTypeID, 0}, typeDef...)
	if t.metaByID() {
		t.rootCompatible = t.rootConsistent
	}
	return t
}

// metaByID reports whether the compatible-mode type meta is STRUCT and the
// user id, with no TypeDef: a non-evolving struct registered by id.
func (t *TypeInfo) metaByID() bool { return t.NonEvolving && !t.ByName }

// Package model is the generator's plain-data description of annotated Go
// types: what load found, before plan decides any wire layout.
//
// It imports neither go/types nor jennifer, so plan and emit can be tested
// with hand-built values.
package model

import "fmt"

// Package is one loaded Go package with its annotated declarations.
type Package struct {
	Path  string // import path
	Name  string // package name
	Dir   string
	Files []*File
}

// File is one source file with annotated declarations; the generator writes
// one output file per File.
type File struct {
	Path    string // absolute path of the source file
	Structs []*StructDecl
	Enums   []*EnumDecl
	Unions  []*UnionDecl
	Exts    []*ExtDecl
}

// ExtDecl is a `//fory:ext` codec type: a stateless struct whose methods
// WriteExt(*buffer.Buffer, *T) error and ReadExt(*buffer.Reader, *T) error
// write and read values of Target, an extension type (EXT or NAMED_EXT,
// as official Go's RegisterExtension), which may come from any package.
type ExtDecl struct {
	Name   string // the codec type
	Pos    Pos
	Reg    Registration
	Target *Named
}

// UnionDecl is a `//fory:union` type: a tagged union whose cases the
// directive lists (case id → Go type). The Go type implements official
// Fory Go's union shape: ForyUnionGet() (uint32, any) and
// (*T).ForyUnionSet(uint32, any).
type UnionDecl struct {
	Name  string
	Pos   Pos
	Reg   Registration
	Cases []UnionCase
}

// UnionCase is one alternative of a union.
type UnionCase struct {
	ID   uint32
	Type *Type
}

// Registration is how a type is registered with Fory: by numeric user id or
// by namespace and type name (docs/format.md §5).
type Registration struct {
	ByName    bool
	ID        uint32
	Namespace string
	Name      string
	// NonEvolving is a struct's `evolving=false`: in compatible mode it is
	// written as STRUCT or NAMED_STRUCT, without schema evolution
	// (docs/format.md §11.5).
	NonEvolving bool
}

func (r Registration) String() string {
	s := fmt.Sprintf("id=%d", r.ID)
	if r.ByName {
		s = "name=" + r.Name
		if r.Namespace != "" {
			s = "name=" + r.Namespace + "." + r.Name
		}
	}
	if r.NonEvolving {
		s += ",evolving=false"
	}
	return s
}

// StructDecl is a `//fory:generate` struct.
type StructDecl struct {
	// Name is the Go type the generated methods are declared on: the
	// struct itself, or for an instantiation of a generic struct the
	// hidden defined type over it (Inst).
	Name   string
	Pos    Pos
	Reg    Registration
	Inst   *Instance // an instantiation of a generic struct type, or nil
	Fields []*Field  // serialized fields in declaration order
	// Shape lists every field of the Go struct (serialized or not), for the
	// compile-time staleness guard; nil when a field's type cannot be
	// expressed in model terms (a func, chan, interface or struct literal).
	Shape []ShapeField
}

// GoName is the name users declared the struct under: its own, or an
// instantiation's alias (UserPage).
func (s *StructDecl) GoName() string {
	if s.Inst != nil {
		return s.Inst.Alias
	}
	return s.Name
}

// ShapeField is a struct field as declared.
type ShapeField struct {
	Name     string
	Embedded bool
	Type     *Type
	Tag      string // the whole struct tag, as declared
}

// EnumDecl is a `//fory:enum` named integer type.
type EnumDecl struct {
	Name string
	Pos  Pos
	Reg  Registration
	Base Kind // the underlying integer kind
}

// Field is one serialized struct field.
type Field struct {
	GoName string
	Pos    Pos
	Type   *Type
	Tag    Tag
}

// Tag is a parsed `fory:"…"` struct tag (the official Fory Go grammar).
type Tag struct {
	ID       int  // -1 when absent
	Nullable bool // `nullable` or `nullable=true`
	// NullableSet records an explicit `nullable=…`, so `nullable=false` on a
	// pointer can drop the null flag.
	NullableSet bool
	Ref         bool
	// RefSet records an explicit `ref=…`: `ref=false` opts a field out of
	// reference tracking, and an explicit tag makes a list, set or map
	// field trackable at all (docs/format.md §2.1).
	RefSet   bool
	Encoding string // "", "varint", "fixed", "tagged"
	Hint     *Hint  // `type=…`
	// Marshal is forygen's `marshal=text` or `marshal=binary`: the field's
	// type is written through its own marshaler methods ("" when absent).
	Marshal string
}

// Hint is a `type=` hint in official Fory Go's grammar: a node names a type
// (`_` for the one the Go type implies, a scalar such as int32 or string,
// `list`, `array`, `set` or `map`) and may carry arguments in parentheses:
// `element=`, `key=` and `value=` (hints themselves, nested to any depth),
// `nullable=`, `ref=` and `encoding=`.
type Hint struct {
	Name    string // "_", "list", "array", "set", "map", or a scalar name
	Element *Hint  // list, array or set element (`_` of a list or set too)
	Key     *Hint  // map key
	Value   *Hint  // map value
	// Nullable and Ref are the node's `nullable=` and `ref=` arguments, nil
	// when absent.
	Nullable *bool
	Ref      *bool
	Encoding string // "varint", "fixed", "tagged" (lower-cased), "" when absent
	Original string // the hint's text as written
}

// Kind is the Go shape of a type after resolving named types.
type Kind int

const (
	Invalid Kind = iota
	Bool
	Int8
	Int16
	Int32
	Int64
	Int
	Uint8
	Uint16
	Uint32
	Uint64
	Uint
	Float32
	Float64
	Float16  // serializer.Float16: IEEE 754 half precision, as its bits
	BFloat16 // serializer.BFloat16: bfloat16, as its bits
	String
	Slice
	Array
	Map
	Set      // serializer.Set[Elem]
	Optional // serializer.Optional[Elem]
	Struct   // a generated struct
	Pointer  // *Elem
	Enum     // a registered enum
	Time     // time.Time
	Duration // time.Duration
	Date     // serializer.Date
	Decimal  // serializer.Decimal
	Opaque   // any other named type, only used in staleness guards
	Any      // the empty interface: a value that carries its own type
	Union    // a //fory:union type
	// Text is a type written through its MarshalText and read through its
	// UnmarshalText (`marshal=text`): a STRING on the wire.
	Text
	// Ext is an extension type (Type.Named), written by the codec of this
	// package that Type.Codec names (ExtDecl).
	Ext
	// Binary is a type written through its MarshalBinary and read through
	// its UnmarshalBinary (`marshal=binary`): a BINARY on the wire.
	Binary
)

var kindNames = [...]string{"invalid", "bool", "int8", "int16", "int32", "int64", "int", "uint8", "uint16", "uint32",
	"uint64", "uint", "float32", "float64", "serializer.Float16", "serializer.BFloat16", "string", "slice", "array", "map", "serializer.Set", "serializer.Optional", "struct", "pointer", "enum",
	"time.Time", "time.Duration", "serializer.Date", "serializer.Decimal", "opaque", "any", "union", "text marshaler", "extension", "binary marshaler"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("kind(%d)", int(k))
}

// IsMarshaler reports whether k is written through the type's own
// marshaler methods (Text, Binary).
func (k Kind) IsMarshaler() bool { return k == Text || k == Binary }

// IsPrimitive reports whether k is a bool, integer or float kind (the
// 16-bit floats included).
func (k Kind) IsPrimitive() bool { return k >= Bool && k <= BFloat16 }

// IsScalar reports whether k's Go values are a bool, an integer or a float
// underneath, so hold no pointers: the primitives, enums and
// time.Duration (foryimpl.Scalar, whose slices may come from a block).
func (k Kind) IsScalar() bool { return k.IsPrimitive() || k == Enum || k == Duration }

// Type is a field or element type.
type Type struct {
	Kind Kind
	// Named is the Go type name when the type is a defined type (a named
	// primitive, an enum, a struct); the generator converts through it.
	Named *Named
	Elem  *Type // Slice, Array, Pointer, Map value
	Key   *Type // Map key
	Len   int   // Array length
	// Struct and Enum registrations, for type meta and TypeDefs.
	Reg Registration
	// Base is an Enum's underlying integer kind, which bounds its ordinals.
	Base Kind
	// Codec is an Ext's codec type, declared in the generated package.
	Codec string
	// Impls are, for an Any that is a non-empty interface (Named), the
	// generated types of the package known to implement it, as Go type
	// expressions ("*Circle"), for the generated code's comments and
	// errors.
	Impls []string
}

// Named identifies a defined Go type.
type Named struct {
	PkgPath string
	PkgName string
	Name    string
	// TypeArgs are the type arguments of an instantiated generic type
	// (Page[User]); Inst then names the hidden type its package generates
	// the instantiation's code on (Instance), when it is this package.
	TypeArgs []*Type
	Inst     string
}

// Instance is an instantiation of a generic struct type, registered by a
// directive on an alias of it (//fory:generate id=N on type UserPage =
// Page[User]), as official Go registers an instantiated type. Go declares
// no methods on an instantiation, so its generated code is on a hidden
// defined type with the same underlying struct (InstName), and the generic
// type's methods forward to it by the instantiation's dynamic type.
type Instance struct {
	Alias  string  // UserPage
	Base   string  // Page, the generic type, declared in the same package
	Params int     // Page's number of type parameters
	Args   []*Type // the type arguments, [User]
	GoName string  // Page[User], for errors
}

// InstName is the hidden type an instantiation registered by alias is
// generated on.
func InstName(alias string) string { return "fory" + alias }

// Pos is a source position.
type Pos struct {
	File      string
	Line, Col int
}

func (p Pos) String() string { return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col) }

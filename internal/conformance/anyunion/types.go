// Package anyunion holds the any and union cases of xlang-fixtures-2
// (section 3): any fields, []any, map[string]any, a union field with each
// of its alternatives, and unions as the root, by id and by name.
//
// The declarations are the cases' go_types; the //fory:union directives
// list the cases official Go registers with NewUnionSerializer. Pet and
// Token have the shape Fory's IDL compiler emits for a Go union.
package anyunion

//go:generate go run github.com/forygen/forygen/cmd/forygen

//fory:generate id=218
type AnyInner struct {
	ID  int32
	Tag string
}

//fory:generate id=219
type AnyHolder struct {
	Ptr   any
	Value any
	Str   any
	I32   any
	I64   any
	Flag  any
	F64   any
	Nil   any
	Ints  any
}

//fory:generate id=220
type AnyList struct {
	Items []any
}

//fory:generate id=221
type AnyMap struct {
	Entries map[string]any
}

//fory:generate id=215
type Dog struct {
	Name string `fory:"id=1"`
	Age  int32  `fory:"id=2"`
}

//fory:generate id=217
type PetOwner struct {
	Name string `fory:"id=1"`
	Pet  Pet    `fory:"id=2"`
}

// Pet is a union of a *Dog, a name and an age.
//
//fory:union id=216 1=*Dog 2=string 3=int32
type Pet struct {
	case_ PetCase
	value any
}

func (u Pet) ForyUnionMarker() {}

func (u Pet) ForyUnionGet() (uint32, any) { return uint32(u.case_), u.value }

func (u *Pet) ForyUnionSet(caseId uint32, value any) {
	u.case_ = PetCase(caseId)
	u.value = value
}

type PetCase uint32

const (
	PetCaseInvalid PetCase = 0
	PetCaseDog     PetCase = 1
	PetCaseName    PetCase = 2
	PetCaseAge     PetCase = 3
)

// Token is a union registered by name.
//
//fory:union name=demo.Token 1=string 2=int64 3=*Dog
type Token struct {
	case_ TokenCase
	value any
}

func (u Token) ForyUnionMarker() {}

func (u Token) ForyUnionGet() (uint32, any) { return uint32(u.case_), u.value }

func (u *Token) ForyUnionSet(caseId uint32, value any) {
	u.case_ = TokenCase(caseId)
	u.value = value
}

type TokenCase uint32

const (
	TokenCaseInvalid TokenCase = 0
	TokenCaseWord    TokenCase = 1
	TokenCaseNumber  TokenCase = 2
	TokenCaseDog     TokenCase = 3
)

// MaybePet has a nullable union: an unset one is null (README, "Annotations
// and tags"), as official Go's IDL-generated code means an optional union.
//
//fory:generate id=222
type MaybePet struct {
	Pet  Pet `fory:"id=1,nullable"`
	Must Pet `fory:"id=2"`
}

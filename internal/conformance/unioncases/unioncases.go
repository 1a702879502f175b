// Package unioncases is official Go's unions whose cases are lists and
// maps ([]int32, []string, map[string]int32), and a union held in an any
// (docs/format.md §12.4, §12.7).
package unioncases

//go:generate go run github.com/forygen/forygen/cmd/forygen

// Choice is a union, in the shape official Go's tests use.
//
//fory:union id=700 0=[]int32 1=[]string 2=map[string]int32 3=string
type Choice struct {
	caseID uint32
	value  any
}

// NewChoice returns a Choice holding case id with value v.
func NewChoice(id uint32, v any) Choice { return Choice{id, v} }

func (u Choice) ForyUnionGet() (uint32, any) { return u.caseID, u.value }

func (u *Choice) ForyUnionSet(caseID uint32, v any) { u.caseID, u.value = caseID, v }

//fory:generate id=701
type Holder struct {
	C Choice
	V any
}

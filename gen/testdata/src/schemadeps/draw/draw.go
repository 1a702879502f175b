// Package draw names the types of package geo in fields and a union case,
// and has fields named like IDL keywords, for the golden test of forygen
// schema (gen/testdata/schema): its IDL file imports geo.fdl.
package draw

import "github.com/forygen/forygen/gen/testdata/src/schemadeps/geo"

//fory:generate id=410
type Canvas struct {
	UserID   int64                 `fory:"id=1"` // user_id: the tag id, not the name, is on the wire
	HTTPCode int32                 `fory:"id=2"`
	IDs      []int64               `fory:"id=3"`
	Reserved string                `fory:"id=4"` // IDL keywords: reserved_, map_, message_, to_
	Map      map[string]int32      `fory:"id=5"`
	Message  string                `fory:"id=6"`
	To       bool                  `fory:"id=7"`
	UserId   int32                 `fory:"id=8"` // user_id again: user_id_8
	Origin   *geo.Point            `fory:"id=9,nullable"`
	Fill     geo.Color             `fory:"id=10"`
	Palette  []geo.Color           `fory:"id=11"`
	Points   []*geo.Point          `fory:"id=12,type=list(element=_(ref=false))"`
	ByName   map[string]*geo.Point `fory:"id=13,type=map(value=_(ref=true))"`
	Mark     Mark                  `fory:"id=14"`
}

// Mark is a point of geo or a label.
//
//fory:union id=411 1=*geo.Point 2=string
type Mark struct {
	id uint32
	v  any
}

func (m Mark) ForyUnionGet() (uint32, any)    { return m.id, m.v }
func (m *Mark) ForyUnionSet(id uint32, v any) { m.id, m.v = id, v }

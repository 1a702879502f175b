package dump

import (
	"github.com/forygen/forygen/internal/meta"
)

// Schemas are the local struct schemas `-types` supplies: per struct its
// Go name, registration, same-schema hash and TypeDef (fields in Fory
// order, docs/format.md §9.3).
type Schemas struct {
	Pattern string // what was loaded, for messages
	Structs []Local
}

// Local is one annotated struct of the loaded packages.
type Local struct {
	GoName string // pkg.Type
	Hash   int32  // same-schema hash (§10)
	Def    *meta.TypeDef
}

func (s *Schemas) byHash(h int32) *Local {
	if s == nil {
		return nil
	}
	for i := range s.Structs {
		if s.Structs[i].Hash == h {
			return &s.Structs[i]
		}
	}
	return nil
}

// byReg finds the local struct registered as ti says.
func (s *Schemas) byReg(ti *typeInfo) *Local {
	if s == nil || ti == nil {
		return nil
	}
	for i := range s.Structs {
		l := &s.Structs[i]
		switch {
		case ti.def != nil && ti.def.ByName:
			if l.Def.ByName && l.Def.Namespace == ti.def.Namespace && l.Def.TypeName == ti.def.TypeName {
				return l
			}
		case ti.def != nil:
			if !l.Def.ByName && l.Def.UserID == ti.def.UserID {
				return l
			}
		case ti.named:
			if l.Def.ByName && l.Def.Namespace == ti.ns && l.Def.TypeName == ti.name {
				return l
			}
		case ti.userID >= 0:
			if !l.Def.ByName && int64(l.Def.UserID) == ti.userID {
				return l
			}
		}
	}
	return nil
}

// nearby names the local struct of the same registration, if any.
func (s *Schemas) nearby(ti *typeInfo) string {
	if l := s.byReg(ti); l != nil {
		return "; " + ti.String() + " is " + l.GoName + " locally, with hash " + itoa32(l.Hash)
	}
	return ""
}

func itoa32(v int32) string { return fmtInt(int64(v)) }

// walkLocal walks a same-schema body by the local struct whose hash it
// carries.
func (d *decoder) walkLocal(off int, ti *typeInfo, h int32, l *Local) {
	if reg := d.opt.Schemas.byReg(ti); ti != nil && reg != nil && reg != l {
		d.printf(off, "note: the hash is %s's, but %s is registered locally as %s", l.GoName, ti, reg.GoName)
	}
	d.printf(off, "fields of %s (from -types)", l.GoName)
	d.fields(l.Def)
}

// compareDef says where a received TypeDef differs from the local struct
// of the same registration.
func (d *decoder) compareDef(off int, ti *typeInfo) {
	if d.compared == nil {
		d.compared = map[int]bool{}
	}
	if d.compared[ti.defIdx] {
		return
	}
	d.compared[ti.defIdx] = true
	l := d.opt.Schemas.byReg(ti)
	if l == nil {
		d.printf(off, "-types: no struct of %s is registered as %s", d.opt.Schemas.Pattern, ti)
		return
	}
	if string(l.Def.Encoded) == string(ti.def.Encoded) {
		d.printf(off, "-types: the TypeDef is %s's, byte for byte", l.GoName)
		return
	}
	d.printf(off, "-types: the TypeDef differs from %s's:", l.GoName)
	local := map[string]*meta.FieldDef{}
	for i := range l.Def.Fields {
		local[fieldLabel(&l.Def.Fields[i])] = &l.Def.Fields[i]
	}
	seen := map[string]bool{}
	for i := range ti.def.Fields {
		f := &ti.def.Fields[i]
		k := fieldLabel(f)
		seen[k] = true
		lf := local[k]
		switch {
		case lf == nil:
			d.printf(off, "  %s: only the writer has it (%s); a reader skips it", k, fieldDefString(f))
		case fieldDefString(lf) != fieldDefString(f):
			d.printf(off, "  %s: the writer has %s, %s has %s", k, fieldDefString(f), l.GoName, fieldDefString(lf))
		}
	}
	for i := range l.Def.Fields {
		if k := fieldLabel(&l.Def.Fields[i]); !seen[k] {
			d.printf(off, "  %s: only %s has it (%s); a reader leaves it zero", k, l.GoName, fieldDefString(&l.Def.Fields[i]))
		}
	}
}

package lock

import (
	"fmt"
	"sort"
	"strings"

	"github.com/forygen/forygen/gen/internal/model"
	"github.com/forygen/forygen/gen/internal/plan"

	"github.com/forygen/forygen/internal/meta"
)

// Change is one difference between a lock and the current declarations.
type Change struct {
	Verdict plan.Verdict
	What    string    // the kind of change: "field added", "narrowed", …
	Type    string    // Go type name
	Field   string    // Go field name, or "" for a type-level change
	Pos     model.Pos // the current declaration (the struct's for a removed field)
	Old     string    // the locked declaration, or ""
	New     string    // the current declaration, or ""
	OldPeer string    // what a peer on the old schema sees
	NewPeer string    // what the current code sees in messages of the old schema
}

// String renders a change as `file:line:col: forygen: verdict: …` with the
// declarations and the peers' view on indented lines.
func (c Change) String() string {
	var sb strings.Builder
	subject := c.Type
	if c.Field != "" {
		subject += "." + c.Field
	}
	fmt.Fprintf(&sb, "%s: forygen: %s: %s: %s\n", c.Pos, c.Verdict, subject, c.What)
	if c.Old != "" {
		fmt.Fprintf(&sb, "\told: %s\n", c.Old)
	}
	if c.New != "" {
		fmt.Fprintf(&sb, "\tnew: %s\n", c.New)
	}
	if c.OldPeer != "" {
		fmt.Fprintf(&sb, "\ta peer on the old schema: %s\n", c.OldPeer)
	}
	if c.NewPeer != "" {
		fmt.Fprintf(&sb, "\tthis code, reading old messages: %s\n", c.NewPeer)
	}
	return sb.String()
}

// Diff compares a lock with the current declarations (from Build) and returns
// every change, in source order.
func Diff(old, cur *File) []Change {
	var out []Change
	mapMembers := map[string]bool{}
	for _, f := range []*File{old, cur} {
		for _, p := range f.Packages {
			for _, t := range p.Types {
				for _, fd := range t.Fields {
					for _, r := range plan.MapMembers(fd.Type) {
						mapMembers[r] = true
					}
				}
			}
		}
	}
	// A struct nested in a type used in same-schema mode is written in that
	// mode too: the mode is the Fory's, for the whole message. Types of one
	// lock file are followed by registration.
	sameSchema := map[string]bool{}
	byReg := map[string]*Type{}
	for _, p := range old.Packages {
		for _, t := range p.Types {
			byReg[t.Reg] = t
			if t.Mode == ModeSameSchema {
				sameSchema[t.Reg] = true
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for reg := range sameSchema {
			t := byReg[reg]
			if t == nil {
				continue
			}
			for _, fd := range t.Fields {
				for _, r := range regsOf(fd.Type) {
					if !sameSchema[r] {
						sameSchema[r], changed = true, true
					}
				}
			}
		}
	}
	curPkgs := map[string]*Package{}
	for _, p := range cur.Packages {
		curPkgs[p.Path] = p
	}
	for _, op := range old.Packages {
		np := curPkgs[op.Path]
		if np == nil {
			np = &Package{Path: op.Path}
		}
		out = append(out, diffPackage(op, np, mapMembers, sameSchema)...)
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i].Pos, out[j].Pos
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Col < b.Col
	})
	return out
}

func diffPackage(op, np *Package, mapMembers, sameSchema map[string]bool) []Change {
	var out []Change
	cur := map[string]*Type{}
	byReg := map[string]*Type{}
	for _, t := range np.Types {
		cur[t.Name] = t
		byReg[t.Reg] = t
	}
	matched := map[*Type]bool{}
	var pkgPos model.Pos
	if len(np.Types) > 0 {
		pkgPos = np.Types[0].Pos
	}
	for _, ot := range op.Types {
		nt := cur[ot.Name]
		if nt == nil {
			nt = byReg[ot.Reg] // renamed Go type, same registration
		}
		if nt == nil || nt.Enum != ot.Enum || nt.Union != ot.Union {
			out = append(out, Change{Verdict: plan.Breaking, What: "type removed", Type: ot.Name, Pos: pkgPos,
				Old:     kindWord(ot) + " " + ot.Name + " " + ot.Reg,
				OldPeer: "its messages are refused here: " + ot.Reg + " is no longer registered"})
			continue
		}
		matched[nt] = true
		out = append(out, diffType(ot, nt, mapMembers, sameSchema[ot.Reg])...)
	}
	for _, nt := range np.Types {
		if !matched[nt] {
			out = append(out, Change{Verdict: plan.Safe, What: "type added", Type: nt.Name, Pos: nt.Pos,
				New: kindWord(nt) + " " + nt.Name + " " + nt.Reg, OldPeer: "nothing, until it receives a " + nt.Name})
		}
	}
	return out
}

func kindWord(t *Type) string {
	switch {
	case t.Enum:
		return "enum"
	case t.Union:
		return "union"
	}
	return "struct"
}

// diffType compares two versions of a type; sameSchemaMode is set when the
// type is locked in same-schema mode or nested in one that is.
func diffType(ot, nt *Type, mapMembers map[string]bool, sameSchemaMode bool) []Change {
	var out []Change
	if ot.Reg != nt.Reg {
		out = append(out, Change{Verdict: plan.Breaking, What: "registration changed", Type: nt.Name, Pos: nt.Pos,
			Old: ot.Reg, New: nt.Reg,
			OldPeer: fmt.Sprintf("messages carry %s, which it does not know (or knows as another type)", nt.Reg)})
	}
	if ot.Union {
		return append(out, diffUnion(ot, nt)...)
	}
	if ot.Enum {
		if ot.Base != nt.Base {
			out = append(out, Change{Verdict: plan.Lossy, What: "enum base type changed", Type: nt.Name, Pos: nt.Pos,
				Old: "base " + ot.Base, New: "base " + nt.Base,
				OldPeer: "the same ordinals; a value outside the narrower base fails the read"})
		}
		return append(out, diffEnum(ot, nt)...)
	}
	var fields []Change
	curByID := map[string]*Field{}
	for _, f := range nt.Fields {
		curByID[f.Identifier] = f
	}
	oldByID := map[string]*Field{}
	for _, f := range ot.Fields {
		oldByID[f.Identifier] = f
	}
	var removed, added []*Field
	for _, of := range ot.Fields {
		nf := curByID[of.Identifier]
		if nf == nil {
			removed = append(removed, of)
			continue
		}
		// The track_ref bits of a tracking Fory count only for types whose
		// peers track references.
		a, b := of.FieldSchema, nf.FieldSchema
		if !ot.Tracking {
			a, b = untracked(a), untracked(b)
		}
		if sameSchema(a, b) {
			continue
		}
		v, oldPeer, newPeer := plan.FieldChange(a, b)
		fields = append(fields, Change{Verdict: v, What: describe(a, b, of.GoName != nf.GoName), Type: nt.Name, Field: nf.GoName, Pos: nf.Pos,
			Old: of.Decl, New: nf.Decl, OldPeer: oldPeer, NewPeer: newPeer})
	}
	for _, nf := range nt.Fields {
		if oldByID[nf.Identifier] == nil {
			added = append(added, nf)
		}
	}
	// A field whose Go name stayed but whose identifier changed (an id= tag
	// added, removed or renumbered, or an untagged field renamed on the
	// wire) is one change, not a removal and an addition.
	for i := 0; i < len(removed); i++ {
		for j := 0; j < len(added); j++ {
			of, nf := removed[i], added[j]
			if of.GoName != nf.GoName {
				continue
			}
			fields = append(fields, Change{Verdict: plan.Lossy, What: fmt.Sprintf("identifier changed from %s to %s", of.Identifier, nf.Identifier),
				Type: nt.Name, Field: nf.GoName, Pos: nf.Pos, Old: of.Decl, New: nf.Decl,
				OldPeer: "the field is gone: it reads the zero value, and what it sends is dropped here"})
			removed = append(removed[:i], removed[i+1:]...)
			added = append(added[:j], added[j+1:]...)
			i--
			break
		}
	}
	for _, of := range removed {
		c := Change{Verdict: plan.Safe, What: "field removed", Type: nt.Name, Field: of.GoName, Pos: nt.Pos, Old: of.Decl,
			OldPeer: "the zero value for " + of.GoName + "; what it sends is skipped"}
		if why := plan.Unskippable(of.Type); why != "" {
			c.Verdict = plan.Breaking
			c.NewPeer = fmt.Sprintf("%s cannot be skipped (%s): old messages fail to decode", of.Type, why)
		}
		fields = append(fields, c)
	}
	for _, nf := range added {
		c := Change{Verdict: plan.Safe, What: "field added", Type: nt.Name, Field: nf.GoName, Pos: nf.Pos, New: nf.Decl,
			OldPeer: "it skips " + nf.GoName + "; this code reads the zero value from old messages"}
		if why := plan.Unskippable(nf.Type); why != "" {
			c.Verdict = plan.Breaking
			c.OldPeer = fmt.Sprintf("%s cannot be skipped (%s): new messages fail to decode", nf.Type, why)
		}
		fields = append(fields, c)
	}
	if sameSchemaMode && !hashesKept(ot, nt) {
		peer := fmt.Sprintf("schema hash %s where it expects %s: it refuses every message of this type", hashText(nt.Hash), hashText(ot.Hash))
		if ot.Hash == nt.Hash {
			peer = fmt.Sprintf("official Go's schema hash %s where a peer on official Go's form expects %s: it refuses every message of this type",
				hashText(goHash(nt)), hashText(goHash(ot)))
		}
		for i := range fields {
			fields[i].Verdict = plan.Breaking
			fields[i].What += " (same-schema mode)"
			fields[i].OldPeer, fields[i].NewPeer = peer, ""
		}
		if len(fields) == 0 {
			fields = append(fields, Change{Verdict: plan.Breaking, What: "schema hash changed (same-schema mode)", Type: nt.Name, Pos: nt.Pos,
				Old: hashesText(ot), New: hashesText(nt), OldPeer: peer})
		}
	}
	if mapMembers[ot.Reg] || mapMembers[nt.Reg] {
		for i := range fields {
			if fields[i].Verdict != plan.Breaking {
				fields[i].Verdict = plan.Breaking
				fields[i].What += " (the struct is a map key or value)"
				fields[i].OldPeer = "map entries carry no TypeDef: it reads them with its own schema and misparses or refuses the message"
				fields[i].NewPeer = ""
			}
		}
	}
	return append(out, fields...)
}

// diffUnion compares the cases of two versions of a union. A union value
// carries its case id and its value's type meta, and the reader takes only
// the Go type its case declares, so a case only one side declares fails the
// messages that hold it, and a case whose wire type changed (another type
// id, or a struct of another registration: *Dog → *Cat) means another thing
// to each side. A Go type change with the same wire type (*Dog → Dog, or a
// renamed struct keeping its registration) is safe.
func diffUnion(ot, nt *Type) []Change {
	var out []Change
	cur := map[uint32]UnionCase{}
	for _, c := range nt.Cases {
		cur[c.ID] = c
	}
	old := map[uint32]bool{}
	for _, oc := range ot.Cases {
		old[oc.ID] = true
		nc, ok := cur[oc.ID]
		switch {
		case !ok:
			out = append(out, Change{Verdict: plan.Lossy, What: fmt.Sprintf("case %d removed", oc.ID), Type: nt.Name, Pos: nt.Pos,
				Old: caseDecl(oc), NewPeer: fmt.Sprintf("old messages holding case %d fail to decode", oc.ID)})
		case nc.Type.String() != oc.Type.String():
			from, to := oc.Type.String(), nc.Type.String()
			if oc.Go != "" && nc.Go != "" {
				from, to = oc.Go, nc.Go
			}
			out = append(out, Change{Verdict: plan.Breaking, What: fmt.Sprintf("case %d type changed from %s to %s", oc.ID, from, to), Type: nt.Name, Pos: nt.Pos,
				Old: caseDecl(oc), New: caseDecl(nc),
				OldPeer: fmt.Sprintf("a case %d value of %s where it expects %s: the message fails to decode", oc.ID, caseType(nc), caseType(oc)),
				NewPeer: fmt.Sprintf("a case %d value of %s where it expects %s: the message fails to decode", oc.ID, caseType(oc), caseType(nc))})
		case oc.Go != "" && nc.Go != "" && oc.Go != nc.Go:
			out = append(out, Change{Verdict: plan.Safe, What: fmt.Sprintf("case %d Go type changed from %s to %s, the same wire type", oc.ID, oc.Go, nc.Go), Type: nt.Name, Pos: nt.Pos,
				Old: caseDecl(oc), New: caseDecl(nc),
				OldPeer: fmt.Sprintf("nothing: case %d still carries %s", oc.ID, nc.Type)})
		}
	}
	for _, nc := range nt.Cases {
		if !old[nc.ID] {
			out = append(out, Change{Verdict: plan.Lossy, What: fmt.Sprintf("case %d added", nc.ID), Type: nt.Name, Pos: nt.Pos,
				New: caseDecl(nc), OldPeer: fmt.Sprintf("messages holding case %d fail to decode", nc.ID)})
		}
	}
	return out
}

// caseDecl spells a union case as its directive does, with its wire type:
// `1=*Dog (compatible_struct(id=215))`.
func caseDecl(c UnionCase) string {
	switch c.Go {
	case "":
		return fmt.Sprintf("case %d %s", c.ID, c.Type)
	case c.Type.String():
		return fmt.Sprintf("%d=%s", c.ID, c.Go)
	}
	return fmt.Sprintf("%d=%s (%s)", c.ID, c.Go, c.Type)
}

// caseType spells a case's value type: Go type and wire type.
func caseType(c UnionCase) string {
	if c.Go == "" || c.Go == c.Type.String() {
		return c.Type.String()
	}
	return c.Go + " (" + c.Type.String() + ")"
}

// diffEnum compares the constants of two versions of an enum (the rules at
// plan.EnumMaxOrdinal): the wire carries ordinals, never names.
func diffEnum(ot, nt *Type) []Change {
	var out []Change
	oldBy, curBy := map[string]int64{}, map[string]EnumValue{}
	for _, v := range ot.Values {
		oldBy[v.Name] = v.Value
	}
	for _, v := range nt.Values {
		curBy[v.Name] = v
	}
	max := plan.EnumMaxOrdinal(nt.Base)
	at := func(v EnumValue) model.Pos {
		if v.Pos.File != "" {
			return v.Pos
		}
		return nt.Pos
	}
	decl := func(name string, v int64) string { return fmt.Sprintf("value %s = %d", name, v) }
	var removed []EnumValue
	for _, ov := range ot.Values {
		nv, ok := curBy[ov.Name]
		switch {
		case !ok:
			removed = append(removed, ov)
		case nv.Value != ov.Value:
			out = append(out, Change{Verdict: plan.Breaking, What: fmt.Sprintf("constant %s renumbered from %d to %d", ov.Name, ov.Value, nv.Value),
				Type: nt.Name, Pos: at(nv), Old: decl(ov.Name, ov.Value), New: decl(nv.Name, nv.Value),
				OldPeer: fmt.Sprintf("this code sends %s as ordinal %d, which it reads as %s", ov.Name, nv.Value, ot.valueName(nv.Value)),
				NewPeer: fmt.Sprintf("the peer's %s arrives as ordinal %d, which reads here as %s", ov.Name, ov.Value, nt.valueName(ov.Value))})
		}
	}
	var added []EnumValue
	for _, nv := range nt.Values {
		if _, ok := oldBy[nv.Name]; !ok {
			added = append(added, nv)
		}
	}
	// A removed constant and an added one with the same ordinal are a rename.
	for i := 0; i < len(removed); i++ {
		for j := 0; j < len(added); j++ {
			ov, nv := removed[i], added[j]
			if ov.Value != nv.Value {
				continue
			}
			out = append(out, Change{Verdict: plan.Safe, What: fmt.Sprintf("constant %s renamed to %s", ov.Name, nv.Name),
				Type: nt.Name, Pos: at(nv), Old: decl(ov.Name, ov.Value), New: decl(nv.Name, nv.Value),
				OldPeer: fmt.Sprintf("nothing: the wire carries the ordinal %d, not the name", nv.Value)})
			removed = append(removed[:i], removed[i+1:]...)
			added = append(added[:j], added[j+1:]...)
			i--
			break
		}
	}
	for _, ov := range removed {
		c := Change{Verdict: plan.Lossy, What: fmt.Sprintf("constant %s removed", ov.Name), Type: nt.Name, Pos: nt.Pos,
			Old:     decl(ov.Name, ov.Value),
			OldPeer: fmt.Sprintf("nothing new: this code no longer names ordinal %d", ov.Value)}
		alias, named := nt.constant(ov.Value)
		switch {
		case named && oldBy[alias] == ov.Value:
			// Another name of the same ordinal, in both versions: an alias removed.
			c.Verdict = plan.Safe
			c.What += fmt.Sprintf(" (ordinal %d is still %s)", ov.Value, alias)
			c.OldPeer = "nothing: the wire carries the ordinal, not the name"
		case ov.Value < 0:
			c.Verdict = plan.Safe
			c.OldPeer = fmt.Sprintf("nothing: %d is not an ordinal, so no peer could send %s", ov.Value, ov.Name)
		case uint64(ov.Value) <= max:
			c.NewPeer = fmt.Sprintf("the peer may still send %s: ordinal %d decodes (the reader accepts any ordinal up to %d, the maximum of base %s) as a %s value no constant names",
				ov.Name, ov.Value, max, nt.Base, nt.Name)
		default:
			c.NewPeer = fmt.Sprintf("the peer may still send %s, ordinal %d, which this code cannot hold (base %s): the message fails to decode",
				ov.Name, ov.Value, nt.Base)
			c.Verdict = plan.Breaking
		}
		out = append(out, c)
	}
	for _, nv := range added {
		out = append(out, Change{Verdict: plan.Safe, What: fmt.Sprintf("constant %s added", nv.Name), Type: nt.Name, Pos: at(nv),
			New:     decl(nv.Name, nv.Value),
			OldPeer: fmt.Sprintf("ordinal %d, once this code sends %s, decodes there as a value its constants do not name", nv.Value, nv.Name)})
	}
	return out
}

// constant is the name of an enum's constant of ordinal v (the first by
// name when several share it).
func (t *Type) constant(v int64) (string, bool) {
	for _, c := range t.Values {
		if c.Value == v {
			return c.Name, true
		}
	}
	return "", false
}

// valueName names an ordinal with the enum's constants, or says that none
// does.
func (t *Type) valueName(v int64) string {
	if n, ok := t.constant(v); ok {
		return n
	}
	return "a " + t.Name + " no constant names"
}

// regsOf returns the registrations of the structs a type tree names.
func regsOf(t plan.TypeRef) []string {
	var out []string
	if meta.IsStructKind(t.TypeID) && t.Reg != "" {
		out = append(out, t.Reg)
	}
	for _, c := range t.Children {
		out = append(out, regsOf(c)...)
	}
	return out
}

// untracked drops what only a Fory that tracks references writes.
func untracked(f plan.FieldSchema) plan.FieldSchema {
	f.Tracked = false
	f.Type = dropRefs(f.Type)
	return f
}

func dropRefs(t plan.TypeRef) plan.TypeRef {
	t.Ref = false
	if t.Children != nil {
		cs := make([]plan.TypeRef, len(t.Children))
		for i, c := range t.Children {
			cs[i] = dropRefs(c)
		}
		t.Children = cs
	}
	return t
}

func sameSchema(a, b plan.FieldSchema) bool {
	return a.Identifier == b.Identifier && a.Nullable == b.Nullable && a.Ref == b.Ref && a.Tracked == b.Tracked &&
		a.Type.String() == b.Type.String()
}

// describe names the kind of a field change.
func describe(of, nf plan.FieldSchema, renamed bool) string {
	a, b := of.Type, nf.Type
	var parts []string
	retagged := renamed && strings.TrimLeft(of.Identifier, "0123456789") == ""
	switch {
	case a.String() == b.String():
	case retagged:
		parts = append(parts, fmt.Sprintf("tag id %s reused with another type (%s, was %s)", nf.Identifier, b, a))
	case strings.ReplaceAll(a.String(), "?", "") == strings.ReplaceAll(b.String(), "?", ""):
		parts = append(parts, fmt.Sprintf("element nullability changed from %s to %s", a, b))
	case a.TypeID == meta.TypeMap && b.TypeID == meta.TypeMap && a.Children[0].String() != b.Children[0].String():
		parts = append(parts, fmt.Sprintf("map key type changed from %s to %s", a.Children[0], b.Children[0]))
	case a.TypeID == meta.TypeMap && b.TypeID == meta.TypeMap:
		parts = append(parts, fmt.Sprintf("map value type changed from %s to %s", a.Children[1], b.Children[1]))
	default:
		v1, why := plan.ReadAs(b, a)
		v2, _ := plan.ReadAs(a, b)
		seq := func(t plan.TypeRef) bool {
			return t.TypeID == meta.TypeList || t.TypeID == meta.TypeBinary || plan.TypeName(t.TypeID) != strings.TrimSuffix(plan.TypeName(t.TypeID), "_array")
		}
		switch {
		case v1 == plan.Safe && why == "":
			parts = append(parts, fmt.Sprintf("element nullability changed from %s to %s", a, b))
		case a.TypeID != b.TypeID && seq(a) && seq(b) && v1 != plan.Breaking:
			parts = append(parts, fmt.Sprintf("list ↔ array conversion from %s to %s", a, b))
		case v1 == plan.Safe && v2 == plan.Safe:
			parts = append(parts, fmt.Sprintf("encoding changed from %s to %s", a, b))
		case v1 == plan.Safe && v2 != plan.Breaking:
			parts = append(parts, fmt.Sprintf("narrowed from %s to %s", a, b))
		case v2 == plan.Safe && v1 != plan.Breaking:
			parts = append(parts, fmt.Sprintf("widened from %s to %s", a, b))
		case v1 == plan.Breaking || v2 == plan.Breaking:
			parts = append(parts, fmt.Sprintf("type changed from %s to %s", a, b))
		default:
			parts = append(parts, fmt.Sprintf("converted from %s to %s", a, b))
		}
	}
	if of.Nullable != nf.Nullable {
		if nf.Nullable {
			parts = append(parts, "became nullable")
		} else {
			parts = append(parts, "no longer nullable")
		}
	}
	if of.Ref != nf.Ref {
		if nf.Ref {
			parts = append(parts, "ref added")
		} else {
			parts = append(parts, "ref removed")
		}
	} else if of.Tracked != nf.Tracked {
		if nf.Tracked {
			parts = append(parts, "tracked by reference (with WithTrackRef)")
		} else {
			parts = append(parts, "no longer tracked by reference (with WithTrackRef)")
		}
	}
	return strings.Join(parts, ", ")
}

// hashesText is a struct's hashes as its lock line has them.
func hashesText(t *Type) string {
	if t.GoHash != 0 {
		return "hash=" + hashText(t.Hash) + " go-hash=" + hashText(t.GoHash)
	}
	return "hash=" + hashText(t.Hash)
}

// goHash is official Go's same-schema hash of t: GoHash where it differs
// from Hash.
func goHash(t *Type) int32 {
	if t.GoHash != 0 {
		return t.GoHash
	}
	return t.Hash
}

// hashesKept reports whether a same-schema peer on the old schema still
// accepts the new one's messages. A lock line with one hash holds both
// forms' (no pointer or any field), or official Go's in a lock written
// before go-hash= was recorded: either new hash keeps it.
func hashesKept(ot, nt *Type) bool {
	if ot.GoHash == 0 {
		return ot.Hash == nt.Hash || ot.Hash == goHash(nt)
	}
	return ot.Hash == nt.Hash && ot.GoHash == goHash(nt)
}

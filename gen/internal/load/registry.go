package load

import (
	"fmt"
	"sort"

	"github.com/forygen/forygen/gen/internal/model"
)

// Registration is one annotated type of a run, for the duplicate check. A
// run that loads only some packages (gen's up-to-date skip) passes those of
// the others, recorded by an earlier run, as Config.Known.
type Registration struct {
	Reg     model.Registration
	Enum    bool
	Name    string // Go type name
	PkgPath string
	Deps    map[string]bool // import paths its package (or test variant) depends on
	Pos     model.Pos
}

func (r Registration) describe(from string) string {
	kind := "struct"
	if r.Enum {
		kind = "enum"
	}
	name := r.Name
	if r.PkgPath != from {
		name = r.PkgPath + "." + r.Name
	}
	return fmt.Sprintf("%s %s (%s)", kind, name, r.Pos)
}

// together reports whether two types can meet in one schema: they are in
// the same package (its own files and its tests), or one's package imports
// the other's. Packages that only share a forygen run (two versions of a
// schema, unrelated examples) may reuse registrations.
func together(a, b Registration) bool {
	return a.PkgPath == b.PkgPath || a.Deps[b.PkgPath] || b.Deps[a.PkgPath]
}

// duplicateRegistrations reports every type of a run whose registration
// repeats the one of an earlier type (by position) it can meet. Fory
// resolves types by user id in one table shared by structs and enums
// (official Fory Go's userTypeIdToTypeInfo), and by namespace and type name
// in another, also shared: two such types cannot both be registered, and a
// peer could not tell them apart.
//
// With all, every pair of the run counts (Config.OneRegistry), and the
// error says so when the two packages do not import each other.
func duplicateRegistrations(regs []Registration, all bool) []error {
	sort.SliceStable(regs, func(i, j int) bool {
		a, b := regs[i].Pos, regs[j].Pos
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Col < b.Col
	})
	seen := map[model.Registration][]Registration{}
	var errs []error
	for _, r := range regs {
		key := r.Reg
		if key.ByName {
			key.ID = 0
		} else {
			key.Namespace, key.Name = "", ""
		}
		for _, prev := range seen[key] {
			met := together(prev, r)
			if !met && !all {
				continue
			}
			what := "id"
			if r.Reg.ByName {
				what = "name"
			}
			shared := ""
			if prev.Enum != r.Enum {
				shared = fmt.Sprintf(", and structs and enums share Fory's registration %ss", what)
			}
			fix := fmt.Sprintf("give each type its own %s", what)
			if !met {
				// Packages of one run are meant to be one program's types;
				// two schema versions that never meet are generated apart.
				fix += " (the packages of one forygen run share one registry, as one program's Fory does; if the two never meet in one program, run forygen on each package alone)"
			}
			errs = append(errs, &Error{Pos: r.Pos, What: fmt.Sprintf(
				"%s: registration %s is also used by %s%s; %s",
				r.Name, r.Reg, prev.describe(r.PkgPath), shared, fix)})
			break
		}
		seen[key] = append(seen[key], r)
	}
	return errs
}

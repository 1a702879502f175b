package load

import (
	"fmt"
	"go/constant"
	"go/token"
	"go/types"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"
)

// Const is a named constant of a defined integer type.
type Const struct {
	Name  string
	Value int64
	Pos   token.Position
}

// EnumConstants returns, for every defined integer type of the packages
// (with their tests), its package-level constants in source order, keyed by
// "import/path.TypeName". `forygen schema` names enum values with them.
// Generated files are hidden as in Load.
func EnumConstants(cfg Config) (map[string][]Const, error) {
	patterns := cfg.Patterns
	if len(patterns) == 0 {
		patterns = []string{"."}
	}
	buildFlags := []string{}
	if len(cfg.Tags) > 0 {
		buildFlags = append(buildFlags, "-tags="+strings.Join(cfg.Tags, ","))
	}
	listed, err := packages.Load(&packages.Config{Mode: packages.NeedName | packages.NeedFiles, Dir: cfg.Dir, BuildFlags: buildFlags, Tests: true}, patterns...)
	if err != nil {
		return nil, fmt.Errorf("forygen: loading %v: %w", patterns, err)
	}
	overlay := map[string][]byte{}
	for _, p := range listed {
		for _, f := range p.GoFiles {
			if IsGenerated(f) {
				overlay[f] = []byte("package " + p.Name + "\n")
			}
		}
	}
	pkgs, err := packages.Load(&packages.Config{
		Mode:    packages.NeedName | packages.NeedFiles | packages.NeedSyntax | packages.NeedTypes | packages.NeedTypesInfo | packages.NeedImports | packages.NeedDeps,
		Dir:     cfg.Dir,
		Overlay: overlay, BuildFlags: buildFlags, Tests: true,
	}, patterns...)
	if err != nil {
		return nil, fmt.Errorf("forygen: loading %v: %w", patterns, err)
	}
	out := map[string][]Const{}
	seen := map[string]bool{}
	for _, p := range pkgs {
		if p.Types == nil {
			continue
		}
		scope := p.Types.Scope()
		for _, name := range scope.Names() {
			c, ok := scope.Lookup(name).(*types.Const)
			if !ok {
				continue
			}
			n, ok := c.Type().(*types.Named)
			if !ok || n.Obj().Pkg() == nil {
				continue
			}
			if b, ok := n.Underlying().(*types.Basic); !ok || b.Info()&types.IsInteger == 0 {
				continue
			}
			v, exact := constant.Int64Val(constant.ToInt(c.Val()))
			if !exact {
				continue
			}
			key := n.Obj().Pkg().Path() + "." + n.Obj().Name()
			pos := p.Fset.Position(c.Pos())
			id := key + "." + name + "@" + pos.String()
			if seen[id] {
				continue // the package and its test variant
			}
			seen[id] = true
			out[key] = append(out[key], Const{Name: name, Value: v, Pos: pos})
		}
	}
	for k, cs := range out {
		sort.SliceStable(cs, func(i, j int) bool {
			if cs[i].Pos.Filename != cs[j].Pos.Filename {
				return cs[i].Pos.Filename < cs[j].Pos.Filename
			}
			return cs[i].Pos.Offset < cs[j].Pos.Offset
		})
		out[k] = cs
	}
	return out, nil
}

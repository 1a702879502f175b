package load

import (
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/packages"
)

// Const is a named constant of a defined integer type.
type Const struct {
	Name  string
	Value int64
	Pos   token.Position
}

// consts adds the package-level constants of p's defined integer types to
// out, keyed by "import/path.TypeName"; a constant a package and its test
// variant both declare is added once.
func (ls *Listing) consts(p *packages.Package, out map[string][]Const) {
	if p.Types == nil {
		return
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
		dup := false
		for _, have := range out[key] {
			if have.Name == name && have.Pos == pos {
				dup = true
			}
		}
		if !dup {
			out[key] = append(out[key], Const{Name: name, Value: v, Pos: pos})
		}
	}
}

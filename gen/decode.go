package gen

import (
	"errors"
	"fmt"
	"io"
	"sort"

	"github.com/forygen/forygen/gen/internal/dump"
	"github.com/forygen/forygen/gen/internal/load"
	"github.com/forygen/forygen/internal/meta"
)

// DecodeMain runs `forygen decode` (cmd/forygen's manual): it prints a Fory
// xlang message as a tree and returns the exit status.
func DecodeMain(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return dump.Main(args, stdin, stdout, stderr, decodeSchemas)
}

// decodeSchemas loads the annotated structs of pattern for `decode -types`
// through the pipeline `forygen schema` uses (load, then plan): per struct
// its same-schema hash and its TypeDef, whose fields are in Fory order.
func decodeSchemas(pattern string, tags []string) (*dump.Schemas, error) {
	res, errs := load.Load(load.Config{Patterns: []string{pattern}, Tags: tags})
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	p, errs := planAll(res)
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	s := &dump.Schemas{Pattern: pattern}
	for _, mp := range res.Packages {
		for _, f := range mp.Files {
			for _, decl := range f.Structs {
				ps := p.plans[decl]
				if ps == nil {
					continue
				}
				td, _, err := meta.ParseTypeDef(ps.TypeDef, meta.Limits{MaxBodyBytes: 1 << 20, MaxFields: 1 << 16})
				if err != nil {
					return nil, fmt.Errorf("%s.%s: its own TypeDef: %w", mp.Name, decl.Name, err)
				}
				s.Structs = append(s.Structs, dump.Local{GoName: mp.Name + "." + decl.Name, Hash: ps.SchemaHash, Def: td})
			}
		}
	}
	if len(s.Structs) == 0 {
		return nil, fmt.Errorf("no annotated structs in %s", pattern)
	}
	sort.Slice(s.Structs, func(i, j int) bool { return s.Structs[i].GoName < s.Structs[j].GoName })
	return s, nil
}

// Package specform rewrites official Fory Go's golden messages into the form
// forygen writes where the two differ on purpose (docs/format.md §14), so
// that the conformance tests can compare forygen's bytes with an exact
// expectation and still read official Go's own bytes.
package specform

import (
	"fmt"

	"github.com/forygen/forygen/internal/meta"
)

// AnyNullable returns a compatible-mode message whose root is a struct with
// a new TypeDef (header, root flag, COMPATIBLE_STRUCT, index 0, then the
// TypeDef) with every any field (type 0) of that TypeDef declared nullable:
// official Go declares an untagged any field not nullable and writes its
// flag all the same; forygen, like the specification and the other
// languages, declares what is written (docs/format.md §14.18). The rest of
// the message is kept as it is.
func AnyNullable(data []byte) ([]byte, error) {
	if len(data) < 4 || data[2] != 0x1c || data[3] != 0x00 {
		return nil, fmt.Errorf("specform: not a compatible struct root with a new TypeDef: % x", data[:min(len(data), 4)])
	}
	td, n, err := meta.ParseTypeDef(data[4:], meta.DefaultLimits)
	if err != nil {
		return nil, err
	}
	for i := range td.Fields {
		if td.Fields[i].Type.TypeID == 0 {
			td.Fields[i].Nullable = true
		}
	}
	out := append([]byte(nil), data[:4]...)
	out = append(out, meta.EncodeTypeDef(td)...)
	return append(out, data[4+n:]...), nil
}

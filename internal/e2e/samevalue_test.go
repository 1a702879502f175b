package e2e_test

import (
	"reflect"
	"testing"

	"github.com/forygen/forygen/internal/e2e"
)

// TestSameValueCycles: the fuzz targets' comparison ends on cyclic values
// (reference tracking) and still tells them apart.
func TestSameValueCycles(t *testing.T) {
	cycle := func(vals ...int32) *e2e.Node {
		nodes := make([]e2e.Node, len(vals))
		for i, v := range vals {
			nodes[i].Value = v
			nodes[i].Next = &nodes[(i+1)%len(vals)]
		}
		return &nodes[0]
	}
	same := func(a, b any) bool {
		emptyNotNil(reflect.ValueOf(a))
		return sameValue(reflect.ValueOf(a), reflect.ValueOf(b))
	}
	if !same(cycle(1), cycle(1)) || !same(cycle(1, 2, 3), cycle(1, 2, 3)) {
		t.Error("equal cycles compare unequal")
	}
	if same(cycle(1), cycle(2)) || same(cycle(1, 2, 3), cycle(1, 2, 4)) || same(cycle(1, 2), &e2e.Node{Value: 1, Next: &e2e.Node{Value: 2}}) {
		t.Error("different cycles compare equal")
	}
}

package byname

import (
	"testing"

	"github.com/forygen/forygen/internal/conformance/ext/exttest"
	"github.com/forygen/forygen/internal/conformance/ext/money"
	"github.com/forygen/forygen/serializer"
)

var types = exttest.Types{
	ByName:    true,
	Holder:    func(v any) serializer.Message { return &Holder{V: v} },
	NewHolder: func() serializer.Message { return &Holder{} },
	HeldValue: func(m serializer.Message) any { return m.(*Holder).V },
	Bag: func(l []money.Money, m map[string]money.Money, p []*money.Money) serializer.Message {
		return &Bag{L: l, M: m, P: p}
	},
	NewBag:  func() serializer.Message { return &Bag{} },
	BagPtrs: func(m serializer.Message) []*money.Money { return m.(*Bag).P },
}

func TestExtInAny(t *testing.T) { exttest.InAny(t, types) }

func TestExtRoot(t *testing.T) { exttest.Root(t, types) }

func TestExtElems(t *testing.T) { exttest.Elems(t, types) }

package plan

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/forygen/forygen/gen/internal/model"
	"github.com/forygen/forygen/internal/meta"
)

// typeDefText spells a TypeDef field type: the type id, then for a child
// its nullable (n) and track_ref (r) bits, children in angle brackets.
func typeDefText(ft meta.FieldType, child bool) string {
	s := fmt.Sprint(ft.TypeID)
	if child && ft.Nullable {
		s += "n"
	}
	if child && ft.TrackRef {
		s += "r"
	}
	if len(ft.Children) > 0 {
		var cs []string
		for _, c := range ft.Children {
			cs = append(cs, typeDefText(c, true))
		}
		s += "<" + strings.Join(cs, ",") + ">"
	}
	return s
}

func hint(name string, mods ...func(*model.Hint)) *model.Hint {
	h := &model.Hint{Name: name, Original: name}
	for _, m := range mods {
		m(h)
	}
	return h
}

func elem(c *model.Hint) func(*model.Hint) { return func(h *model.Hint) { h.Element = c } }
func key(c *model.Hint) func(*model.Hint)  { return func(h *model.Hint) { h.Key = c } }
func val(c *model.Hint) func(*model.Hint)  { return func(h *model.Hint) { h.Value = c } }
func enc(e string) func(*model.Hint)       { return func(h *model.Hint) { h.Encoding = e } }
func null(b bool) func(*model.Hint)        { return func(h *model.Hint) { h.Nullable = &b } }
func refHint(b bool) func(*model.Hint)     { return func(h *model.Hint) { h.Ref = &b } }

// Nested hints apply at every level: the type ids of elements, keys and
// values, and the children's TypeDef bits, as official Go writes them
// (golden set 3 group 2 checks the bytes end to end).
func TestNestedHintWires(t *testing.T) {
	i32, u32, u64 := prim(model.Int32), prim(model.Uint32), prim(model.Uint64)
	leaf := structRef("Leaf", 333)
	tests := []struct {
		name string
		t    *model.Type
		h    *model.Hint
		want string
	}{
		{"fixed elements", slice(i32), hint("list", elem(hint("int32", enc("fixed")))), "22<4n>"},
		{"not-null fixed elements", slice(i32), hint("list", elem(hint("int32", null(false), enc("fixed")))), "22<4>"},
		{"nullable pointer elements", slice(ptr(i32)), hint("list", elem(hint("int32", null(true), enc("fixed")))), "22<4n>"},
		{"nested lists", slice(slice(i32)), hint("list", elem(hint("list", elem(hint("int32", null(false), enc("fixed")))))), "22<22n<4>>"},
		{"list of dense arrays", slice(slice(i32)), hint("list", elem(hint("array", elem(hint("int32"))))), "22<46n>"},
		{"not-null key", mapOf(prim(model.String), i32), hint("map", key(hint("_", null(false)))), "24<21,5n>"},
		{"fixed values", mapOf(prim(model.String), i32), hint("map", val(hint("int32", enc("fixed")))), "24<21n,4n>"},
		{"list values", mapOf(prim(model.String), slice(i32)), hint("map", val(hint("list", elem(hint("int32", enc("fixed")))))), "24<21n,22n<4n>>"},
		{"array values", mapOf(prim(model.String), slice(i32)), hint("map", val(hint("array", elem(hint("int32"))))), "24<21n,46n>"},
		{"fixed keys, tagged elements", mapOf(u32, slice(u64)), hint("map", key(hint("uint32", enc("fixed"))), val(hint("list", elem(hint("uint64", enc("tagged")))))), "24<11n,22n<15n>>"},
		{"untracked set elements", &model.Type{Kind: model.Set, Elem: ptr(leaf)}, hint("set", elem(hint("_", refHint(false)))), "23<28n>"},
		{"tracked list elements", slice(ptr(leaf)), hint("list", elem(hint("_", refHint(true)))), "22<28nr>"},
		{"dense Go array", &model.Type{Kind: model.Array, Len: 3, Elem: i32}, hint("array", elem(hint("int32"))), "46"},
		{"array map key", mapOf(&model.Type{Kind: model.Array, Len: 2, Elem: i32}, prim(model.String)), nil, "24<22n<5n>,21n>"},
		{"placeholder list", slice(enumRef("Color")), hint("_", elem(hint("_", null(false)))), "22<25>"},
	}
	for _, tt := range tests {
		w, err := WireOf(tt.t, model.Tag{ID: -1, Hint: tt.h})
		require.NoError(t, err, tt.name)
		markTrackedElems(w)
		assert.Equal(t, tt.want, typeDefText(typeDefFieldType(w), false), tt.name)
	}
	// ref=false keeps struct pointer elements untracked; by default they
	// are tracked when the Fory tracks references.
	for _, off := range []bool{false, true} {
		var h *model.Hint
		if off {
			h = hint("set", elem(hint("_", refHint(false))))
		}
		w, err := WireOf(&model.Type{Kind: model.Set, Elem: ptr(leaf)}, model.Tag{ID: -1, Hint: h})
		require.NoError(t, err)
		markTrackedElems(w)
		assert.Equal(t, !off, w.Elem.RefOn)
	}
	// nullable=false on a struct pointer field drops its null flag.
	w, err := WireOf(ptr(leaf), model.Tag{ID: -1, Nullable: false, NullableSet: true})
	require.NoError(t, err)
	assert.False(t, w.Nullable)
	assert.Equal(t, uint8(meta.TypeCompatibleStruct), w.TypeID)
	// nullable,encoding=fixed on an Optional[int64]: a nullable INT64.
	w, err = WireOf(&model.Type{Kind: model.Optional, Elem: prim(model.Int64)}, model.Tag{ID: -1, Nullable: true, NullableSet: true, Encoding: "fixed"})
	require.NoError(t, err)
	assert.True(t, w.Nullable)
	assert.Equal(t, uint8(meta.TypeInt64), w.TypeID)
}

package evolved

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/forygen/forygen/internal/conformance/hints"
	"github.com/forygen/forygen/internal/conformance/hints/ptrset"
	"github.com/forygen/forygen/serializer"
)

// pair is a case's type in package hints and its evolved version here.
type pair struct {
	file    string // golden file of xlang-fixtures-3/compatible, without _trackoff/_trackon
	old     func() serializer.Message
	evolved func() serializer.Message
}

var pairs = []pair{
	{"hint_list_elements", func() serializer.Message { return new(hints.ListHints) }, func() serializer.Message { return new(ListHints) }},
	{"hint_map_values", func() serializer.Message { return new(hints.MapValueHints) }, func() serializer.Message { return new(MapValueHints) }},
	{"hint_map_keys", func() serializer.Message { return new(hints.MapKeyHints) }, func() serializer.Message { return new(MapKeyHints) }},
	{"hint_pointer_not_nullable", func() serializer.Message { return new(hints.NotNullPtrs) }, func() serializer.Message { return new(NotNullPtrs) }},
	{"hint_set_element_ref_false", func() serializer.Message { return new(ptrset.PtrSet) }, func() serializer.Message { return new(PtrSet) }},
	{"hint_fixed_size_array", func() serializer.Message { return new(hints.GoArrays) }, func() serializer.Message { return new(GoArrays) }},
	{"hint_elements_not_nullable", func() serializer.Message { return new(hints.EnumHints) }, func() serializer.Message { return new(EnumHints) }},
	{"array_map_key_untagged", func() serializer.Message { return new(hints.ArrayKeysPlain) }, func() serializer.Message { return new(ArrayKeysPlain) }},
	{"hint_spellings", func() serializer.Message { return new(hints.Spellings) }, func() serializer.Message { return new(Spellings) }},
}

// project converts the evolved value v into a new old-type value: the
// fields of the same names, through pointers, containers and the copies of
// the old package's types.
func project(v serializer.Message, old serializer.Message) serializer.Message {
	convert(reflect.ValueOf(v).Elem(), reflect.ValueOf(old).Elem())
	return old
}

func convert(src, dst reflect.Value) {
	switch {
	case src.Type() == dst.Type():
		dst.Set(src)
	case src.Kind() == reflect.Struct:
		for i := 0; i < dst.NumField(); i++ {
			convert(src.FieldByName(dst.Type().Field(i).Name), dst.Field(i))
		}
	case src.Kind() == reflect.Pointer:
		if !src.IsNil() {
			dst.Set(reflect.New(dst.Type().Elem()))
			convert(src.Elem(), dst.Elem())
		}
	case src.Kind() == reflect.Slice || src.Kind() == reflect.Array:
		if src.Kind() == reflect.Slice && !src.IsNil() {
			dst.Set(reflect.MakeSlice(dst.Type(), src.Len(), src.Len()))
		}
		for i := 0; i < src.Len(); i++ {
			convert(src.Index(i), dst.Index(i))
		}
	case src.Kind() == reflect.Map:
		if src.IsNil() {
			return
		}
		dst.Set(reflect.MakeMap(dst.Type()))
		for it := src.MapRange(); it.Next(); {
			k, e := reflect.New(dst.Type().Key()).Elem(), reflect.New(dst.Type().Elem()).Elem()
			convert(it.Key(), k)
			convert(it.Value(), e)
			dst.SetMapIndex(k, e)
		}
	default:
		dst.Set(src.Convert(dst.Type()))
	}
}

// comparable turns a set of pointers, whose Go equality is identity, into
// its elements' values.
func comparable(m serializer.Message) any {
	if s, ok := m.(*ptrset.PtrSet); ok {
		var out []ptrset.Leaf
		for p := range s.Leaves {
			out = append(out, *p)
		}
		return out
	}
	return m
}

// Official Go's group-2 files read with a schema of one more field (the
// evolved reader, field by field) give the values package hints reads with
// its own; and the evolved writer's messages read back with package hints'
// schema, through its evolved reader.
func TestEvolvedHints(t *testing.T) {
	for _, p := range pairs {
		// The trackon files of the first three track collections held by a
		// list or map (issue 23 item 1), which forygen does not read yet.
		tracks := []bool{false, true}
		if p.file == "hint_list_elements" || p.file == "hint_map_values" || p.file == "hint_map_keys" {
			tracks = tracks[:1]
		}
		for _, track := range tracks {
			name := p.file + "_trackoff"
			if track {
				name = p.file + "_trackon"
			}
			f := serializer.New(serializer.WithTrackRef(track))
			data, err := os.ReadFile(filepath.Join("..", "..", "..", "testdata", "xlang-fixtures-3", "compatible", name+".bin"))
			require.NoError(t, err, name)
			want := p.old()
			require.NoError(t, f.Deserialize(data, want), name)

			ev := p.evolved()
			require.NoError(t, f.Deserialize(data, ev), name)
			require.Equal(t, comparable(want), comparable(project(ev, p.old())), name)

			reflect.ValueOf(ev).Elem().FieldByName("Extra").SetString("later")
			out, err := f.Serialize(ev)
			require.NoError(t, err, name)
			back := p.old()
			require.NoError(t, f.Deserialize(out, back), name)
			require.Equal(t, comparable(want), comparable(back), name)
			for n := 0; n < len(out); n++ {
				require.Error(t, f.Deserialize(out[:n], p.old()), "%s: prefix of %d bytes", name, n)
			}
		}
	}
}

package e2e_test

import (
	"fmt"
	"reflect"
	"sort"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/forygen/forygen/serializer"
)

// oneEntryMaps trims every map reachable from v to one entry (the one with
// the smallest formatted key), so the encoding does not depend on map
// iteration order and can be compared byte for byte.
func oneEntryMaps(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			oneEntryMaps(v.Elem())
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				oneEntryMaps(v.Field(i))
			}
		}
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			oneEntryMaps(v.Index(i))
		}
	case reflect.Map:
		if v.Len() <= 1 {
			for _, k := range v.MapKeys() {
				e := reflect.New(v.Type().Elem()).Elem()
				e.Set(v.MapIndex(k))
				oneEntryMaps(e)
				v.SetMapIndex(k, e)
			}
			return
		}
		keys := v.MapKeys()
		sort.Slice(keys, func(i, j int) bool { return fmt.Sprint(keys[i]) < fmt.Sprint(keys[j]) })
		for _, k := range keys[1:] {
			v.SetMapIndex(k, reflect.Value{})
		}
		oneEntryMaps(v)
	}
}

// deterministic returns r's full value with one-entry maps.
func deterministic(r root) any {
	v := r.value()
	oneEntryMaps(reflect.ValueOf(v))
	return v
}

// TestRoundTrip round-trips a full value of every root type in both modes.
func TestRoundTrip(t *testing.T) {
	for _, m := range modes {
		f := serializer.New(serializer.WithCompatible(m.compatible))
		for _, r := range roots() {
			t.Run(m.name+"/"+r.name, func(t *testing.T) {
				v := r.value()
				data, err := f.Serialize(v)
				require.NoError(t, err)
				got := r.fresh()
				require.NoError(t, f.Deserialize(data, got))
				require.Equal(t, v, got)
				// The package-level functions use compatible mode.
				if m.compatible {
					pkg, err := serializer.Serialize(v)
					require.NoError(t, err)
					got = r.fresh()
					require.NoError(t, serializer.Deserialize(pkg, got))
					require.Equal(t, v, got)
				}
			})
		}
	}
}

// TestSerializeToSize checks that SerializeTo appends exactly the bytes
// Serialize returns (so the size it reserves and the size it writes agree),
// and that re-encoding a decoded value gives the same bytes. Maps are cut
// to one entry so that the bytes do not depend on iteration order.
func TestSerializeToSize(t *testing.T) {
	for _, m := range modes {
		f := serializer.New(serializer.WithCompatible(m.compatible))
		for _, r := range roots() {
			t.Run(m.name+"/"+r.name, func(t *testing.T) {
				v := deterministic(r)
				data, err := f.Serialize(v)
				require.NoError(t, err)

				b, err := f.SerializeAppend([]byte{0xaa, 0xbb, 0xcc}, v)
				require.NoError(t, err)
				require.Equal(t, 3+len(data), len(b))
				require.Equal(t, data, b[3:])
				require.Equal(t, []byte{0xaa, 0xbb, 0xcc}, b[:3])

				got := r.fresh()
				require.NoError(t, f.Deserialize(data, got))
				require.Equal(t, v, got)
				again, err := f.Serialize(got)
				require.NoError(t, err)
				require.Equal(t, data, again)
			})
		}
	}
}

// TestDecodeResetsTarget decodes into targets that already hold another
// non-zero value: the result is exactly the decoded value, with nothing left
// over from the old one (Deserialize resets the target).
func TestDecodeResetsTarget(t *testing.T) {
	for _, m := range modes {
		f := serializer.New(serializer.WithCompatible(m.compatible))
		for _, r := range roots() {
			t.Run(m.name+"/"+r.name, func(t *testing.T) {
				// A zero value decoded over a full one.
				data, err := f.Serialize(r.fresh())
				require.NoError(t, err)
				target := r.value()
				require.NoError(t, f.Deserialize(data, target))
				want := r.fresh()
				require.NoError(t, f.Deserialize(data, want))
				require.Equal(t, want, target)
				require.NotEqual(t, r.value(), target)

				// A full value decoded over the deterministic variant (other
				// map contents).
				full := r.value()
				data, err = f.Serialize(full)
				require.NoError(t, err)
				target = deterministic(r)
				require.NoError(t, f.Deserialize(data, target))
				require.Equal(t, full, target)
			})
		}
	}
}

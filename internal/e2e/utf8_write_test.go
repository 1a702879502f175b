package e2e_test

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/forygen/forygen/buffer"
	"github.com/forygen/forygen/serializer"
)

// stringSlots returns a setter for every string reachable from v through
// pointers, struct fields, arrays and slices (map entries are not
// addressable and are covered by agree.TestInvalidUTF8OnWrite).
func stringSlots(v reflect.Value, path string, out *[]stringSlot) {
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			stringSlots(v.Elem(), path, out)
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if f := v.Type().Field(i); f.IsExported() && f.Tag.Get("fory") != "-" {
				stringSlots(v.Field(i), path+"."+f.Name, out)
			}
		}
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			stringSlots(v.Index(i), path+"[]", out)
		}
	case reflect.String:
		if v.CanSet() {
			*out = append(*out, stringSlot{path, v})
		}
	}
}

type stringSlot struct {
	path string
	v    reflect.Value
}

// TestInvalidUTF8EveryString puts a string that is not UTF-8 in every string
// of every root in turn: Serialize refuses it with ErrInvalidValue, and
// SerializeTo leaves the buffer as it was, whether the string is checked
// before anything is written or as it is copied (a run's strings,
// emit.runCheck), in the first run or a later one. Valid text that is not
// ASCII in the same places takes the check's slow path and round-trips.
func TestInvalidUTF8EveryString(t *testing.T) {
	for _, m := range modes {
		f := serializer.New(serializer.WithCompatible(m.compatible))
		for _, r := range roots() {
			var slots []stringSlot
			stringSlots(reflect.ValueOf(deterministic(r)), r.name, &slots)
			for i := range slots {
				for _, bad := range []bool{true, false} {
					v := deterministic(r)
					var all []stringSlot
					stringSlots(reflect.ValueOf(v), r.name, &all)
					s := all[i]
					if bad {
						s.v.SetString(s.v.String() + "\xff")
					} else {
						s.v.SetString("é" + s.v.String() + "€")
					}
					b := buffer.New(8)
					b.WriteBytes([]byte{0xaa, 0xbb, 0xcc})
					err := v.(serializer.Message).ForySerializeTo(f, b) // the generated writer: on error it leaves b as it was
					if !bad {
						require.NoError(t, err, s.path)
						got := r.fresh()
						require.NoError(t, f.Deserialize(b.Bytes()[3:], got), s.path)
						require.Equal(t, v, got, s.path)
						continue
					}
					require.ErrorIs(t, err, serializer.ErrInvalidValue, "%s %s", m.name, s.path)
					require.Equal(t, []byte{0xaa, 0xbb, 0xcc}, b.Bytes(), "%s %s: the buffer is as it was", m.name, s.path)
					_, err = f.Serialize(v)
					require.ErrorIs(t, err, serializer.ErrInvalidValue, "%s %s", m.name, s.path)
				}
			}
		}
	}
}

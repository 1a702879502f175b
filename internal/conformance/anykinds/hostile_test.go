package anykinds

import (
	"encoding/hex"
	"strings"
	"testing"

	"github.com/forygen/forygen/serializer"
	"github.com/stretchr/testify/require"
)

// holderPrefix is a same-schema Holder message up to its field's value:
// header, root flag, STRUCT 600 and the schema hash, then V's flag.
const holderPrefix = "01ff1bd80432fcbeeeff"

func holderMessage(t *testing.T, value string) []byte {
	b, err := hex.DecodeString(holderPrefix + value)
	require.NoError(t, err)
	return b
}

// Hostile values of these kinds are refused with the error that says
// what is wrong, never a panic: a Go map cannot hold a list as a set
// element or a decimal as a key, an ordinal above the Go enum's range
// does not fit, an unregistered enum is a mismatch.
func TestAnyKindsHostile(t *testing.T) {
	f := serializer.New(serializer.WithCompatible(false))
	for _, c := range []struct {
		name, value string
		want        error
		msg         string
	}{
		{"set of a list", "17010016" + "00", serializer.ErrUnsupported, "set element 0 is a []interface {}, which a Go set cannot hold"},
		{"set of a set", "1701001701080501", serializer.ErrUnsupported, "which a Go set cannot hold"},
		{"repeated set element", "170208050e0e", serializer.ErrMalformed, "set element 1 repeats an earlier element"},
		{"decimal map key", "18010001281504e281030678", serializer.ErrUnsupported, "a map key of type id 40, which a Go map cannot hold"},
		{"set map key", "180100011715010805020678", serializer.ErrUnsupported, "a map key of type id 23, which a Go map cannot hold"},
		{"unknown enum id", "19f70302", serializer.ErrSchemaMismatch, "enum id 503, which no generated enum is registered as"},
		{"ordinal above int32", "19f603ffffffff0f", serializer.ErrSchemaMismatch, "enum ordinal 4294967295 does not fit the Go enum type"},
		{"unknown named enum", "1a06040c8c700603cdcd20", serializer.ErrSchemaMismatch, "which no generated enum is registered as"},
	} {
		var h Holder
		err := f.Deserialize(holderMessage(t, c.value), &h)
		require.ErrorIs(t, err, c.want, c.name)
		require.Contains(t, err.Error(), c.msg, c.name)
	}
}

// Every prefix of every golden message is an error, not a panic or a
// value.
func TestAnyKindsTruncated(t *testing.T) {
	for _, g := range goldens(t) {
		f := serializer.New(serializer.WithCompatible(g.Compatible), serializer.WithTrackRef(g.TrackRef))
		data, err := hex.DecodeString(g.Hex)
		require.NoError(t, err)
		v, _ := value(g.Value)
		for n := range len(data) {
			var err error
			if _, pair := v.(*Pair); pair {
				err = f.Deserialize(data[:n], &Pair{})
			} else {
				err = f.Deserialize(data[:n], &Holder{})
			}
			require.ErrorIs(t, err, serializer.ErrMalformed, "%+v at %d", g, n)
		}
	}
}

func FuzzAnyKinds(f *testing.F) {
	for _, g := range goldens(f) {
		data, _ := hex.DecodeString(g.Hex)
		f.Add(data)
	}
	forys := []*serializer.Fory{serializer.New(), serializer.New(serializer.WithCompatible(false)),
		serializer.New(serializer.WithTrackRef(true)), serializer.New(serializer.WithCompatible(false), serializer.WithTrackRef(true))}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, fy := range forys {
			for _, m := range []interface {
				serializer.Message
			}{&Holder{}, &Pair{}} {
				if fy.Deserialize(data, m) != nil {
					continue
				}
				again, err := fy.Serialize(m)
				if err != nil && strings.Contains(err.Error(), "a cycle: the value contains itself") {
					continue // a tracked message read without tracking: a cycle is refused on writing
				}
				if err != nil {
					t.Fatalf("re-encoding a decoded value %#v: %v", m, err)
				}
				if err := fy.Deserialize(again, m); err != nil {
					t.Fatalf("re-decoding: %v", err)
				}
			}
		}
	})
}

// Celsius is a named scalar type: it has no type id of its own.
type Celsius int32

// A named scalar in an any is refused on writing with the remedy, as
// official Go refuses it ("type not supported"); a generated enum is not.
func TestAnyNamedScalarRefused(t *testing.T) {
	_, err := serializer.Serialize(&Holder{V: Celsius(-4)})
	require.ErrorIs(t, err, serializer.ErrInvalidValue)
	require.Contains(t, err.Error(), "a named int32 type has no Fory type id of its own (official Go refuses it too): store int32(v), or declare it //fory:enum")
	_, err = serializer.Serialize(&Holder{V: Color(1)})
	require.NoError(t, err)
}

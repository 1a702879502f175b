package generics

import (
	"encoding/hex"
	"testing"

	"github.com/forygen/forygen/internal/conformance/goldencases"
	"github.com/forygen/forygen/serializer"
	"github.com/stretchr/testify/require"
)

func goldens(t testing.TB) []goldencases.Case {
	return goldencases.Load(t, "testdata/official.json", 12)
}

func users() Page[User] {
	return Page[User]{Items: []User{{"ann", 31}, {"bob", 42}}, Next: "p2"}
}

// value returns the message named name and an empty value to read it into.
func value(name string) (serializer.Message, serializer.Message) {
	switch name {
	case "pageOfUsers":
		p := users()
		return &p, &Page[User]{}
	case "pageOfStrings":
		return &Page[string]{Items: []string{"x", "y"}}, &Page[string]{}
	case "book":
		return &Book{Users: users(), Tags: &Page[string]{Items: []string{"go"}, Next: "t"}, Best: Pair[string, int64]{"k", -9}, N: 7}, &Book{}
	}
	panic("no value " + name)
}

// Instantiated generic structs are written as official Go writes them,
// byte for byte in both modes, with and without tracking, as roots and
// as fields, and official Go's messages are read back.
func TestGenericsGolden(t *testing.T) {
	for _, g := range goldens(t) {
		f := serializer.New(serializer.WithCompatible(g.Compatible), serializer.WithTrackRef(g.TrackRef), serializer.WithOfficialGoForm(true))
		v, back := value(g.Value)
		got, err := f.Serialize(v)
		require.NoError(t, err, "%+v", g)
		require.Equal(t, g.Hex, hex.EncodeToString(got), "%+v", g)
		want, err := hex.DecodeString(g.Hex)
		require.NoError(t, err)
		require.NoError(t, f.Deserialize(want, back), "%+v", g)
		require.Equal(t, v, back, "%+v", g)
	}
}

// An instantiation without a registration has no generated code: its
// methods, which every instantiation of Page has, refuse it by name.
func TestGenericsUnregistered(t *testing.T) {
	_, err := serializer.Serialize(&Page[int32]{Items: []int32{1}})
	require.ErrorIs(t, err, serializer.ErrNotGenerated)
	require.Contains(t, err.Error(), "*generics.Page[int32]")
	require.Nil(t, (*Page[int32])(nil).ForyType())
	err = serializer.Deserialize([]byte{1}, &Page[int32]{})
	require.ErrorIs(t, err, serializer.ErrNotGenerated)
	// In an any, as a struct it cannot write.
	_, err = serializer.Serialize(&Holder{V: &Page[int32]{}})
	require.ErrorIs(t, err, serializer.ErrNotGenerated)
}

// An instantiation in an any is written with its registration and read
// back as the instantiated type, not its hidden generated type.
func TestGenericsInAny(t *testing.T) {
	for _, compatible := range []bool{false, true} {
		f := serializer.New(serializer.WithCompatible(compatible))
		p := users()
		in := &Holder{V: &p}
		data, err := f.Serialize(in)
		require.NoError(t, err)
		var out Holder
		require.NoError(t, f.Deserialize(data, &out))
		require.Equal(t, in, &out)
		require.IsType(t, &Page[User]{}, out.V)
	}
}

func TestGenericsTruncated(t *testing.T) {
	for _, g := range goldens(t) {
		f := serializer.New(serializer.WithCompatible(g.Compatible), serializer.WithTrackRef(g.TrackRef))
		data, err := hex.DecodeString(g.Hex)
		require.NoError(t, err)
		for n := range len(data) {
			_, back := value(g.Value)
			require.ErrorIs(t, f.Deserialize(data[:n], back), serializer.ErrMalformed, "%+v at %d", g, n)
		}
	}
}

func FuzzGenerics(f *testing.F) {
	for _, g := range goldens(f) {
		data, _ := hex.DecodeString(g.Hex)
		f.Add(data)
	}
	forys := []*serializer.Fory{serializer.New(), serializer.New(serializer.WithCompatible(false)),
		serializer.New(serializer.WithTrackRef(true))}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, fy := range forys {
			for _, m := range []serializer.Message{&Book{}, &Page[User]{}, &Page[string]{}} {
				if fy.Deserialize(data, m) != nil {
					continue
				}
				again, err := fy.Serialize(m)
				if err != nil {
					t.Fatalf("re-encoding a decoded %T: %v", m, err)
				}
				if err := fy.Deserialize(again, m); err != nil {
					t.Fatalf("re-decoding: %v", err)
				}
			}
		}
	})
}

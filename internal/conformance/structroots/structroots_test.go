package structroots

import (
	"encoding/hex"
	"encoding/json"
	"os"
	"testing"

	"github.com/forygen/forygen/serializer"
	"github.com/stretchr/testify/require"
)

type golden struct {
	TrackRef   bool   `json:"track_ref"`
	Compatible bool   `json:"compatible"`
	Value      string `json:"value"`
	Hex        string `json:"hex"`
}

func goldens(t testing.TB) []golden {
	raw, err := os.ReadFile("testdata/official.json")
	require.NoError(t, err)
	var doc struct{ Cases []golden }
	require.NoError(t, json.Unmarshal(raw, &doc))
	require.Len(t, doc.Cases, 8)
	return doc.Cases
}

// Lists of structs and of struct pointers as roots: official Go's bytes,
// written and read in both modes, with and without tracking.
func TestStructListRoots(t *testing.T) {
	for _, g := range goldens(t) {
		f := serializer.New(serializer.WithCompatible(g.Compatible), serializer.WithTrackRef(g.TrackRef), serializer.WithOfficialGoForm(true))
		want, err := hex.DecodeString(g.Hex)
		require.NoError(t, err)
		switch g.Value {
		case "users":
			v := []User{{ID: 1, Name: "a"}, {ID: 2, Name: "b"}}
			got, err := serializer.MarshalList(f, v)
			require.NoError(t, err, "%+v", g)
			require.Equal(t, g.Hex, hex.EncodeToString(got), "%+v", g)
			var back []User
			require.NoError(t, serializer.UnmarshalList(f, want, &back), "%+v", g)
			require.Equal(t, v, back, "%+v", g)
		case "userPtrs":
			u := &User{ID: 1, Name: "a"}
			v := []*User{u, nil, u}
			got, err := serializer.MarshalPtrList(f, v)
			require.NoError(t, err, "%+v", g)
			require.Equal(t, g.Hex, hex.EncodeToString(got), "%+v", g)
			var back []*User
			require.NoError(t, serializer.UnmarshalPtrList(f, want, &back), "%+v", g)
			require.Equal(t, v, back, "%+v", g)
			if g.TrackRef {
				require.Same(t, back[0], back[2], "%+v", g)
			} else {
				require.NotSame(t, back[0], back[2], "%+v", g)
			}
		}
	}
}

// A nil list is a null root and reads back as nil; an empty list is empty;
// a list root read as another type, or cut anywhere, is an error.
func TestStructListRootEdges(t *testing.T) {
	for _, compatible := range []bool{true, false} {
		f := serializer.New(serializer.WithCompatible(compatible))
		data, err := serializer.MarshalList[User](f, nil)
		require.NoError(t, err)
		require.Equal(t, []byte{0x01, 0xfd}, data)
		back := []User{{ID: 9}}
		require.NoError(t, serializer.UnmarshalList(f, data, &back))
		require.Nil(t, back)

		data, err = serializer.MarshalList(f, []User{})
		require.NoError(t, err)
		require.NoError(t, serializer.UnmarshalList(f, data, &back))
		require.NotNil(t, back)
		require.Empty(t, back)

		data, err = serializer.MarshalList(f, []User{{ID: 1, Name: "a"}, {ID: 2, Name: "b"}})
		require.NoError(t, err)
		_, err = serializer.MarshalValue(f, []string{"x"})
		require.NoError(t, err)
		var s []string
		require.Error(t, serializer.UnmarshalValue(f, data, &s))
		var u User
		require.ErrorIs(t, serializer.Unmarshal(f, data, &u), serializer.ErrSchemaMismatch)
		for n := 0; n < len(data); n++ {
			keep := []User{{ID: 7}}
			require.Error(t, serializer.UnmarshalList(f, data[:n], &keep), "%d of %d", n, len(data))
			require.Equal(t, []User{{ID: 7}}, keep, "unchanged on error")
		}
		// A null element of a []*T read into a []T is a zero value.
		data, err = serializer.MarshalPtrList(f, []*User{nil, {ID: 3}})
		require.NoError(t, err)
		require.NoError(t, serializer.UnmarshalList(f, data, &back))
		require.Equal(t, []User{{}, {ID: 3}}, back)
	}
}

func FuzzStructListRoots(f *testing.F) {
	for _, g := range goldens(f) {
		data, _ := hex.DecodeString(g.Hex)
		f.Add(data)
	}
	raw, err := os.ReadFile("testdata/maps.json")
	if err != nil {
		f.Fatal(err)
	}
	var maps struct{ Cases []golden }
	if err := json.Unmarshal(raw, &maps); err != nil {
		f.Fatal(err)
	}
	for _, g := range maps.Cases {
		data, _ := hex.DecodeString(g.Hex)
		f.Add(data)
	}
	forys := []*serializer.Fory{serializer.New(), serializer.New(serializer.WithCompatible(false)),
		serializer.New(serializer.WithTrackRef(true))}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, fy := range forys {
			var a []User
			if serializer.UnmarshalList(fy, data, &a) == nil {
				again, err := serializer.MarshalList(fy, a)
				if err != nil {
					t.Fatal(err)
				}
				var b []User
				if err := serializer.UnmarshalList(fy, again, &b); err != nil {
					t.Fatalf("re-decoding: %v", err)
				}
			}
			var p []*User
			_ = serializer.UnmarshalPtrList(fy, data, &p)
			var m map[string]*User
			if serializer.UnmarshalPtrMap(fy, data, &m) == nil {
				again, err := serializer.MarshalPtrMap(fy, m)
				if err != nil {
					t.Fatal(err)
				}
				var m2 map[string]*User
				if err := serializer.UnmarshalPtrMap(fy, again, &m2); err != nil {
					t.Fatalf("re-decoding a map: %v", err)
				}
			}
		}
	})
}

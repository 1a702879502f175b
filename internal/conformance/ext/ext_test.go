// Package ext tests extension types (//fory:ext, EXT and NAMED_EXT)
// against official Go's bytes: an Order with a Money field, Money being a
// type of another package written by a codec, registered by id (byid) and
// by name (byname).
package ext

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/forygen/forygen/internal/conformance/ext/byid"
	"github.com/forygen/forygen/internal/conformance/ext/byname"
	"github.com/forygen/forygen/internal/conformance/ext/money"
	"github.com/forygen/forygen/serializer"
	"github.com/stretchr/testify/require"
)

type golden struct {
	ByName     bool   `json:"by_name"`
	TrackRef   bool   `json:"track_ref"`
	Compatible bool   `json:"compatible"`
	Value      string `json:"value"`
	Hex        string `json:"hex"`
}

func goldens(t *testing.T) []golden {
	raw, err := os.ReadFile("testdata/official.json")
	require.NoError(t, err)
	var doc struct{ Cases []golden }
	require.NoError(t, json.Unmarshal(raw, &doc))
	require.Len(t, doc.Cases, 16)
	return doc.Cases
}

// order is an Order of either package as its three fields.
type order struct {
	price money.Money
	tip   *money.Money
	n     int32
}

var values = map[string]order{
	"order":    {money.Money{Units: 1234, Cur: "USD"}, &money.Money{Units: 5, Cur: "EUR"}, 7},
	"orderNil": {money.Money{Units: -1, Cur: "X"}, nil, 8},
}

func fory(g golden) *serializer.Fory {
	// Official Go's same-schema form: it flags a tracked struct's value
	// fields, and these bytes come from it.
	return serializer.New(serializer.WithCompatible(g.Compatible), serializer.WithTrackRef(g.TrackRef), serializer.WithOfficialGoForm(true))
}

// forygen writes official Go's bytes for every golden case and reads them
// back, with the extension registered by id and by name.
func TestExtGolden(t *testing.T) {
	for _, g := range goldens(t) {
		name := g.Value
		if g.ByName {
			name += "/by-name"
		}
		if g.TrackRef {
			name += "/tracked"
		}
		if g.Compatible {
			name += "/compatible"
		}
		want, err := hex.DecodeString(g.Hex)
		require.NoError(t, err)
		v := values[g.Value]
		f := fory(g)
		var got []byte
		var back order
		if g.ByName {
			in := byname.Order{Price: v.price, Tip: v.tip, N: v.n}
			got, err = f.Serialize(&in)
			require.NoError(t, err, name)
			var out byname.Order
			require.NoError(t, f.Deserialize(want, &out), name)
			back = order{out.Price, out.Tip, out.N}
		} else {
			in := byid.Order{Price: v.price, Tip: v.tip, N: v.n}
			got, err = f.Serialize(&in)
			require.NoError(t, err, name)
			var out byid.Order
			require.NoError(t, f.Deserialize(want, &out), name)
			back = order{out.Price, out.Tip, out.N}
		}
		require.Equal(t, hex.EncodeToString(want), hex.EncodeToString(got), name)
		require.Equal(t, v, back, name)
	}
}

// Without official Go's form the untracked compatible-mode bytes are the
// same (same-schema mode differs in the schema hash only, which marks the
// pointer field nullable: docs/format.md §14.29); every default-form
// message round-trips.
func TestExtDefaultForm(t *testing.T) {
	for _, g := range goldens(t) {
		v := values[g.Value]
		f := serializer.New(serializer.WithCompatible(g.Compatible), serializer.WithTrackRef(g.TrackRef))
		in := byid.Order{Price: v.price, Tip: v.tip, N: v.n}
		data, err := f.Serialize(&in)
		require.NoError(t, err)
		if !g.TrackRef && !g.ByName && g.Compatible {
			want, _ := hex.DecodeString(g.Hex)
			require.Equal(t, want, data)
		}
		var out byid.Order
		require.NoError(t, f.Deserialize(data, &out))
		require.Equal(t, in, out)
	}
}

// A codec's write error is an EncodeError naming the field, wrapping the
// codec's error, with nothing appended; its read refusal is ErrMalformed
// naming the field. A message whose extension is another one is a schema
// mismatch in compatible mode, where the type meta names it.
func TestExtErrors(t *testing.T) {
	for _, compatible := range []bool{false, true} {
		f := serializer.New(serializer.WithCompatible(compatible))
		in := byid.Order{Price: money.Money{Cur: strings.Repeat("x", 200)}}
		out, err := serializer.MarshalAppend(f, []byte("pre"), &in)
		require.ErrorIs(t, err, serializer.ErrInvalidValue)
		var ee *serializer.EncodeError
		require.True(t, errors.As(err, &ee))
		require.Equal(t, "Price", ee.Path)
		require.Contains(t, err.Error(), "at most 127 bytes")
		require.Equal(t, []byte("pre"), out)

		data, err := f.Serialize(&byid.Order{Price: money.Money{Units: 1, Cur: "USD"}, N: 3})
		require.NoError(t, err)
		i := strings.Index(string(data), "\x03USD")
		require.Positive(t, i)
		bad := append([]byte(nil), data...)
		bad[i] = 0x80 // a negative length
		var o byid.Order
		err = f.Deserialize(bad, &o)
		require.ErrorIs(t, err, serializer.ErrMalformed)
		require.Contains(t, err.Error(), "Price")
		require.Contains(t, err.Error(), "at most 127 bytes")

		if compatible {
			// By name where by id was expected: the TypeDef's field types
			// differ.
			named, err := f.Serialize(&byname.Order{Price: money.Money{Units: 1, Cur: "USD"}, N: 3})
			require.NoError(t, err)
			err = f.Deserialize(named, &o)
			require.ErrorIs(t, err, serializer.ErrSchemaMismatch)
			require.Contains(t, err.Error(), "Price")

			// The type meta before the value names another extension id.
			i := strings.Index(string(data), "\x1f\xac\x02")
			require.Positive(t, i)
			bad := append([]byte(nil), data...)
			bad[i+1] = 0xad
			err = f.Deserialize(bad, &o)
			require.ErrorIs(t, err, serializer.ErrSchemaMismatch)
			require.Contains(t, err.Error(), "extension type id 301 where money.Money (id 300) was expected")
		}
	}
}

// Every cut of a message is an error, never a panic or a value.
func TestExtTruncated(t *testing.T) {
	for _, g := range goldens(t) {
		data, _ := hex.DecodeString(g.Hex)
		f := fory(g)
		for n := 0; n < len(data); n++ {
			var err error
			if g.ByName {
				err = f.Deserialize(data[:n], new(byname.Order))
			} else {
				err = f.Deserialize(data[:n], new(byid.Order))
			}
			require.Error(t, err, "%+v: %d of %d bytes", g, n, len(data))
		}
	}
}

func FuzzExt(f *testing.F) {
	raw, err := os.ReadFile("testdata/official.json")
	if err != nil {
		f.Fatal(err)
	}
	var doc struct{ Cases []golden }
	if err := json.Unmarshal(raw, &doc); err != nil {
		f.Fatal(err)
	}
	for _, g := range doc.Cases {
		data, _ := hex.DecodeString(g.Hex)
		f.Add(data)
	}
	forys := []*serializer.Fory{serializer.New(), serializer.New(serializer.WithCompatible(false)),
		serializer.New(serializer.WithTrackRef(true))}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, fy := range forys {
			var a byid.Order
			if fy.Deserialize(data, &a) == nil {
				again, err := fy.Serialize(&a)
				if err != nil {
					t.Fatalf("re-encoding a decoded value: %v", err)
				}
				var b byid.Order
				if err := fy.Deserialize(again, &b); err != nil {
					t.Fatalf("re-decoding: %v", err)
				}
			}
			var n byname.Order
			_ = fy.Deserialize(data, &n)
		}
	})
}

// One Go type registered by two codecs (byid's id 300, byname's
// "ext.Money"): an any holding one cannot say which, and is refused on
// writing; fields, whose codec is known, are not affected.
func TestExtInAnyAmbiguous(t *testing.T) {
	_, err := serializer.Serialize(&byid.Holder{V: money.Money{Units: 1, Cur: "A"}})
	require.ErrorIs(t, err, serializer.ErrInvalidValue)
	require.Contains(t, err.Error(), "an any value of a type registered twice")
	_, err = serializer.Serialize(&byid.Order{Price: money.Money{Units: 1, Cur: "A"}})
	require.NoError(t, err)
}

// Package marshal tests the marshaler adapters (marshal=text,
// marshal=binary): own.Host writes its netip, url and big values through
// their marshalers and must be byte for byte what peer.Host, the same
// schema with strings and bytes, writes, since that is what a peer in any
// language sees.
package marshal

import (
	"errors"
	"math/big"
	"net/netip"
	"net/url"
	"strings"
	"testing"

	"github.com/forygen/forygen/internal/conformance/marshal/own"
	"github.com/forygen/forygen/internal/conformance/marshal/peer"
	"github.com/forygen/forygen/serializer"
	"github.com/stretchr/testify/require"
)

var modes = []struct {
	name string
	opts []serializer.Option
}{
	{"compatible", nil},
	{"same-schema", []serializer.Option{serializer.WithCompatible(false)}},
	{"same-schema, official Go's form", []serializer.Option{serializer.WithCompatible(false), serializer.WithOfficialGoForm(true)}},
	{"compatible, tracked", []serializer.Option{serializer.WithTrackRef(true)}},
	{"same-schema, tracked", []serializer.Option{serializer.WithCompatible(false), serializer.WithTrackRef(true)}},
	{"same-schema, tracked, official Go's form", []serializer.Option{serializer.WithCompatible(false), serializer.WithTrackRef(true), serializer.WithOfficialGoForm(true)}},
}

func sample() (own.Host, peer.Host) {
	prefix := netip.MustParsePrefix("10.0.0.0/8")
	home, _ := url.Parse("https://fory.apache.org/docs?q=1#x")
	n, _ := new(big.Int).SetString("-123456789012345678901234567890", 10)
	o := own.Host{Addr: netip.MustParseAddr("2001:db8::1"), Prefix: &prefix, Home: *home, Big: n, Name: "edge", Port: 443,
		Code: own.Code{A: 'g', B: 'o'}}
	homeBytes, _ := home.MarshalBinary()
	ps, bs := prefix.String(), n.String()
	p := peer.Host{Addr: "2001:db8::1", Prefix: &ps, Home: homeBytes, Big: &bs, Name: "edge", Port: 443, Code: "go"}
	return o, p
}

// A marshaled field is on the wire what a string or bytes field with its
// marshaled value is, in every mode, and each side reads the other's.
func TestMarshalersAsPeersSeeThem(t *testing.T) {
	for _, m := range modes {
		f := serializer.New(m.opts...)
		o, p := sample()
		ob, err := f.Serialize(&o)
		require.NoError(t, err, m.name)
		pb, err := f.Serialize(&p)
		require.NoError(t, err, m.name)
		require.Equal(t, pb, ob, m.name)

		var gotPeer peer.Host
		require.NoError(t, f.Deserialize(ob, &gotPeer), m.name)
		require.Equal(t, p, gotPeer, m.name)
		var gotOwn own.Host
		require.NoError(t, f.Deserialize(pb, &gotOwn), m.name)
		require.Equal(t, o.Addr, gotOwn.Addr, m.name)
		require.Equal(t, *o.Prefix, *gotOwn.Prefix, m.name)
		require.Equal(t, o.Home.String(), gotOwn.Home.String(), m.name)
		require.Zero(t, o.Big.Cmp(gotOwn.Big), m.name)
		require.Equal(t, o.Code, gotOwn.Code, m.name)

		// Null pointers are null strings; the zero Addr and URL marshal
		// to empty values and come back as themselves.
		o2 := own.Host{Code: own.Code{A: 'a', B: 'b'}}
		p2 := peer.Host{Home: []byte{}, Code: "ab"}
		ob, err = f.Serialize(&o2)
		require.NoError(t, err, m.name)
		pb, err = f.Serialize(&p2)
		require.NoError(t, err, m.name)
		require.Equal(t, pb, ob, m.name)
		var back own.Host
		require.NoError(t, f.Deserialize(ob, &back), m.name)
		require.Equal(t, o2, back, m.name)
	}
}

// With reference tracking a marshal=binary field is flagged as a []byte
// field is (modes above: byte for byte), and the message round-trips.
func TestMarshalersTracked(t *testing.T) {
	for _, compatible := range []bool{true, false} {
		f := serializer.New(serializer.WithTrackRef(true), serializer.WithCompatible(compatible))
		o, _ := sample()
		data, err := f.Serialize(&o)
		require.NoError(t, err)
		var back own.Host
		require.NoError(t, f.Deserialize(data, &back))
		require.Equal(t, o.Addr, back.Addr)
		require.Equal(t, o.Home.String(), back.Home.String())
		require.Zero(t, o.Big.Cmp(back.Big))
	}
}

// A marshaler's error is an EncodeError naming the field that wraps the
// marshaler's own error, and nothing is appended; an unmarshaler's refusal
// is ErrMalformed naming the field.
func TestMarshalerErrors(t *testing.T) {
	for _, m := range modes {
		f := serializer.New(m.opts...)
		o, p := sample()
		o.Code = own.Code{} // MarshalText refuses a zero letter
		out, err := serializer.MarshalAppend(f, []byte("pre"), &o)
		require.ErrorIs(t, err, serializer.ErrInvalidValue, m.name)
		var ee *serializer.EncodeError
		require.True(t, errors.As(err, &ee), m.name)
		require.Equal(t, "Code", ee.Path, m.name)
		require.Contains(t, err.Error(), "want two letters", m.name)
		require.Equal(t, []byte("pre"), out, m.name)

		// Invalid UTF-8 from MarshalText: refused while strings are
		// checked, written when they are not.
		o, _ = sample()
		o.Code = own.Code{A: 0xff, B: 0xfe}
		_, err = f.Serialize(&o)
		require.ErrorIs(t, err, serializer.ErrInvalidValue, m.name)
		require.Contains(t, err.Error(), "UTF-8", m.name)

		p.Code = "three"
		data, err := f.Serialize(&p)
		require.NoError(t, err, m.name)
		var back own.Host
		err = f.Deserialize(data, &back)
		require.ErrorIs(t, err, serializer.ErrMalformed, m.name)
		require.Contains(t, err.Error(), "Code", m.name)
		require.Contains(t, err.Error(), "want two letters", m.name)

		_, p = sample()
		bad := "not an address"
		p.Addr = bad
		data, err = f.Serialize(&p)
		require.NoError(t, err, m.name)
		err = f.Deserialize(data, &back)
		require.ErrorIs(t, err, serializer.ErrMalformed, m.name)
		require.Contains(t, err.Error(), "Addr", m.name)
	}
}

// Every cut of a message is an error, never a panic or a value.
func TestMarshalersTruncated(t *testing.T) {
	for _, m := range modes {
		f := serializer.New(m.opts...)
		o, _ := sample()
		data, err := f.Serialize(&o)
		require.NoError(t, err)
		for n := 0; n < len(data); n++ {
			var back own.Host
			err := f.Deserialize(data[:n], &back)
			require.Error(t, err, "%s: %d of %d bytes", m.name, n, len(data))
			require.True(t, errors.Is(err, serializer.ErrMalformed) || strings.Contains(err.Error(), "truncated"), "%s %d: %v", m.name, n, err)
		}
	}
}

func FuzzMarshalers(f *testing.F) {
	o, p := sample()
	for _, m := range modes {
		fy := serializer.New(m.opts...)
		for _, v := range []any{&o, &p} {
			data, err := fy.Serialize(v)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(data)
		}
	}
	forys := []*serializer.Fory{serializer.New(), serializer.New(serializer.WithCompatible(false))}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, fy := range forys {
			var back own.Host
			if err := fy.Deserialize(data, &back); err != nil {
				continue
			}
			// What decodes re-encodes and decodes to the same value.
			again, err := fy.Serialize(&back)
			if err != nil {
				// A decoded value a marshaler then refuses (a Code of
				// zero letters is not readable; anything else is a bug).
				t.Fatalf("re-encoding a decoded value: %v", err)
			}
			var twice own.Host
			if err := fy.Deserialize(again, &twice); err != nil {
				t.Fatalf("re-decoding: %v", err)
			}
		}
	})
}

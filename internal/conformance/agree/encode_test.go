package agree

import (
	"encoding/hex"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/forygen/forygen/buffer"
	"github.com/forygen/forygen/serializer"
)

// int and uint fields tagged varint or fixed are declared VARINT32 and
// UINT32 / INT32, as official Go declares them (issue 12 item 1): the
// fingerprint says 5 (VARINT32), 11 (UINT32), 4 (INT32) and the values are
// written in 32 bits.
func TestIntEncodingBytes(t *testing.T) {
	info := (&Ints{}).ForyType()
	p := 9
	data, err := consistent.Serialize(&Ints{A: -1, B: 7, C: 1 << 40, P: &p})
	require.NoError(t, err)
	// After the prefix and hash, in Fory field order (docs/format.md §9.3):
	// B as UINT32 (07000000), the varints C as VARINT64 (zigzag 2^40:
	// 808080808040) and A as VARINT32 (zigzag -1: 01), the nullable P as
	// INT32 (ff 09000000), then Name "" (02), Tags and Attr empty.
	body := hex.EncodeToString(data[len(info.RootConsistent)+4:])
	require.Equal(t, "07000000"+"808080808040"+"01"+"ff09000000"+"02"+"00"+"00", body)
	var back Ints
	require.NoError(t, consistent.Deserialize(data, &back))
	require.Equal(t, -1, back.A)
	require.Equal(t, uint(7), back.B)
	require.Equal(t, 1<<40, back.C)
	require.Equal(t, 9, *back.P)
}

// A value outside the 32 bits its tag declares is an EncodeError naming the
// field, where official Go truncates; nothing is written.
func TestIntOutOfRange(t *testing.T) {
	big := 1 << 40
	for _, tc := range []struct {
		v     Ints
		field string
	}{
		{Ints{A: 1 << 31}, "A"}, {Ints{A: -1<<31 - 1}, "A"}, {Ints{B: 1 << 32}, "B"}, {Ints{P: &big}, "P"},
	} {
		for _, f := range []*serializer.Fory{consistent, serializer.New()} {
			// The generated writer leaves the buffer as it was on error;
			// MarshalAppend then returns dst.
			b := buffer.New(64)
			b.WriteUint8(0xaa)
			err := tc.v.ForySerializeTo(f, b)
			require.Equal(t, []byte{0xaa}, b.Bytes(), "nothing written")
			out, err2 := serializer.MarshalAppend(f, []byte{0xaa}, &tc.v)
			require.Equal(t, err, err2)
			require.Equal(t, []byte{0xaa}, out, "nothing appended")
			require.ErrorIs(t, err, serializer.ErrInvalidValue, tc.field)
			var ee *serializer.EncodeError
			require.True(t, errors.As(err, &ee))
			require.Equal(t, tc.field, ee.Path)
			require.Equal(t, "agree.Ints", ee.Type)
		}
	}
	_, err := consistent.Serialize(&Ints{A: 1<<31 - 1, B: 1<<32 - 1})
	require.NoError(t, err)
}

// A string that is not UTF-8 is refused on write, so a program can read
// what it writes (issue 12 item 7); WithUTF8Validation(false) turns both
// checks off.
func TestInvalidUTF8OnWrite(t *testing.T) {
	bad := string([]byte{0xff, 'a'})
	for _, tc := range []struct {
		v     Ints
		field string
	}{
		{Ints{Name: bad}, "Name"}, {Ints{Tags: []string{"ok", bad}}, "Tags"},
		{Ints{Attr: map[string]string{bad: "v"}}, "Attr"}, {Ints{Attr: map[string]string{"k": bad}}, "Attr"},
	} {
		for _, f := range []*serializer.Fory{consistent, serializer.New()} {
			_, err := f.Serialize(&tc.v)
			require.ErrorIs(t, err, serializer.ErrInvalidValue, tc.field)
			var ee *serializer.EncodeError
			require.True(t, errors.As(err, &ee))
			require.Equal(t, tc.field, ee.Path)
		}
		lax := serializer.New(serializer.WithUTF8Validation(false))
		data, err := lax.Serialize(&tc.v)
		require.NoError(t, err, tc.field)
		var back Ints
		require.NoError(t, lax.Deserialize(data, &back))
		require.ErrorIs(t, serializer.Deserialize(data, &back), serializer.ErrMalformed, "the default reader refuses it")
	}
}

package decimals

import (
	"encoding/hex"
	"math/big"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/forygen/forygen/serializer"
)

func dec(t *testing.T, unscaled string, scale int32) serializer.Decimal {
	t.Helper()
	u, ok := new(big.Int).SetString(unscaled, 10)
	require.True(t, ok, unscaled)
	return serializer.NewDecimal(u, scale)
}

// want is the manifest's value of case decimal_fields.
func want(t *testing.T) *Decimals {
	p := dec(t, "-987654321", 4)
	return &Decimals{
		Zero: dec(t, "0", 0), Price: dec(t, "12345", 2), Negative: dec(t, "-1", 0),
		Huge:    dec(t, "123456789012345678901234567890123456789", 37),
		NegHuge: dec(t, "-9223372036854775809", 0), Scaled: dec(t, "5", -3), Ptr: &p,
		List: []serializer.Decimal{dec(t, "4611686018427387903", 0), dec(t, "4611686018427387904", 0),
			dec(t, "-4611686018427387904", 0), dec(t, "-4611686018427387905", 0)},
	}
}

func same(t *testing.T, a, b *Decimals, msg string) {
	t.Helper()
	pairs := [][2]*serializer.Decimal{{&a.Zero, &b.Zero}, {&a.Price, &b.Price}, {&a.Negative, &b.Negative},
		{&a.Huge, &b.Huge}, {&a.NegHuge, &b.NegHuge}, {&a.Scaled, &b.Scaled}, {a.Ptr, b.Ptr}}
	for i, p := range pairs {
		require.True(t, p[0].Equal(p[1]), "%s: field %d: %s vs %s", msg, i, p[0], p[1])
	}
	require.Nil(t, b.NilPtr, msg)
	require.Len(t, b.List, len(a.List), msg)
	for i := range a.List {
		require.True(t, a.List[i].Equal(&b.List[i]), "%s: List[%d]: %s vs %s", msg, i, &a.List[i], &b.List[i])
	}
}

// DECIMAL in both wire forms (a zigzag varint when it fits 63 bits, else the
// magnitude's bytes), across the boundary, with negative scales, by pointer
// and in a list: the golden files decode to the manifest's values and
// re-encode byte for byte in both modes.
func TestDecimalGolden(t *testing.T) {
	for _, m := range []struct {
		dir        string
		compatible bool
	}{{"schema-consistent", false}, {"compatible", true}} {
		data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "xlang-fixtures-2", m.dir, "decimal_fields.bin"))
		require.NoError(t, err)
		f := serializer.New(serializer.WithCompatible(m.compatible), serializer.WithOfficialGoForm(true))
		var got Decimals
		require.NoError(t, f.Deserialize(data, &got), m.dir)
		same(t, want(t), &got, m.dir)
		out, err := f.Serialize(want(t))
		require.NoError(t, err)
		require.Equal(t, hex.EncodeToString(data), hex.EncodeToString(out), m.dir)
	}
	for _, tc := range []struct {
		d    serializer.Decimal
		want string
	}{{dec(t, "12345", 2), "123.45"}, {dec(t, "-1", 4), "-0.0001"}, {dec(t, "5", -3), "5E+3"}, {dec(t, "7", 0), "7"}} {
		require.Equal(t, tc.want, tc.d.String())
	}
}

// Out-of-range decimals are refused on write and on read.
func TestDecimalLimits(t *testing.T) {
	big10k := new(big.Int).Lsh(big.NewInt(1), 8*10_000)
	for _, d := range []serializer.Decimal{dec(t, "1", 10_001), dec(t, "1", -10_001), serializer.NewDecimal(big10k, 0)} {
		_, err := serializer.Serialize(&Decimals{Price: d})
		require.ErrorIs(t, err, serializer.ErrInvalidValue)
	}
	f := serializer.New(serializer.WithCompatible(false), serializer.WithOfficialGoForm(true))
	good, err := f.Serialize(&Decimals{})
	require.NoError(t, err)
	var back Decimals
	require.NoError(t, f.Deserialize(good, &back))
	// A long form claiming more bytes than remain, and one with a trailing
	// zero byte, are malformed wherever the first decimal field starts.
	for i := len(good) - 1; i > 9; i-- {
		bad := append(append(append([]byte(nil), good[:i]...), 0x00, 0x41), make([]byte, 16)...)
		err := f.Deserialize(bad, new(Decimals))
		require.Error(t, err)
	}
}

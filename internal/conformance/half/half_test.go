package half

import (
	"encoding/hex"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/forygen/forygen/serializer"
)

func golden(t *testing.T, mode, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "xlang-fixtures-2", mode, name+".bin"))
	require.NoError(t, err)
	return data
}

var modes = []struct {
	dir        string
	compatible bool
}{{"schema-consistent", false}, {"compatible", true}}

// The manifest's value of case float16_bfloat16: the raw bits.
func wantHalf() *HalfFloats {
	p := serializer.Float16(48128)
	return &HalfFloats{F16: 15872, BF16: 16320, F16Neg: 49280, BF16Neg: 49216, F16Max: 31743, F16Tiny: 1,
		F16Inf: 31744, F16NaN: 32256, F16List: []serializer.Float16{0, 47104, 31743}, BF16List: []serializer.BFloat16{16256, 53269},
		F16Arr: []serializer.Float16{13312, 25552}, BF16Arr: []serializer.BFloat16{15872, 32610}, F16Ptr: &p}
}

// FLOAT16 and BFLOAT16 as scalars, lists, dense arrays and a pointer: the
// golden files decode to the manifest's value and re-encode to the same
// bytes, in both modes.
func TestHalfFloatsGolden(t *testing.T) {
	for _, m := range modes {
		f := serializer.New(serializer.WithCompatible(m.compatible), serializer.WithOfficialGoForm(true))
		data := golden(t, m.dir, "float16_bfloat16")
		var got HalfFloats
		require.NoError(t, f.Deserialize(data, &got), m.dir)
		require.Equal(t, wantHalf(), &got, m.dir)
		out, err := f.Serialize(wantHalf())
		require.NoError(t, err)
		require.Equal(t, hex.EncodeToString(data), hex.EncodeToString(out), m.dir)
	}
}

// Official Go c8bf233 writes a *bfloat16.BFloat16 field in the fixed group
// without a null flag (a nil pointer as 00 00, read back as a pointer to 0),
// against its own TypeDef and fingerprint. forygen writes it as the
// nullable primitive they declare, like *Float16: a flag, then two bytes
// (docs/format.md §14.26). Official's form cannot be told apart from a
// valid message by its schema, so forygen refuses it with an error instead
// of reading wrong values; a nil pointer stays nil.
func TestBFloat16PointerOfficialBug(t *testing.T) {
	two := serializer.BFloat16FromFloat32(2)
	m1 := serializer.Float16FromFloat32(-1)
	for _, m := range modes {
		f := serializer.New(serializer.WithCompatible(m.compatible), serializer.WithOfficialGoForm(true))
		for _, name := range []string{"bfloat16_pointer_set", "bfloat16_pointer_nil"} {
			err := f.Deserialize(golden(t, m.dir, name), new(BFloat16Ptr))
			require.Error(t, err, "%s %s", m.dir, name)
			var de *serializer.DecodeError
			require.ErrorAs(t, err, &de, "%s %s", m.dir, name)
		}
		for _, in := range []*BFloat16Ptr{{Count: 3, Value: &two, Other: &m1}, {Count: 3}} {
			data, err := f.Serialize(in)
			require.NoError(t, err)
			var back BFloat16Ptr
			require.NoError(t, f.Deserialize(data, &back))
			require.Equal(t, in, &back, m.dir)
		}
	}
	// Same-schema bytes: header, STRUCT 224, the hash official computes
	// too, then count (varint 3: 06) and the nullable primitives in name
	// order, other (ff 00bc) and value (ff 0040); nil is fd.
	f := serializer.New(serializer.WithCompatible(false), serializer.WithOfficialGoForm(true))
	data, err := f.Serialize(&BFloat16Ptr{Count: 3, Value: &two, Other: &m1})
	require.NoError(t, err)
	require.Equal(t, "01ff1be001ad98aa3c"+"06"+"ff00bc"+"ff0040", hex.EncodeToString(data))
	data, err = f.Serialize(&BFloat16Ptr{Count: 3})
	require.NoError(t, err)
	require.Equal(t, "01ff1be001ad98aa3c"+"06"+"fd"+"fd", hex.EncodeToString(data))
}

package serializer_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/forygen/forygen/serializer"
)

// Every half-precision value converts to float32 and back to itself (NaNs
// stay NaN), and the values the golden file holds mean what it says.
func TestFloat16RoundTrip(t *testing.T) {
	for i := 0; i < 1<<16; i++ {
		h := serializer.Float16FromBits(uint16(i))
		back := serializer.Float16FromFloat32(h.Float32())
		if h.IsNaN() {
			require.True(t, back.IsNaN(), "%#04x", i)
			require.True(t, math.IsNaN(float64(h.Float32())), "%#04x", i)
			continue
		}
		require.Equal(t, h, back, "%#04x -> %v", i, h.Float32())
	}
	for bits, want := range map[uint16]float32{0x3e00: 1.5, 0x7bff: 65504, 0x0001: 0x1p-24, 0xc080: -2.25, 0x7c00: float32(math.Inf(1))} {
		require.Equal(t, want, serializer.Float16FromBits(bits).Float32(), "%#04x", bits)
	}
}

// Rounding is to nearest, ties to even, with overflow to Inf and underflow
// through the subnormals to zero.
func TestFloat16Rounding(t *testing.T) {
	for _, tc := range []struct {
		f    float32
		bits uint16
	}{
		{65504, 0x7bff}, {65519, 0x7bff}, {65520, 0x7c00}, {1e10, 0x7c00}, {-1e10, 0xfc00},
		{0x1p-24, 0x0001}, {0x1p-25, 0x0000}, {0x3p-26, 0x0001}, {0x3p-25, 0x0002}, {0x5p-25, 0x0002}, {0x1p-26, 0x0000}, {-0x1p-30, 0x8000},
		{1 + 0x1p-11, 0x3c00}, {1 + 0x3p-11, 0x3c02}, {1 + 0x1p-10, 0x3c01}, {0x1.ffcp-15, 0x0400},
		{float32(math.NaN()), 0x7e00},
	} {
		require.Equal(t, tc.bits, serializer.Float16FromFloat32(tc.f).Bits(), "%g", tc.f)
	}
}

func TestBFloat16(t *testing.T) {
	for i := 0; i < 1<<16; i++ {
		b := serializer.BFloat16FromBits(uint16(i))
		back := serializer.BFloat16FromFloat32(b.Float32())
		if b.IsNaN() {
			require.True(t, back.IsNaN(), "%#04x", i)
			continue
		}
		require.Equal(t, b, back, "%#04x", i)
	}
	for _, tc := range []struct {
		f    float32
		bits uint16
	}{
		{1.5, 0x3fc0}, {-1.5, 0xbfc0}, {1 + 0x1p-8, 0x3f80}, {1 + 0x3p-8, 0x3f82}, {1 + 0x1p-7, 0x3f81},
		{float32(math.Inf(-1)), 0xff80}, {math.MaxFloat32, 0x7f80},
	} {
		require.Equal(t, tc.bits, serializer.BFloat16FromFloat32(tc.f).Bits(), "%g", tc.f)
	}
	require.True(t, serializer.BFloat16FromFloat32(float32(math.NaN())).IsNaN())
}

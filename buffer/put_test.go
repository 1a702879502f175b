package buffer

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

const canary = 0xa5

// arena returns n bytes filled with canary.
func arena(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = canary
	}
	return b
}

// requireCanary checks that b[from:to] still holds the canary.
func requireCanary(t *testing.T, b []byte, from, to int, msgAndArgs ...any) {
	t.Helper()
	for i := from; i < to; i++ {
		if b[i] != canary {
			require.Failf(t, "byte outside the store was written", "offset %d: %#x; %v", i, b[i], msgAndArgs)
		}
	}
}

// fixedCase is one fixed-width store and its load, checked against
// encoding/binary.
type fixedCase struct {
	name  string
	width int
	put   func(buf []byte, off int, v uint64) // stores the low width bytes of v through the typed Put…At
	load  func(buf []byte, off int) uint64    // loads through the typed Read…At, widened back
}

var fixedCases = []fixedCase{
	{"uint8", 1, func(b []byte, o int, v uint64) { PutUint8At(b, o, uint8(v)) }, func(b []byte, o int) uint64 { return uint64(ReadUint8At(b, o)) }},
	{"int8", 1, func(b []byte, o int, v uint64) { PutInt8At(b, o, int8(v)) }, func(b []byte, o int) uint64 { return uint64(uint8(ReadInt8At(b, o))) }},
	{"uint16", 2, func(b []byte, o int, v uint64) { PutUint16At(b, o, uint16(v)) }, func(b []byte, o int) uint64 { return uint64(ReadUint16At(b, o)) }},
	{"int16", 2, func(b []byte, o int, v uint64) { PutInt16At(b, o, int16(v)) }, func(b []byte, o int) uint64 { return uint64(uint16(ReadInt16At(b, o))) }},
	{"uint32", 4, func(b []byte, o int, v uint64) { PutUint32At(b, o, uint32(v)) }, func(b []byte, o int) uint64 { return uint64(ReadUint32At(b, o)) }},
	{"int32", 4, func(b []byte, o int, v uint64) { PutInt32At(b, o, int32(v)) }, func(b []byte, o int) uint64 { return uint64(uint32(ReadInt32At(b, o))) }},
	{"float32", 4, func(b []byte, o int, v uint64) { PutFloat32At(b, o, math.Float32frombits(uint32(v))) }, func(b []byte, o int) uint64 { return uint64(math.Float32bits(ReadFloat32At(b, o))) }},
	{"uint64", 8, func(b []byte, o int, v uint64) { PutUint64At(b, o, v) }, func(b []byte, o int) uint64 { return ReadUint64At(b, o) }},
	{"int64", 8, func(b []byte, o int, v uint64) { PutInt64At(b, o, int64(v)) }, func(b []byte, o int) uint64 { return uint64(ReadInt64At(b, o)) }},
	{"float64", 8, func(b []byte, o int, v uint64) { PutFloat64At(b, o, math.Float64frombits(v)) }, func(b []byte, o int) uint64 { return math.Float64bits(ReadFloat64At(b, o)) }},
}

// fixedValues covers every width's limits, signed minimums and a pattern
// with distinct bytes (to catch byte-order mistakes).
func fixedValues() []uint64 {
	vals := uint64Boundaries()
	for _, v := range int64Boundaries() {
		vals = append(vals, uint64(v))
	}
	// float32 bits of quiet NaN; the float stores carry the bits verbatim
	// because they go through Float32bits/Float64bits, not float arithmetic.
	return append(vals, 0x0102030405060708, 0xf1e2d3c4b5a69788, 0x7fc00000, math.Float64bits(math.Inf(-1)))
}

func TestPutAtMatchesEncodingBinary(t *testing.T) {
	for _, c := range fixedCases {
		t.Run(c.name, func(t *testing.T) {
			for _, v := range fixedValues() {
				want := binary.LittleEndian.AppendUint64(nil, v)[:c.width]
				for align := 0; align < 8; align++ {
					buf := arena(align + c.width + 8)
					c.put(buf, align, v)
					require.Equal(t, want, buf[align:align+c.width], "v=%#x align=%d", v, align)
					requireCanary(t, buf, 0, align)
					requireCanary(t, buf, align+c.width, len(buf))

					mask := uint64(1)<<(8*c.width) - 1
					if c.width == 8 {
						mask = math.MaxUint64
					}
					require.Equal(t, v&mask, c.load(buf, align), "load v=%#x align=%d", v, align)
				}
				// At the very end of an exactly sized window.
				w := guardedWindow(c.width)
				c.put(w, 0, v)
				require.Equal(t, want, w)
				require.Equal(t, want, binary.LittleEndian.AppendUint64(nil, c.load(w, 0))[:c.width])
			}
		})
	}
}

func TestPutBoolAt(t *testing.T) {
	buf := arena(3)
	PutBoolAt(buf, 1, true)
	require.Equal(t, []byte{canary, 1, canary}, buf)
	PutBoolAt(buf, 1, false)
	require.Equal(t, []byte{canary, 0, canary}, buf)
}

func TestSignedLoadsSignExtend(t *testing.T) {
	buf := []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}
	require.Equal(t, int8(-1), ReadInt8At(buf, 0))
	require.Equal(t, int16(-1), ReadInt16At(buf, 0))
	require.Equal(t, int32(-1), ReadInt32At(buf, 0))
	require.Equal(t, int64(-1), ReadInt64At(buf, 0))
	require.True(t, math.IsNaN(float64(ReadFloat32At(buf, 0))))
	require.True(t, math.IsNaN(ReadFloat64At(buf, 0)))
}

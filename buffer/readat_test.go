package buffer

import (
	"math/rand"
	"testing"

	"github.com/stretchr/testify/require"
)

// readAtInputs are encodings of boundary values, overlong and truncated
// forms, and random bytes.
func readAtInputs() [][]byte {
	var ins [][]byte
	for s := 0; s < 64; s++ {
		for _, v := range []uint64{1<<s - 1, 1 << s, 1<<s + 1} {
			ins = append(ins, refVarUint64(v), refVarUint32(uint32(v)), refTaggedInt64(int64(v)), refTaggedUint64(v),
				refTaggedInt64(-int64(v)))
		}
	}
	ins = append(ins, []byte{0x80, 0x80, 0x80, 0x80, 0x10}, []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0x01},
		[]byte{0x80, 0x00}, []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff})
	rng := rand.New(rand.NewSource(1))
	for i := 0; i < 2000; i++ {
		b := make([]byte, rng.Intn(12))
		rng.Read(b)
		ins = append(ins, b)
	}
	return ins
}

func refOff(start, n int, e refErr) int {
	switch e {
	case refTruncated:
		return offTruncated
	case refOverflow:
		return offOverflow
	}
	return start + n
}

// Every offset-passing read agrees with the byte-at-a-time reference on
// every input, prefix and position, including at the very end of the slice.
func TestReadAtMatchesReference(t *testing.T) {
	for _, in := range readAtInputs() {
		for cut := 0; cut <= len(in); cut++ {
			for lead := 0; lead < 3; lead++ {
				b := make([]byte, lead+cut) // exactly sized: nothing to read past the end
				copy(b[lead:], in[:cut])
				data := b[lead:]

				v32, n, e := refDecodeVarUint32(data)
				g32, off := ReadVarUint32At(b, lead)
				require.Equal(t, refOff(lead, n, e), off, "varu32 % x", data)
				require.Equal(t, v32, g32, "varu32 % x", data)

				v64, n, e := refDecodeVarUint64(data)
				g64, off := ReadVarUint64At(b, lead)
				require.Equal(t, refOff(lead, n, e), off, "varu64 % x", data)
				require.Equal(t, v64, g64, "varu64 % x", data)

				ti, n, e := refDecodeTaggedInt64(data)
				gti, off := ReadTaggedInt64At(b, lead)
				require.Equal(t, refOff(lead, n, e), off, "tagged i64 % x", data)
				require.Equal(t, ti, gti)

				tu, n, e := refDecodeTaggedUint64(data)
				gtu, off := ReadTaggedUint64At(b, lead)
				require.Equal(t, refOff(lead, n, e), off, "tagged u64 % x", data)
				require.Equal(t, tu, gtu)
			}
		}
	}
}

// An error offset passes through every later read, and CommitRun records
// the right sentinel without moving the reader.
func TestReadAtErrorPropagates(t *testing.T) {
	b := []byte{0x05, 0xff, 0xff, 0xff, 0xff, 0x7f, 0x01, 0x02, 0x03, 0x04, 0x05}
	v, off := ReadVarUint32At(b, 0)
	require.Equal(t, uint32(5), v)
	_, off = ReadVarUint32At(b, off)
	require.Equal(t, offOverflow, off)
	for _, f := range []func(int) int{
		func(o int) int { _, o = ReadVarUint32At(b, o); return o },
		func(o int) int { _, o = ReadVarInt64At(b, o); return o },
		func(o int) int { _, o = ReadTaggedInt64At(b, o); return o },
		func(o int) int { _, o = ReadTaggedUint64At(b, o); return o },
	} {
		require.Equal(t, offOverflow, f(off))
		require.Equal(t, offTruncated, f(offTruncated))
	}
	r := NewReader(b)
	r.Skip(1)
	r.CommitRun(offOverflow)
	require.ErrorIs(t, r.Err(), ErrVarintOverflow)
	r = NewReader(b)
	r.CommitRun(offTruncated)
	require.ErrorIs(t, r.Err(), ErrTruncated)
	r = NewReader(b)
	r.CommitRun(3)
	require.NoError(t, r.Err())
	require.Equal(t, 3, r.Offset())
}

func FuzzReadAt(f *testing.F) {
	for _, in := range readAtInputs()[:64] {
		f.Add(in, uint8(0))
	}
	f.Fuzz(func(t *testing.T, data []byte, lead uint8) {
		b := make([]byte, len(data))
		copy(b, data)
		start := int(lead) % (len(b) + 1)
		v, n, e := refDecodeVarUint32(b[start:])
		g, off := ReadVarUint32At(b, start)
		if off != refOff(start, n, e) || g != v {
			t.Fatalf("varu32 at %d of % x: got %d,%d want %d,%d", start, b, g, off, v, refOff(start, n, e))
		}
		v64, n, e := refDecodeVarUint64(b[start:])
		g64, off := ReadVarUint64At(b, start)
		if off != refOff(start, n, e) || g64 != v64 {
			t.Fatalf("varu64 at %d of % x", start, b)
		}
	})
}

// BenchmarkReadVarintRun decodes the 12 zz32 fields of the NumericStruct
// benchmark fixture: through the Reader per field, and with offset-passing
// reads and one commit.
func BenchmarkReadVarintRun(b *testing.B) {
	vals := []int32{-12345, 987654321, -31415, 27182818, -32000, 1000000, -999999999, 42, 123456789, -42, 31415926, -27182818}
	var in []byte
	for _, v := range vals {
		in = append(in, refVarUint32(refZigZag32(v))...)
	}
	var sink int32
	b.Run("reader", func(b *testing.B) {
		r := NewReader(in)
		for i := 0; i < b.N; i++ {
			r.Reset(in)
			for range vals {
				sink += r.ReadVarInt32()
			}
		}
	})
	b.Run("offset", func(b *testing.B) {
		r := NewReader(in)
		for i := 0; i < b.N; i++ {
			r.Reset(in)
			buf, off := r.Bytes(), r.Offset()
			var v int32
			for range vals {
				v, off = ReadVarInt32At(buf, off)
				sink += v
			}
			r.CommitRun(off)
		}
	})
	_ = sink
}

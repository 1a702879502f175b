package buffer

import (
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

// encCase is one variable-length encoding: the batched Put…At under test, its
// byte-at-a-time reference, its Size function and its maximum length.
type encCase struct {
	name string
	max  int
	put  func(buf []byte, off int) int
	ref  []byte
	size int
}

// encCases lists every encoding of every boundary value.
func encCases() []encCase {
	var cs []encCase
	for _, u := range uint64Boundaries() {
		u := u
		if u <= math.MaxUint32 {
			v := uint32(u)
			cs = append(cs, encCase{fmt.Sprintf("varu32(%d)", v), MaxVarUint32Len,
				func(b []byte, o int) int { return PutVarUint32At(b, o, v) }, refVarUint32(v), SizeVarUint32(v)})
		}
		cs = append(cs,
			encCase{fmt.Sprintf("varu64(%d)", u), MaxVarUint64Len,
				func(b []byte, o int) int { return PutVarUint64At(b, o, u) }, refVarUint64(u), SizeVarUint64(u)},
			encCase{fmt.Sprintf("taggedu64(%d)", u), MaxTaggedLen,
				func(b []byte, o int) int { return PutTaggedUint64At(b, o, u) }, refTaggedUint64(u), SizeTaggedUint64(u)})
	}
	for _, s := range int64Boundaries() {
		s := s
		if s >= math.MinInt32 && s <= math.MaxInt32 {
			v := int32(s)
			cs = append(cs, encCase{fmt.Sprintf("zz32(%d)", v), MaxVarUint32Len,
				func(b []byte, o int) int { return PutVarInt32At(b, o, v) }, refVarUint32(refZigZag32(v)), SizeVarInt32(v)})
		}
		cs = append(cs,
			encCase{fmt.Sprintf("zz64(%d)", s), MaxVarUint64Len,
				func(b []byte, o int) int { return PutVarInt64At(b, o, s) }, refVarUint64(refZigZag64(s)), SizeVarInt64(s)},
			encCase{fmt.Sprintf("taggedi64(%d)", s), MaxTaggedLen,
				func(b []byte, o int) int { return PutTaggedInt64At(b, o, s) }, refTaggedInt64(s), SizeTaggedInt64(s)})
	}
	return cs
}

func TestBatchedStoresMatchReference(t *testing.T) {
	for _, c := range encCases() {
		n := len(c.ref)
		require.LessOrEqual(t, n, c.max, c.name)
		require.Equal(t, n, c.size, "%s: Size", c.name)
		for align := 0; align < 8; align++ {
			// Room for a full slack past the encoding, plus canaries beyond it
			// that must survive.
			buf := arena(align + n + BatchSlack + 16)
			end := c.put(buf, align)
			require.Equal(t, align+n, end, "%s align=%d", c.name, align)
			require.Equal(t, c.ref, buf[align:end], "%s align=%d", c.name, align)
			requireCanary(t, buf, 0, align, c.name)
			requireCanary(t, buf, end+BatchSlack, len(buf), c.name)
		}
		// Reserve exactly max+BatchSlack at the end of a buffer and write at
		// the start of that window: the store must stay inside it (the window
		// ends at a guard page on Linux).
		w := guardedWindow(3 + c.max + BatchSlack)
		for i := range w {
			w[i] = canary
		}
		end := c.put(w, 3)
		require.Equal(t, c.ref, w[3:end], c.name)
		requireCanary(t, w, 0, 3, c.name)
	}
}

func TestWriteVarintsMatchReference(t *testing.T) {
	b := New(0)
	var want []byte
	for _, u := range uint64Boundaries() {
		if u <= math.MaxUint32 {
			b.WriteVarUint32(uint32(u))
			want = append(want, refVarUint32(uint32(u))...)
		}
		b.WriteVarUint64(u)
		want = append(want, refVarUint64(u)...)
		b.WriteTaggedUint64(u)
		want = append(want, refTaggedUint64(u)...)
	}
	for _, s := range int64Boundaries() {
		if s >= math.MinInt32 && s <= math.MaxInt32 {
			b.WriteVarInt32(int32(s))
			want = append(want, refVarUint32(refZigZag32(int32(s)))...)
		}
		b.WriteVarInt64(s)
		want = append(want, refVarUint64(refZigZag64(s))...)
		b.WriteTaggedInt64(s)
		want = append(want, refTaggedInt64(s)...)
	}
	require.Equal(t, want, b.Bytes())
}

// TestFormatExamples checks the worked examples of docs/format.md §3 byte for
// byte, through the Put…At, Write… and Read… paths.
func TestFormatExamples(t *testing.T) {
	ex := []struct {
		name  string
		want  []byte
		write func(b *Buffer)
		read  func(r *Reader) any
		value any
	}{
		{"zz32(-12345)", []byte{0xf1, 0xc0, 0x01},
			func(b *Buffer) { b.WriteVarInt32(-12345) }, func(r *Reader) any { return r.ReadVarInt32() }, int32(-12345)},
		{"zz64(MinInt64)", []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
			func(b *Buffer) { b.WriteVarInt64(math.MinInt64) }, func(r *Reader) any { return r.ReadVarInt64() }, int64(math.MinInt64)},
		{"varu64(MaxUint64)", []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
			func(b *Buffer) { b.WriteVarUint64(math.MaxUint64) }, func(r *Reader) any { return r.ReadVarUint64() }, uint64(math.MaxUint64)},
		{"zz32(MinInt32)", []byte{0xff, 0xff, 0xff, 0xff, 0x0f},
			func(b *Buffer) { b.WriteVarInt32(math.MinInt32) }, func(r *Reader) any { return r.ReadVarInt32() }, int32(math.MinInt32)},
		{"tagged i64 -3", []byte{0xfa, 0xff, 0xff, 0xff},
			func(b *Buffer) { b.WriteTaggedInt64(-3) }, func(r *Reader) any { return r.ReadTaggedInt64() }, int64(-3)},
		{"tagged i64 2^30", []byte{0x01, 0x00, 0x00, 0x00, 0x40, 0x00, 0x00, 0x00, 0x00},
			func(b *Buffer) { b.WriteTaggedInt64(1 << 30) }, func(r *Reader) any { return r.ReadTaggedInt64() }, int64(1 << 30)},
	}
	for _, e := range ex {
		t.Run(e.name, func(t *testing.T) {
			b := New(0)
			e.write(b)
			require.Equal(t, e.want, b.Bytes())
			forEachPlacement(e.want, func(in []byte) {
				r := NewReader(in)
				require.Equal(t, e.value, e.read(r))
				require.NoError(t, r.Err())
				require.Equal(t, len(e.want), r.Offset())
			})
		})
	}
	// The same examples through the put-at forms.
	buf := make([]byte, 32)
	require.Equal(t, []byte{0xf1, 0xc0, 0x01}, buf[:PutVarInt32At(buf, 0, -12345)])
	require.Equal(t, []byte{0xff, 0xff, 0xff, 0xff, 0x0f}, buf[:PutVarInt32At(buf, 0, math.MinInt32)])
	require.Equal(t, []byte{0xfa, 0xff, 0xff, 0xff}, buf[:PutTaggedInt64At(buf, 0, -3)])
}

func TestSizeLimits(t *testing.T) {
	require.Equal(t, 1, SizeVarUint32(0))
	require.Equal(t, MaxVarUint32Len, SizeVarUint32(math.MaxUint32))
	require.Equal(t, MaxVarUint32Len, SizeVarInt32(math.MinInt32))
	require.Equal(t, 8, SizeVarUint64(1<<56-1))
	require.Equal(t, MaxVarUint64Len, SizeVarUint64(1<<56))
	require.Equal(t, MaxVarUint64Len, SizeVarUint64(math.MaxUint64))
	require.Equal(t, MaxVarUint64Len, SizeVarInt64(math.MinInt64))
	require.Equal(t, 4, SizeTaggedInt64(-1<<30))
	require.Equal(t, 4, SizeTaggedInt64(1<<30-1))
	require.Equal(t, MaxTaggedLen, SizeTaggedInt64(-1<<30-1))
	require.Equal(t, MaxTaggedLen, SizeTaggedInt64(1<<30))
	require.Equal(t, 4, SizeTaggedUint64(math.MaxInt32))
	require.Equal(t, MaxTaggedLen, SizeTaggedUint64(math.MaxInt32+1))
}

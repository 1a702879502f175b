package serializer_test

import (
	"bytes"
	"encoding/hex"
	"errors"
	"io"
	"math"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/forygen/forygen/buffer"
	"github.com/forygen/forygen/serializer"
)

// rootSample is a value of one RootValue type with the bytes official Go
// writes for it (header 01, root flag ff, type id, payload), or "" where
// the bytes follow Go's map order.
type rootSample struct {
	name string
	hex  string
	// check round-trips the value through every entry point, compares
	// its encoding with hexBytes unless that is "", and returns it.
	check func(t *testing.T, f *serializer.Fory, hexBytes string) []byte
	// decode decodes data into a fresh target of the sample's type.
	decode func(f *serializer.Fory, data []byte) error
}

func sample[T serializer.RootValue](name, hexBytes string, v T) rootSample {
	return rootSample{name: name, hex: hexBytes,
		check: func(t *testing.T, f *serializer.Fory, hexBytes string) []byte {
			t.Helper()
			data, err := serializer.MarshalValue(f, v)
			require.NoError(t, err, name)
			if hexBytes != "" {
				require.Equal(t, hexBytes, hex.EncodeToString(data), name)
			}
			// Serialize takes the value and a pointer to it.
			viaAny, err := f.Serialize(v)
			require.NoError(t, err, name)
			viaPtr, err := f.Serialize(&v)
			require.NoError(t, err, name)
			appended, err := serializer.MarshalValueAppend(f, []byte{0xaa}, v)
			require.NoError(t, err, name)
			require.Equal(t, byte(0xaa), appended[0], name)
			if hexBytes != "" {
				require.Equal(t, data, viaAny, name)
				require.Equal(t, data, viaPtr, name)
				require.Equal(t, data, appended[1:], name)
			}
			var viaAppend T
			require.NoError(t, serializer.UnmarshalValue(f, appended[1:], &viaAppend), name)
			require.Equal(t, v, viaAppend, name)
			var got T
			require.NoError(t, serializer.UnmarshalValue(f, data, &got), name)
			require.Equal(t, v, got, name)
			var viaDeserialize T
			require.NoError(t, f.Deserialize(viaAny, &viaDeserialize), name)
			require.Equal(t, v, viaDeserialize, name)
			return data
		},
		decode: func(f *serializer.Fory, data []byte) error {
			var got T
			return serializer.UnmarshalValue(f, data, &got)
		}}
}

func rootSamples() []rootSample {
	return []rootSample{
		sample("bool", "01ff0101", true),
		sample("int8", "01ff0280", int8(math.MinInt8)),
		sample("int16", "01ff033412", int16(0x1234)),
		sample("int32", "01ff050d", int32(-7)),
		sample("int64", "01ff07d3db80cb49", int64(-9876543210)),
		sample("int", "01ff0754", 42),
		sample("uint8", "01ff09ff", uint8(255)),
		sample("uint16", "01ff0afeff", uint16(0xfffe)),
		sample("uint32", "01ff0cffffffff0f", uint32(math.MaxUint32)),
		sample("uint64", "01ff0e"+"ffffffffffffffffff", uint64(math.MaxUint64)),
		sample("uint", "01ff0e2a", uint(42)),
		sample("float32", "01ff130000c03f", float32(1.5)),
		sample("float64", "01ff14000000000000f4bf", -1.25),
		sample("string", "01ff153e68656c6c6f2c20666f727920e29c93", "hello, fory ✓"),
		sample("empty string", "01ff1502", ""),
		sample("time.Time", "01ff2600f1536500000000"+"15cd5b07", time.Unix(1700000000, 123456789).In(time.Local)),
		sample("time.Duration", "01ff25b501fbc99a3b", -90*time.Second-5),
		sample("[]byte", "01ff2903010203", []byte{1, 2, 3}),
		sample("[]bool", "01ff2b03010001", []bool{true, false, true}),
		sample("[]int8", "01ff2c02ff7f", []int8{-1, 127}),
		sample("[]int16", "01ff2d04ffff0100", []int16{-1, 1}),
		sample("[]int32", "01ff2e18ffffffff00000000010000000000100000000080ffffff7f",
			[]int32{-1, 0, 1, 1048576, math.MinInt32, math.MaxInt32}),
		sample("[]int64", "01ff2f10"+"ffffffffffffffff"+"0000000000000080", []int64{-1, math.MinInt64}),
		sample("[]int", "01ff2f08"+"0500000000000000", []int{5}),
		sample("[]uint16", "01ff3102ffff", []uint16{0xffff}),
		sample("[]uint32", "01ff320401000000", []uint32{1}),
		sample("[]uint64", "01ff3308ffffffffffffffff", []uint64{math.MaxUint64}),
		sample("[]float32", "01ff37040000803f", []float32{1}),
		sample("[]float64", "01ff3808000000000000f03f", []float64{1}),
		sample("empty []int32", "01ff2e00", []int32{}),
		sample("nil []int32", "01fd", []int32(nil)),
		sample("[]string", "01ff160308150661020ac3a9", []string{"a", "", "é"}),
		sample("empty []string", "01ff1600", []string{}),
		sample("nil []string", "01fd", []string(nil)),
		sample("map[string]int64", "01ff1801000115071a616e7377657254", map[string]int64{"answer": 42}),
		sample("map[string]string", "01ff180100011515066b0676", map[string]string{"k": "v"}),
		sample("map[int32]int32", "01ff1801000105050102", map[int32]int32{-1: 1}),
		sample("map[string]int32", "01ff1801000115050661"+"54", map[string]int32{"a": 42}),
		sample("map[int32]string", "01ff1801000105150126"+"6d696e7573206f6e65", map[int32]string{-1: "minus one"}),
		sample("map[string]bool", "01ff180100011501066101", map[string]bool{"a": true}),
		sample("map[string]float64", "01ff18010001151406610000000000000040", map[string]float64{"a": 2}),
		sample("map[string]int", "01ff18010001150706610a", map[string]int{"a": 5}),
		sample("map[int]int", "01ff180100010707020a", map[int]int{1: 5}),
		sample("map[int32]bool", "", map[int32]bool{1: true, 2: false}),
		sample("map[int32]int64", "", map[int32]int64{1: -1, 2: math.MaxInt64}),
		sample("map[int32]float64", "", map[int32]float64{1: 0.5}),
		sample("map[int64]bool", "", map[int64]bool{math.MinInt64: true}),
		sample("map[int64]int32", "", map[int64]int32{1 << 40: -3, 0: 0}),
		sample("map[int64]int64", "", map[int64]int64{-5: 5}),
		sample("map[int64]float64", "", map[int64]float64{7: -0.25}),
		sample("map[int64]string", "", map[int64]string{1: "x", 2: ""}),
		sample("empty map", "01ff1800", map[string]string{}),
		sample("nil map", "01fd", map[string]int64(nil)),
	}
}

// Every RootValue type round-trips through MarshalValue, MarshalValueAppend,
// Serialize (value and pointer), UnmarshalValue and Deserialize, in both
// modes, with official Go's bytes.
func TestRootValues(t *testing.T) {
	for _, compatible := range []bool{false, true} {
		f := serializer.New(serializer.WithCompatible(compatible), serializer.WithTimeLocation(time.Local))
		for _, s := range rootSamples() {
			s.check(t, f, s.hex)
		}
	}
}

// A map of 600 entries is three chunks of 255, 255 and 90.
func TestRootMapChunks(t *testing.T) {
	m := map[int32]int32{}
	for i := int32(0); i < 600; i++ {
		m[i] = -i
	}
	data, err := serializer.MarshalValue(serializer.New(), m)
	require.NoError(t, err)
	r := buffer.NewReader(data)
	r.Skip(3)
	require.Equal(t, uint32(600), r.ReadVarUint32())
	var sizes []int
	seen := map[int32]bool{}
	for left := 600; left > 0; {
		require.Equal(t, uint8(0), r.ReadUint8(), "chunk header")
		size := int(r.ReadUint8())
		require.Equal(t, uint8(5), r.ReadUint8())
		require.Equal(t, uint8(5), r.ReadUint8())
		for i := 0; i < size; i++ {
			k, v := r.ReadVarInt32(), r.ReadVarInt32()
			require.False(t, seen[k], "key %d written twice", k)
			require.Equal(t, -k, v)
			seen[k] = true
		}
		sizes = append(sizes, size)
		left -= size
	}
	require.Equal(t, []int{255, 255, 90}, sizes)
	require.Zero(t, r.Remaining())
	require.Len(t, seen, 600)
}

// Chunks of any well-formed split decode, and a key repeated across chunks
// keeps its last value (what official c8bf233's big root maps need).
func TestRootMapAnyChunks(t *testing.T) {
	f := serializer.New()
	// 3 entries as chunks of 1 and 2; the second chunk declares both
	// sides (24), which official Go writes for struct fields.
	data := []byte{0x01, 0xff, 0x18, 0x03, 0x00, 0x01, 0x05, 0x05, 0x02, 0x04,
		0x24, 0x02, 0x04, 0x06, 0x02, 0x08}
	var got map[int32]int32
	require.NoError(t, serializer.UnmarshalValue(f, data, &got))
	require.Equal(t, map[int32]int32{1: 4, 2: 3}, got)
	// A chunk larger than the entries left is malformed.
	bad := append([]byte(nil), data...)
	bad[5] = 0x04
	require.ErrorIs(t, serializer.UnmarshalValue(f, bad, &got), serializer.ErrMalformed)
}

// With reference tracking on, slices and maps carry root flag 00, as
// official Go writes them; everything else keeps ff.
func TestRootValuesTrackRef(t *testing.T) {
	f := serializer.New(serializer.WithTrackRef(true))
	tracked := 0
	for _, s := range rootSamples() {
		want := s.hex
		if len(want) > 6 {
			switch want[4:6] {
			case "29", "2b", "2c", "2d", "2e", "2f", "31", "32", "33", "37", "38", "16", "18":
				want = "0100" + want[4:]
				tracked++
			}
		}
		s.check(t, f, want)
	}
	require.Greater(t, tracked, 20)
}

// Other integer encodings of the same Go type are read too: INT32 for
// int32, INT64 and TAGGED_INT64 for int64 and int, UINT8_ARRAY for []byte.
func TestRootValueEncodings(t *testing.T) {
	f := serializer.New()
	var i32 int32
	require.NoError(t, serializer.UnmarshalValue(f, []byte{1, 0xff, 4, 0xf9, 0xff, 0xff, 0xff}, &i32))
	require.Equal(t, int32(-7), i32)
	var i64 int64
	require.NoError(t, serializer.UnmarshalValue(f, []byte{1, 0xff, 8, 0xfa, 0xff, 0xff, 0xff}, &i64))
	require.Equal(t, int64(-3), i64)
	var n int
	require.NoError(t, serializer.UnmarshalValue(f, []byte{1, 0xff, 6, 2, 0, 0, 0, 0, 0, 0, 0}, &n))
	require.Equal(t, 2, n)
	var u uint64
	require.NoError(t, serializer.UnmarshalValue(f, []byte{1, 0xff, 15, 6, 0, 0, 0}, &u))
	require.Equal(t, uint64(3), u)
	var bs []byte
	require.NoError(t, serializer.UnmarshalValue(f, []byte{1, 0xff, 48, 1, 9}, &bs))
	require.Equal(t, []byte{9}, bs)
}

// Decoding errors are *DecodeError values naming the root type, with the
// right sentinel.
func TestRootValueErrors(t *testing.T) {
	f := serializer.New()
	var de *serializer.DecodeError
	var s string
	err := serializer.UnmarshalValue(f, []byte{1, 0xff, 7, 2}, &s)
	require.ErrorIs(t, err, serializer.ErrSchemaMismatch)
	require.ErrorAs(t, err, &de)
	require.Equal(t, "string", de.Type)
	require.Equal(t, 3, de.Offset)

	var i int64
	require.ErrorIs(t, serializer.UnmarshalValue(f, []byte{1, 0xfd}, &i), serializer.ErrSchemaMismatch, "null int64")
	require.ErrorIs(t, serializer.UnmarshalValue(f, []byte{1, 0xff, 7, 2, 0}, &i), serializer.ErrMalformed, "trailing byte")
	require.ErrorIs(t, serializer.UnmarshalValue(f, []byte{3, 0xff, 7, 2}, &i), serializer.ErrMalformed, "header")
	require.ErrorIs(t, serializer.UnmarshalValue(f, []byte{1, 0x7f, 7, 2}, &i), serializer.ErrMalformed, "flag")
	require.ErrorIs(t, serializer.UnmarshalValue(f, nil, &i), serializer.ErrMalformed, "empty")
	i = 5
	require.Error(t, serializer.UnmarshalValue(f, []byte{1, 0xff, 7}, &i))
	require.Equal(t, int64(5), i, "the target is kept on error")

	var ss []string
	err = serializer.UnmarshalValue(f, []byte{1, 0xff, 0x16, 2, 0x0a, 0x15, 0xff, 0x06, 0x61, 0xfd}, &ss)
	require.ErrorIs(t, err, serializer.ErrSchemaMismatch, "null element")
	err = serializer.UnmarshalValue(f, []byte{1, 0xff, 0x16, 1, 0x08, 0x05, 0x02}, &ss)
	require.ErrorIs(t, err, serializer.ErrSchemaMismatch, "int32 elements")

	var m map[string]string
	err = serializer.UnmarshalValue(f, []byte{1, 0xff, 0x18, 1, 0x00, 0x01, 0x15, 0x07, 0x02, 0x02}, &m)
	require.ErrorIs(t, err, serializer.ErrSchemaMismatch, "int64 values")
	err = serializer.UnmarshalValue(f, []byte{1, 0xff, 0x18, 1, 0x14, 0x15, 0x02}, &m)
	require.ErrorIs(t, err, serializer.ErrSchemaMismatch, "null value")

	var a []int32
	err = serializer.UnmarshalValue(f, []byte{1, 0xff, 0x2e, 3, 0, 0, 0}, &a)
	require.ErrorIs(t, err, serializer.ErrMalformed, "3 bytes of int32s")

	// Types that are not root values, and nil targets.
	_, err = f.Serialize(struct{ A int }{})
	require.ErrorIs(t, err, serializer.ErrNotGenerated)
	_, err = f.Serialize((*int64)(nil))
	require.ErrorIs(t, err, serializer.ErrNotGenerated)
	require.ErrorIs(t, f.Deserialize([]byte{1, 0xff, 7, 2}, i), serializer.ErrNotGenerated, "not a pointer")
	require.ErrorIs(t, f.Deserialize([]byte{1, 0xff, 7, 2}, (*int64)(nil)), serializer.ErrNotGenerated)
	require.ErrorIs(t, serializer.UnmarshalValue[int64](f, []byte{1, 0xff, 7, 2}, nil), serializer.ErrNotGenerated)
	require.ErrorIs(t, f.Deserialize([]byte{1, 0xff, 7, 2}, new([]uint)), serializer.ErrNotGenerated)
}

// Every prefix of every sample message is an error, never a panic.
func TestRootValueTruncated(t *testing.T) {
	f := serializer.New()
	for _, s := range rootSamples() {
		data := s.check(t, f, s.hex)
		for i := 0; i < len(data); i++ {
			err := s.decode(f, data[:i])
			require.Error(t, err, "%s cut at %d", s.name, i)
			var de *serializer.DecodeError
			require.ErrorAs(t, err, &de, "%s cut at %d", s.name, i)
			require.ErrorIs(t, err, serializer.ErrMalformed, "%s cut at %d", s.name, i)
		}
	}
}

// Every single-byte change of every sample message decodes or fails with
// a DecodeError; none panics.
func TestRootValueMutations(t *testing.T) {
	f := serializer.New()
	for _, s := range rootSamples() {
		data := s.check(t, f, s.hex)
		for i := range data {
			for _, x := range []byte{0x00, 0x01, 0x7f, 0x80, 0xfd, 0xff} {
				m := append([]byte(nil), data...)
				m[i] = x
				if err := s.decode(f, m); err != nil {
					var de *serializer.DecodeError
					require.ErrorAs(t, err, &de, "%s: byte %d = %02x", s.name, i, x)
				}
			}
		}
	}
}

// Declared lengths are checked against the input before anything is
// allocated: a short message claiming a huge array, list or map fails
// without allocating for it.
func TestRootValueHostileLengths(t *testing.T) {
	f := serializer.New()
	huge := []byte{0xff, 0xff, 0xff, 0xff, 0x0f}
	cases := []struct {
		name   string
		data   []byte
		decode func([]byte) error
	}{
		{"[]int64", append([]byte{1, 0xff, 0x2f}, huge...), func(d []byte) error { var v []int64; return serializer.UnmarshalValue(f, d, &v) }},
		{"[]byte", append([]byte{1, 0xff, 0x29}, huge...), func(d []byte) error { var v []byte; return serializer.UnmarshalValue(f, d, &v) }},
		{"[]string", append([]byte{1, 0xff, 0x16}, huge...), func(d []byte) error { var v []string; return serializer.UnmarshalValue(f, d, &v) }},
		{"map", append([]byte{1, 0xff, 0x18}, huge...), func(d []byte) error { var v map[string]string; return serializer.UnmarshalValue(f, d, &v) }},
		{"string", append([]byte{1, 0xff, 0x15}, huge...), func(d []byte) error { var v string; return serializer.UnmarshalValue(f, d, &v) }},
	}
	for _, c := range cases {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		err := c.decode(c.data)
		runtime.ReadMemStats(&after)
		require.ErrorIs(t, err, serializer.ErrMalformed, c.name)
		require.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(64<<10), c.name)
	}
	// A map of 4000 empty-string entries in 4 bytes each fits; the budget
	// is charged per map slot, so it stays bounded by the input.
	var b bytes.Buffer
	b.Write([]byte{1, 0xff, 0x18, 0xa0, 0x1f}) // 4000
	for left := 4000; left > 0; left -= min(left, 255) {
		b.Write([]byte{0x24, byte(min(left, 255))})
		for i := 0; i < min(left, 255); i++ {
			b.Write([]byte{0x02, 0x02})
		}
	}
	var m map[string]string
	require.NoError(t, serializer.UnmarshalValue(f, b.Bytes(), &m))
	require.Equal(t, map[string]string{"": ""}, m)
	tight := serializer.New(serializer.WithAllocLimit(1, 1))
	require.ErrorIs(t, serializer.UnmarshalValue(tight, b.Bytes(), &m), serializer.ErrLimit)
}

// Strings that are not UTF-8 are refused on write, anywhere in a root
// value, unless the check is off.
func TestRootValueInvalidUTF8(t *testing.T) {
	f := serializer.New()
	bad := "a\xffb"
	var ee *serializer.EncodeError
	_, err := serializer.MarshalValue(f, bad)
	require.ErrorIs(t, err, serializer.ErrInvalidValue)
	require.ErrorAs(t, err, &ee)
	_, err = serializer.MarshalValue(f, []string{"ok", bad})
	require.ErrorAs(t, err, &ee)
	require.Equal(t, "[1]", ee.Path)
	_, err = serializer.MarshalValue(f, map[string]int64{bad: 1})
	require.ErrorAs(t, err, &ee)
	require.Equal(t, "map[string]int64", ee.Type)
	require.Equal(t, "key", ee.Path)
	b := buffer.New(8)
	b.WriteUint8(7)
	_, err = f.Runtime().WriteRootPointer(b, &map[int32]string{1: bad})
	require.Error(t, err)
	require.Equal(t, []byte{7}, b.Bytes(), "nothing written on error")
	out, err := serializer.MarshalValueAppend(f, []byte{7}, map[int32]string{1: bad})
	require.Error(t, err)
	require.Equal(t, []byte{7}, out, "dst returned on error")

	off := serializer.New(serializer.WithUTF8Validation(false))
	data, err := serializer.MarshalValue(off, bad)
	require.NoError(t, err)
	var got string
	require.NoError(t, serializer.UnmarshalValue(off, data, &got))
	require.Equal(t, bad, got)
	require.ErrorIs(t, serializer.UnmarshalValue(f, data, &got), serializer.ErrMalformed)
}

// MarshalValueAppend into a reused slice does not allocate.
func TestMarshalValueAppendAllocs(t *testing.T) {
	f := serializer.New()
	b := make([]byte, 0, 1024)
	s := []int32{1, 2, 3}
	m := map[string]int64{"a": 1, "b": 2}
	strs := []string{"x", "y"}
	for name, fn := range map[string]func() error{
		"int64":    func() (err error) { b, err = serializer.MarshalValueAppend(f, b[:0], int64(1234567)); return err },
		"string":   func() (err error) { b, err = serializer.MarshalValueAppend(f, b[:0], "hello"); return err },
		"[]int32":  func() (err error) { b, err = serializer.MarshalValueAppend(f, b[:0], s); return err },
		"[]string": func() (err error) { b, err = serializer.MarshalValueAppend(f, b[:0], strs); return err },
		"map":      func() (err error) { b, err = serializer.MarshalValueAppend(f, b[:0], m); return err },
	} {
		allocs := testing.AllocsPerRun(100, func() {
			if err := fn(); err != nil {
				t.Fatal(err)
			}
		})
		require.Zero(t, allocs, name)
	}
}

// A stream of root values: the Encoder and Decoder take them too.
func TestRootValueStream(t *testing.T) {
	f := serializer.New()
	var w bytes.Buffer
	enc := serializer.NewEncoder(f, &w)
	require.NoError(t, enc.Encode(int64(-3)))
	require.NoError(t, enc.Encode([]string{"a"}))
	dec := serializer.NewDecoder(f, &w)
	var i int64
	require.NoError(t, dec.Decode(&i))
	require.Equal(t, int64(-3), i)
	var ss []string
	require.NoError(t, dec.Decode(&ss))
	require.Equal(t, []string{"a"}, ss)
	err := dec.Decode(&ss)
	require.True(t, errors.Is(err, io.EOF), "%v", err)
}

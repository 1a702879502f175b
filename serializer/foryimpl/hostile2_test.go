package foryimpl

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/forygen/forygen/buffer"
	"github.com/forygen/forygen/internal/meta"
)

// utf16String is a string header for n UTF-16LE code units and their bytes.
func utf16String(units ...uint16) []byte {
	b := buffer.New(16)
	b.WriteVarUint64(uint64(2*len(units))<<2 | meta.StringUTF16LE)
	for _, u := range units {
		b.WriteUint16(u)
	}
	return b.Bytes()
}

// Valid UTF-16 holding U+FFFD decodes; only unpaired surrogates are invalid
// (issue 17 item 3: the check compared decoded runes with utf8.RuneError).
func TestUTF16Validation(t *testing.T) {
	for _, tc := range []struct {
		name  string
		units []uint16
		want  string
	}{
		{"replacement character", []uint16{0xfffd, 'a'}, "\ufffda"},
		{"surrogate pair", []uint16{0xd83d, 0xde00}, "😀"},
		{"plain", []uint16{'h', 'i'}, "hi"},
	} {
		c := newReadContext(utf16String(tc.units...))
		require.Equal(t, tc.want, c.ReadString(), tc.name)
		require.NoError(t, c.r.Err(), tc.name)
	}
	for _, tc := range []struct {
		name  string
		units []uint16
	}{
		{"lone high", []uint16{0xd83d, 'a'}}, {"lone low", []uint16{0xde00}}, {"high at end", []uint16{'a', 0xd83d}},
		{"two highs", []uint16{0xd83d, 0xd83d, 0xde00}},
	} {
		c := newReadContext(utf16String(tc.units...))
		c.ReadString()
		require.Error(t, c.r.Err(), tc.name)
		_, err := classify(c.r.Err())
		require.ErrorIs(t, err, ErrMalformed, tc.name)
	}
}

// A string header claiming 2^32+3 bytes is refused as longer than the input,
// on the read and the skip path, on 32- and 64-bit platforms alike (issue 17
// item 4: int(h>>2) read it as 3 bytes on GOARCH=386).
func TestHugeStringLength(t *testing.T) {
	b := buffer.New(16)
	b.WriteVarUint64((1<<32+3)<<2 | meta.StringUTF8)
	b.WriteBytes([]byte("abcdef"))
	c := newReadContext(b.Bytes())
	require.Equal(t, "", c.ReadString())
	_, err := classify(c.r.Err())
	require.ErrorIs(t, err, ErrMalformed)
	assert.Contains(t, err.Error(), "4294967299 bytes exceeds")

	c = newReadContext(b.Bytes())
	c.skipValue(&meta.FieldType{TypeID: 21}, 0)
	_, err = classify(c.r.Err())
	require.ErrorIs(t, err, ErrMalformed)
	assert.Contains(t, err.Error(), "4294967299 bytes exceeds")

	// typeDefLen sees a size varint of 2^32-1 as longer than the input.
	in := []byte{0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0x0f, 1, 2}
	in[0] = 0xff // body size escape in the low byte
	require.Equal(t, -1, typeDefLen(in))
}

// A received TypeDef over the limits is ErrLimit, as errors.go documents
// (issue 17 item 6: it was ErrMalformed).
func TestTypeDefLimitIsErrLimit(t *testing.T) {
	var fields []remoteField
	for i := 0; i < 6; i++ {
		fields = append(fields, remoteField{meta.FieldDef{Name: "f" + itoa(i), TagID: -1, Type: meta.FieldType{TypeID: 4}},
			func(b *buffer.Buffer) { b.WriteInt32(1) }})
	}
	data := probeMessage(fields)
	f := newRuntime(func(c *Config) { c.MaxTypeDefFields = 3 })
	err := f.deserializeRoot(data, new(probe))
	require.ErrorIs(t, err, ErrLimit)
	require.False(t, errors.Is(err, ErrMalformed))
	f = newRuntime(func(c *Config) { c.MaxTypeDefBytes = 8 })
	err = f.deserializeRoot(data, new(probe))
	require.ErrorIs(t, err, ErrLimit)
	require.NoError(t, newRuntime().deserializeRoot(data, new(probe)))
}

// bomb is a compatible message whose writer's schema has an unknown field
// list<list<struct>> whose struct TypeDef has no fields: each inner list
// takes a few bytes and claims n2 elements that take none (issue 17 item 1:
// the skip path then spent time quadratic in the input).
// Inner list i claims as many elements as the bytes after it can hold
// (4 per later inner list), so n1 inner lists claim about 2·n1² elements.
func bomb(n1 int) []byte {
	empty := meta.EncodeTypeDef(&meta.TypeDef{Kind: meta.TypeCompatibleStruct, Compatible: true, UserID: 999})
	ft := meta.FieldType{TypeID: 22, Children: []meta.FieldType{{TypeID: 22, Children: []meta.FieldType{{TypeID: meta.TypeCompatibleStruct}}}}}
	return probeMessage([]remoteField{{meta.FieldDef{Name: "zz", TagID: -1, Type: ft}, func(b *buffer.Buffer) {
		b.WriteVarUint32(uint32(n1))
		b.WriteUint8(meta.ListSameType | meta.ListDeclared)
		for i := 0; i < n1; i++ {
			n2 := 4 * (n1 - i - 1)
			b.WriteVarUint32(uint32(n2))
			if n2 == 0 {
				continue // an empty list has no elements header
			}
			b.WriteUint8(meta.ListSameType)
			b.WriteUint8(meta.TypeCompatibleStruct)
			if i == 0 {
				b.WriteVarUint32(1 << 1) // new shared TypeDef, entry 1
				b.WriteBytes(empty)
			} else {
				b.WriteVarUint32(1<<1 | 1) // a reference to entry 1
			}
		}
	}}})
}

// The element budget bounds the elements a message declares by its length
// plus the unbacked allowance, so the bomb fails with ErrLimit at once,
// while the same shape within the budget is skipped.
func TestUnbackedElementBomb(t *testing.T) {
	data := bomb(1000) // about 5 KB claiming two million elements
	err := newRuntime().deserializeRoot(data, new(probe))
	require.ErrorIs(t, err, ErrLimit)
	require.Contains(t, err.Error(), "WithMaxUnbackedElements")

	require.NoError(t, newRuntime().deserializeRoot(bomb(40), new(probe))) // 3,120 elements
	// A larger allowance admits more.
	f := newRuntime(func(c *Config) { c.MaxUnbackedElements = 2_000_000 })
	require.NoError(t, f.deserializeRoot(data, new(probe)))
}

// Charges are what the allocator gives, not what is asked for (issue 17
// item 2: a 56-byte struct takes a 64-byte slot, so charging 56 let a
// decode reach 72 bytes per input byte).
func TestAllocChargesSizeClasses(t *testing.T) {
	for n, want := range map[uint64]uint64{0: 0, 1: 8, 8: 8, 9: 16, 33: 48, 56: 64, 1025: 1152, 32768: 32768, 32769: 40960, 1 << 20: 1 << 20} {
		require.Equal(t, want, allocSize(n), "allocSize(%d)", n)
	}
	// The lookup tables agree with a search of the classes at every size.
	for n := uint64(1); n <= 32768; n++ {
		want := uint64(0)
		for _, c := range sizeClasses {
			if uint64(c) >= n {
				want = uint64(c)
				break
			}
		}
		if got := allocSize(n); got != want {
			t.Fatalf("allocSize(%d) = %d, want %d", n, got, want)
		}
	}
	c := newReadContext(make([]byte, 100))
	before := c.budget
	Alloc[[56]byte](c)
	require.Equal(t, uint64(64), before-c.budget)
	before = c.budget
	MakeSlice[[][7]byte](c, 5) // 35 bytes: the 48-byte class
	require.Equal(t, uint64(48), before-c.budget)
}

package foryimpl

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/forygen/forygen/buffer"
	"github.com/forygen/forygen/internal/meta"
)

// skipTracked skips one value of type ft (after its flag when flagged) from
// the bytes body writes, in a compatible-mode message read with reference
// tracking whose root is object 0 and TypeDef #0; it returns the context
// (still holding its reference table) and whether the bytes were used up.
func skipTracked(t *testing.T, track bool, ft meta.FieldType, flagged bool, body func(b *buffer.Buffer)) (*ReadContext, error) {
	t.Helper()
	b := buffer.New(64)
	body(b)
	f := testRuntime(true, track)
	c := f.beginFragment(append([]byte(nil), b.Bytes()...))
	c.defs = append(c.defs, &remoteDef{def: &meta.TypeDef{Kind: meta.TypeCompatibleStruct}})
	if track {
		c.addRefs(refEntry{v: rootKey})
	}
	ev := &EvolvedField{Local: -1, Flag: flagged, def: &meta.FieldDef{Name: "zz", TagID: -1, Nullable: flagged, Type: ft}}
	c.SkipField(ev)
	if c.r.Err() == nil && c.r.Remaining() != 0 {
		c.r.Fail(malformed("%d bytes left", c.r.Remaining()))
	}
	return c, c.r.Err()
}

// Skipping with reference tracking: a skipped value's 00 takes the next
// reference id, fe and an id is consumed, and lists and map chunks with
// tracking bits put a reference flag before each element or value.
func TestSkipTrackedValues(t *testing.T) {
	anyField := meta.FieldType{TypeID: meta.TypeUnknown}
	cases := []struct {
		name    string
		ft      meta.FieldType
		flagged bool
		body    func(b *buffer.Buffer)
		refs    int // objects after the skip, the root included
	}{
		{"any struct, new object", anyField, false, func(b *buffer.Buffer) {
			b.WriteUint8(meta.FlagRefValue)
			innerNew(b)
		}, 2},
		{"any back-reference to the root", anyField, false, raw(meta.FlagRef, 0), 1},
		{"any string in a tracked message", anyField, false, raw(FlagNotNull, 21, 0x06, 'x'), 1},
		{"nullable tracked struct field", meta.FieldType{TypeID: meta.TypeCompatibleStruct}, true, func(b *buffer.Buffer) {
			b.WriteUint8(meta.FlagRefValue)
			innerNew(b)
		}, 2},
		{"list of tracked struct pointers (09)", list(meta.TypeCompatibleStruct), false, func(b *buffer.Buffer) {
			b.WriteUint8(3)
			b.WriteUint8(meta.ListTrackRef | meta.ListSameType)
			b.WriteUint8(meta.TypeCompatibleStruct)
			b.WriteUint8(0x02)
			b.WriteBytes(innerTypeDef)
			b.WriteUint8(meta.FlagRefValue) // object 1
			innerBody(b)
			b.WriteBytes([]byte{meta.FlagRef, 1}) // the same again
			b.WriteUint8(FlagNull)
		}, 2},
		{"list of any, different types, tracked (03)", list(meta.TypeUnknown), false, func(b *buffer.Buffer) {
			b.WriteUint8(3)
			b.WriteUint8(meta.ListTrackRef | meta.ListHasNull)
			b.WriteBytes([]byte{meta.FlagRefValue, 46, 4, 1, 0, 0, 0}) // object 1: an INT32_ARRAY
			b.WriteBytes([]byte{FlagNotNull, 5, 2})
			b.WriteBytes([]byte{meta.FlagRef, 1})
		}, 2},
		{"map with tracked struct values (0c)", mapOf(21, meta.TypeCompatibleStruct), false, func(b *buffer.Buffer) {
			b.WriteUint8(3)
			b.WriteUint8(meta.MapKeyDeclared | meta.MapValueTrackRef)
			b.WriteUint8(2)
			b.WriteUint8(meta.TypeCompatibleStruct)
			b.WriteUint8(0x02)
			b.WriteBytes(innerTypeDef)
			WriteString(b, "a")
			b.WriteUint8(meta.FlagRefValue) // object 1
			innerBody(b)
			WriteString(b, "b")
			b.WriteBytes([]byte{meta.FlagRef, 1})
			// A null-value chunk with a tracked key: its flag, then the key.
			b.WriteUint8(meta.MapKeyDeclared | meta.MapValueHasNull | meta.MapKeyTrackRef)
			b.WriteUint8(FlagNotNull)
			WriteString(b, "c")
		}, 2},
		{"null-key chunk with a tracked value: flag before the type meta", mapOf(21, meta.TypeUnknown), false, func(b *buffer.Buffer) {
			b.WriteUint8(2)
			b.WriteUint8(meta.MapKeyHasNull | meta.MapValueTrackRef)
			b.WriteUint8(meta.FlagRefValue) // object 1, then its type meta and body
			innerNew(b)
			b.WriteUint8(meta.MapKeyHasNull | meta.MapValueTrackRef)
			b.WriteBytes([]byte{meta.FlagRef, 1}) // nothing else
		}, 2},
		{"union case, tracked struct", meta.FieldType{TypeID: meta.TypeUnion}, false, func(b *buffer.Buffer) {
			b.WriteUint8(1)
			b.WriteUint8(meta.FlagRefValue)
			innerNew(b)
		}, 2},
	}
	for _, tc := range cases {
		c, err := skipTracked(t, true, tc.ft, tc.flagged, tc.body)
		require.NoError(t, err, tc.name)
		require.Equal(t, tc.refs, c.refs.len(), tc.name)
		// Truncated anywhere, it fails cleanly.
		b := buffer.New(64)
		tc.body(b)
		full := b.Bytes()
		for i := range full {
			_, err := skipTracked(t, true, tc.ft, tc.flagged, raw(full[:i]...))
			require.Error(t, err, "%s prefix %d", tc.name, i)
		}
	}
	// A back-reference to an object not read yet is malformed.
	_, err := skipTracked(t, true, anyField, false, raw(meta.FlagRef, 5))
	require.ErrorIs(t, err, ErrMalformed)
	// Without tracking, the same flags are refused, and a tracked list of
	// ff-flagged elements is read.
	_, err = skipTracked(t, false, anyField, false, raw(meta.FlagRef, 0))
	require.ErrorIs(t, err, ErrUnsupported)
	_, err = skipTracked(t, false, list(5), false, raw(2, meta.ListTrackRef|meta.ListSameType|meta.ListDeclared, FlagNotNull, 2, FlagNull))
	require.NoError(t, err)
}

// ReadOptionalFlag (a tracked enum in an Optional): ff and 00 say the value
// follows, fd that it is unset; a back-reference is refused.
func TestReadOptionalFlag(t *testing.T) {
	f := testRuntime(false, true)
	c := f.beginFragment([]byte{0xff, 0x00, 0xfd})
	require.True(t, c.ReadOptionalFlag())
	require.True(t, c.ReadOptionalFlag())
	require.False(t, c.ReadOptionalFlag())
	require.NoError(t, c.r.Err())
	c = f.beginFragment([]byte{0x00, 0xfe, 0x00})
	require.True(t, c.ReadOptionalFlag())
	require.False(t, c.ReadOptionalFlag())
	require.ErrorIs(t, c.r.Err(), ErrMalformed)
}

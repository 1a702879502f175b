package agree

import (
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/forygen/forygen/internal/conformance/agree/v2"
	"github.com/forygen/forygen/serializer"
)

// Chunk header bits (docs/format.md §8.4).
const (
	keyTrackRef = 0x01
	keyHasNull  = 0x02
	keyDeclared = 0x04
	valTrackRef = 0x08
	valHasNull  = 0x10
	valDeclared = 0x20
)

// Type ids and strings as they appear on the wire.
const (
	idVarInt32    = 0x05
	idString      = 0x15
	idStruct      = 0x1b
	idCompatible  = 0x1c
	strK          = "066b" // "k"
	leafUserIDVar = "b602" // varu32(310)
)

func u32(v int32) string { return hex.EncodeToString(binary.LittleEndian.AppendUint32(nil, uint32(v))) }

func hx(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	require.NoError(t, err)
	return b
}

// mapMessage builds a MapKinds message whose three maps are written with
// the given chunk headers, by hand from the spec: S = {"k": 7},
// L = {"k": Leaf{9}} and P = {"k": &Leaf{9}}. valueMeta is the type info of an
// undeclared struct value, and leafBody a Leaf body; in compatible mode the
// root's TypeDef is shared entry 0.
func mapMessage(t *testing.T, compatible bool, hs, hl, hp byte, valueMeta, leafBody string) []byte {
	t.Helper()
	root := (&MapKinds{}).ForyType()
	msg := hex.EncodeToString(root.RootConsistent) + u32(root.SchemaHash)
	if compatible {
		msg = hex.EncodeToString(root.RootCompatible)
	}
	chunk := func(h byte, keyInfo, valInfo, value string) string {
		s := "01" + fmt.Sprintf("%02x01", h) // one entry, one chunk of one
		if h&keyDeclared == 0 {
			s += keyInfo
		}
		if h&valDeclared == 0 {
			s += valInfo
		}
		return s + strK + value
	}
	msg += chunk(hs, fmt.Sprintf("%02x", idString), fmt.Sprintf("%02x", idVarInt32), "0e")
	msg += chunk(hl, fmt.Sprintf("%02x", idString), valueMeta, leafBody)
	// In compatible mode the second undeclared struct value refers to the
	// TypeDef the first one sent (shared entry 1: 03), unless L declared it.
	pMeta := valueMeta
	if compatible && hl&valDeclared == 0 && len(valueMeta) > 4 {
		pMeta = valueMeta[:2] + "03"
	}
	msg += chunk(hp, fmt.Sprintf("%02x", idString), pMeta, leafBody)
	return hx(t, msg)
}

var want = MapKinds{S: map[string]int32{"k": 7}, L: map[string]Leaf{"k": {V: 9}}, P: map[string]*Leaf{"k": {V: 9}}}

// TestMapChunkHeaders reads every non-null chunk header a writer may choose
// (key and value declared or not, issue 12 item 5) in both modes: Java,
// Python and JavaScript leave struct value types undeclared and write their
// type info after the chunk size.
func TestMapChunkHeaders(t *testing.T) {
	leaf := (&Leaf{}).ForyType()
	for _, compatible := range []bool{false, true} {
		f := serializer.New(serializer.WithCompatible(compatible))
		valueMeta := fmt.Sprintf("%02x", idStruct) + leafUserIDVar
		body := u32(leaf.SchemaHash) + "12"
		if compatible {
			// A new shared TypeDef, entry 1 (the root is entry 0): 02.
			valueMeta = fmt.Sprintf("%02x", idCompatible) + "02" + hex.EncodeToString(leaf.TypeDef)
			body = "12"
		}
		for _, h := range []byte{keyDeclared | valDeclared, keyDeclared, valDeclared, 0} {
			data := mapMessage(t, compatible, h, h, h, valueMeta, body)
			var got MapKinds
			require.NoError(t, f.Deserialize(data, &got), "compatible=%v header %02x: % x", compatible, h, data)
			require.Equal(t, want, got, "compatible=%v header %02x", compatible, h)
		}
	}
	// Our own writer declares both (24), as official Go does.
	data, err := serializer.New(serializer.WithCompatible(false)).Serialize(&want)
	require.NoError(t, err)
	leafBody := u32(leaf.SchemaHash) + "12"
	require.Equal(t, mapMessage(t, false, 0x24, 0x24, 0x24, "", leafBody), data)
}

// TestMapChunkEvolvedValues: struct values whose undeclared type info is a
// peer's newer TypeDef (v2.Leaf: V and a new W) are read by field matching,
// not as Leaf bodies; before, forygen read one type-id byte and decoded a
// wrong value without error.
func TestMapChunkEvolvedValues(t *testing.T) {
	newer := (&v2.Leaf{}).ForyType()
	meta := fmt.Sprintf("%02x", idCompatible) + "02" + hex.EncodeToString(newer.TypeDef)
	// v2 body in its field order: V (varint 9 → 12), W "k".
	data := mapMessage(t, true, keyDeclared|valDeclared, keyDeclared, keyDeclared, meta, "12"+strK)
	var got MapKinds
	require.NoError(t, serializer.New().Deserialize(data, &got), "% x", data)
	require.Equal(t, want, got)
}

// TestMapChunkNullAndRefs: null-value entries with the key declared (14) or
// not (10: the key's type info comes first) read as nil pointers; a null
// value for a Go value that cannot be nil, a null key and reference-tracked
// entries are refused.
func TestMapChunkNullAndRefs(t *testing.T) {
	f := serializer.New(serializer.WithCompatible(false))
	root := (&MapKinds{}).ForyType()
	prefix := hex.EncodeToString(root.RootConsistent) + u32(root.SchemaHash)
	for _, tc := range []struct {
		name, maps string
		err        error
	}{
		{"null value, key declared", "00" + "00" + "01" + "14" + strK, nil},
		{"null value, key undeclared", "00" + "00" + "01" + "10" + "15" + strK, nil},
		{"null int32 value", "01" + "14" + strK + "00" + "00", serializer.ErrSchemaMismatch},
		{"null struct value", "00" + "01" + "14" + strK + "00", serializer.ErrSchemaMismatch},
		{"null key", "01" + "22" + "0e" + "00" + "00", serializer.ErrSchemaMismatch}, // valid Fory, not a Go string key
		{"both null", "01" + "12" + "00" + "00", serializer.ErrSchemaMismatch},
		{"tracked value", "01" + fmt.Sprintf("%02x01", keyDeclared|valDeclared|valTrackRef) + strK + "ff0e" + "00" + "00", serializer.ErrUnsupported},
		{"tracked key", "01" + fmt.Sprintf("%02x01", keyDeclared|valDeclared|keyTrackRef) + "ff" + strK + "0e" + "00" + "00", serializer.ErrUnsupported},
		{"reserved bits", "01" + "6401" + strK + "0e" + "00" + "00", serializer.ErrMalformed},
	} {
		var got MapKinds
		err := f.Deserialize(hx(t, prefix+tc.maps), &got)
		if tc.err == nil {
			require.NoError(t, err, tc.name)
			v, ok := got.P["k"]
			require.True(t, ok, tc.name)
			require.Nil(t, v, tc.name)
			continue
		}
		require.ErrorIs(t, err, tc.err, tc.name)
		var de *serializer.DecodeError
		require.True(t, errors.As(err, &de), tc.name)
	}
}

// TestMapChunkSkipped: a reader without the struct map fields skips them
// whatever the chunk headers, using the TypeDef of undeclared values.
func TestMapChunkSkipped(t *testing.T) {
	leaf := (&Leaf{}).ForyType()
	meta := fmt.Sprintf("%02x", idCompatible) + "02" + hex.EncodeToString(leaf.TypeDef)
	for _, h := range []byte{keyDeclared, 0} {
		data := mapMessage(t, true, h, h, h, meta, "12")
		var got v2.MapKinds
		require.NoError(t, serializer.New().Deserialize(data, &got), "header %02x: % x", h, data)
		require.Equal(t, map[string]int32{"k": 7}, got.S)
	}
}

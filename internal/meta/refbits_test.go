package meta

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// refBitsPair encodes a struct TypeDef of n fields twice, without and
// with track_ref on every third field and on the element of every list
// field, and returns both and the offsets where the bodies differ.
func refBitsPair(n int) (plain, tracked []byte, at []uint16) {
	build := func(track bool) *TypeDef {
		td := &TypeDef{Kind: TypeCompatibleStruct, UserID: 7, Compatible: true}
		for i := range n {
			f := FieldDef{Name: fmt.Sprintf("field_%d", i), TagID: -1, Nullable: true, Type: FieldType{TypeID: TypeInt32Array}}
			if i%2 == 1 {
				f.Type = FieldType{TypeID: TypeList, Children: []FieldType{{TypeID: TypeStruct, Nullable: true, TrackRef: track}}}
			}
			f.TrackRef = track && i%3 == 0
			td.Fields = append(td.Fields, f)
		}
		return td
	}
	plain, tracked = EncodeTypeDef(build(false)), EncodeTypeDef(build(true))
	for i := TypeDefBodyStart(plain); i < len(plain); i++ {
		if plain[i] != tracked[i] {
			at = append(at, uint16(i))
		}
	}
	return plain, tracked, at
}

// TestWithRefBits: setting the differing bytes' bit 0 and recomputing the
// header gives the tracking TypeDef, for a short body and for one of more
// than 255 bytes (whose size takes a varint after the header); an offset
// outside the body panics.
func TestWithRefBits(t *testing.T) {
	for _, n := range []int{3, 40} {
		plain, tracked, at := refBitsPair(n)
		require.Len(t, tracked, len(plain))
		require.NotEmpty(t, at, "tracking changes %d fields", n)
		for _, i := range at {
			require.Equal(t, plain[i]|1, tracked[i], "offset %d: only bit 0 differs", i)
		}
		got := WithRefBits(plain, at)
		require.Equal(t, tracked, got, "%d fields (body %d bytes)", n, len(plain)-TypeDefBodyStart(plain))
		require.NotEqual(t, plain[:8], got[:8], "the header's hash is recomputed")
		_, used, err := ParseTypeDef(got, DefaultLimits)
		require.NoError(t, err)
		require.Equal(t, len(got), used)
		require.Panics(t, func() { WithRefBits(plain, []uint16{3}) }, "an offset in the header")
		require.Panics(t, func() { WithRefBits(plain, []uint16{uint16(len(plain))}) }, "an offset past the end")
	}
	require.Greater(t, func() int { p, _, _ := refBitsPair(40); return len(p) - TypeDefBodyStart(p) }(), 255)
	require.Panics(t, func() { WithRefBits([]byte{1, 2, 3}, nil) }, "no header")
}

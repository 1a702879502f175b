package plan

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/forygen/forygen/internal/meta"
)

// TestRefBits: the offsets are found when track_ref bits are the whole
// difference, and refused (nil, so both TypeDefs are declared) when any
// other bit or the length differs.
func TestRefBits(t *testing.T) {
	td := func(track bool) []byte {
		return meta.EncodeTypeDef(&meta.TypeDef{Kind: meta.TypeCompatibleStruct, UserID: 3, Compatible: true, Fields: []meta.FieldDef{
			{Name: "a", TagID: -1, Type: meta.FieldType{TypeID: meta.TypeInt32}},
			{Name: "b", TagID: -1, Nullable: true, TrackRef: track, Type: meta.FieldType{TypeID: meta.TypeStruct}},
		}})
	}
	plain, tracked := td(false), td(true)
	at := RefBits(plain, tracked)
	require.Len(t, at, 1)
	require.Equal(t, tracked, meta.WithRefBits(plain, at))

	other := append([]byte(nil), tracked...)
	other[at[0]] ^= 2 // another bit of the same byte
	require.Nil(t, RefBits(plain, other), "a difference that is not a track_ref bit")
	require.Nil(t, RefBits(plain, append(tracked, 0)), "another length")
	stale := append([]byte(nil), tracked...)
	stale[1] ^= 1 // a header that is not the body's
	require.Nil(t, RefBits(plain, stale), "a header WithRefBits would not compute")
}

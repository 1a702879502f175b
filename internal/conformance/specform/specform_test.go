package specform

import (
	"encoding/hex"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/forygen/forygen/internal/meta"
)

// An untagged any field's bit is set and the TypeDef's hash follows; a
// TypeDef that already declares its any fields nullable is unchanged.
func TestAnyNullable(t *testing.T) {
	td := &meta.TypeDef{Compatible: true, UserID: 7, Kind: 28, Fields: []meta.FieldDef{
		{Name: "a", TagID: -1, Type: meta.FieldType{TypeID: 0}},
		{Name: "b", TagID: -1, Type: meta.FieldType{TypeID: 5}},
	}}
	official := append([]byte{0x01, 0xff, 0x1c, 0x00}, meta.EncodeTypeDef(td)...)
	official = append(official, 0xff, 0x05, 0x02, 0x04)
	got, err := AnyNullable(official)
	require.NoError(t, err)
	td.Fields[0].Nullable = true
	want := append([]byte{0x01, 0xff, 0x1c, 0x00}, meta.EncodeTypeDef(td)...)
	want = append(want, 0xff, 0x05, 0x02, 0x04)
	require.Equal(t, hex.EncodeToString(want), hex.EncodeToString(got))
	require.NotEqual(t, official, got)
	again, err := AnyNullable(got)
	require.NoError(t, err)
	require.Equal(t, got, again)
	_, err = AnyNullable([]byte{0x01, 0xff, 0x1b, 0x00})
	require.Error(t, err)
	_, err = AnyNullable(official[:10])
	require.Error(t, err)
}

package agree

import (
	"encoding/hex"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/forygen/forygen/serializer"
)

var consistent = serializer.New(serializer.WithCompatible(false))

// A pointer to a primitive tagged nullable: official Go, Python, JS and
// Java fingerprint it nullable=1 (issue 12 item 4). These are official Go's
// bytes for OptInt{OptI: 7}.
func TestNullablePointerBytes(t *testing.T) {
	seven := int32(7)
	data, err := consistent.Serialize(&OptInt{OptI: &seven})
	require.NoError(t, err)
	require.Equal(t, "01ff1bac0287a21172ff0e", hex.EncodeToString(data))
	var back OptInt
	require.NoError(t, consistent.Deserialize(data, &back))
	require.Equal(t, int32(7), *back.OptI)
}

// A nil slice or map as a map value is a null entry, chunk header 14 and
// the key (issue 12 item 3), as official Go writes it, and decodes as nil
// under its key; a non-nil empty one stays an empty value (header 24).
func TestNilMapValues(t *testing.T) {
	in := NilValues{A: map[int32][]int32{0: nil}, B: map[string][]string{"k": nil}, C: map[string]map[int32]string{"m": nil}}
	data, err := consistent.Serialize(&in)
	require.NoError(t, err)
	// header, flag, STRUCT 301, schema hash, then the three maps:
	// count 1, null-value chunk 14, key (int32 0 as varint; "k", "m" as strings).
	require.Equal(t, "01"+"14"+"00"+"01"+"14"+"066b"+"01"+"14"+"066d", hex.EncodeToString(data[9:]))
	var back NilValues
	require.NoError(t, consistent.Deserialize(data, &back))
	require.Equal(t, in, back)
	v, ok := back.A[0]
	require.True(t, ok)
	require.Nil(t, v)

	empty := NilValues{A: map[int32][]int32{0: {}}}
	data, err = consistent.Serialize(&empty)
	require.NoError(t, err)
	require.Equal(t, "01"+"2401"+"00"+"00"+"00"+"00", hex.EncodeToString(data[9:]))
	back = NilValues{}
	require.NoError(t, consistent.Deserialize(data, &back))
	require.NotNil(t, back.A[0])
}

// In same-schema mode official Go deduplicates meta strings per Go type, so
// a named struct's names, written in full for []Pt, are written in full
// again for []*Pt and referenced by a later []Pt (issue 12 item 2).
func TestPointerListMetaStrings(t *testing.T) {
	in := PtLists{A: []Pt{{X: 1}}, B: []*Pt{{X: 2}}, C: []Pt{{X: 3}}}
	data, err := consistent.Serialize(&in)
	require.NoError(t, err)
	meta := hex.EncodeToString((&Pt{}).ForyType().ConsistentMeta)
	got := hex.EncodeToString(data)
	require.Equal(t, 2, strings.Count(got, meta), "Pt's names in full, for []Pt and for []*Pt: %s", got)
	// C refers back to A's names: namespace id 0 and type name id 1, header
	// ((id+1) << 1) | 1.
	require.Contains(t, got, "1d"+"03"+"05")
	var back PtLists
	require.NoError(t, consistent.Deserialize(data, &back))
	require.Equal(t, in, back)
}

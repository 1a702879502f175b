package plan

import (
	"encoding/binary"
	"encoding/hex"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/forygen/forygen/gen/internal/model"

	"github.com/forygen/forygen/internal/meta"
)

// hashBytes is the same-schema hash as written on the wire.
func hashBytes(p *Struct) string {
	return hex.EncodeToString(binary.LittleEndian.AppendUint32(nil, uint32(p.SchemaHash)))
}

// A pointer to a primitive tagged nullable fingerprints nullable=1, as
// official Go, Python, JS and Java do: struct id 300 with
// `OptI *int32 fory:"id=1,nullable"` holding 7 is 01ff1bac02 87a21172 ff0e
// from official Go.
func TestNullablePointerToPrimitive(t *testing.T) {
	p, errs := PlanStruct(mkStruct(t, "T", model.Registration{ID: 300},
		fieldSpec{"OptI", ptr(prim(model.Int32)), "id=1,nullable"}))
	require.Empty(t, errs)
	assert.Equal(t, "1,5,0,1;", p.Fingerprint)
	assert.Equal(t, "87a21172", hashBytes(p))
	assert.Equal(t, "01ff1bac02", hex.EncodeToString(p.RootConsistent))
}

// int and uint tagged varint or fixed are declared 32-bit, as official Go
// declares them (issue 12 item 1); untagged they stay 64-bit varints.
func TestIntEncodings(t *testing.T) {
	for _, tc := range []struct {
		kind     model.Kind
		encoding string
		id       uint8
		width    int
	}{
		{model.Int, "", meta.TypeVarInt64, 9}, {model.Int, "varint", meta.TypeVarInt32, 5}, {model.Int, "fixed", meta.TypeInt32, 4},
		{model.Uint, "", meta.TypeVarUint64, 9}, {model.Uint, "varint", meta.TypeVarUint32, 5}, {model.Uint, "fixed", meta.TypeUint32, 4},
		{model.Int64, "varint", meta.TypeVarInt64, 9}, {model.Uint64, "varint", meta.TypeVarUint64, 9},
	} {
		id, width, err := scalarWire(tc.kind, tc.encoding)
		require.NoError(t, err, "%v %q", tc.kind, tc.encoding)
		assert.Equal(t, tc.id, id, "%v %q", tc.kind, tc.encoding)
		assert.Equal(t, tc.width, width, "%v %q", tc.kind, tc.encoding)
	}
}

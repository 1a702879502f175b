package plan

import (
	"encoding/binary"
	"encoding/hex"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/forygen/forygen/gen/internal/model"
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

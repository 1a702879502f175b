package benchmarks

import (
	"bytes"
	"testing"

	"github.com/forygen/forygen/benchmarks/internal/codecs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestReuseCells holds what the reuse cells (BenchmarkDeserialize) and the
// fresh cells (BenchmarkDeserializeFresh) stand for: decoding into a reused
// target, forygen, msgp and vtprotobuf (ResetVT, pool feature) keep their
// slices and allocate only strings, so they allocate the same number of
// times; into a new value every codec allocates more than that, or as much
// where there is nothing but strings to allocate. msgp's tuple form allocates
// as its map form does. On SmallMessage vtprotobuf allocates one more: its
// google.protobuf.Timestamp, which ResetVT drops (the well-known type is not
// pooled) and UnmarshalVT allocates again.
func TestReuseCells(t *testing.T) {
	allocs := func(decode func([]byte) error, data []byte) float64 {
		require.NoError(t, decode(data))
		return testing.AllocsPerRun(100, func() {
			if err := decode(data); err != nil {
				t.Fatal(err)
			}
		})
	}
	for _, f := range codecs.Fixtures() {
		reuse := map[string]float64{}
		for _, name := range codecs.Names {
			c, err := f.New(name)
			require.NoError(t, err)
			data, err := c.Marshal()
			require.NoError(t, err)
			data = bytes.Clone(data)
			reuse[name] = allocs(c.Unmarshal, data)
			fresh := allocs(c.UnmarshalFresh, data)
			assert.GreaterOrEqual(t, fresh, reuse[name]+1, "%s/%s: a new value allocates at least itself", f.Name, name)
		}
		assert.Equal(t, reuse[codecs.Msgp], reuse[codecs.Forygen], "%s: forygen and msgp reuse", f.Name)
		assert.Equal(t, reuse[codecs.Msgp], reuse[codecs.MsgpTuple], "%s: msgp's map and tuple forms reuse", f.Name)
		vtExtra := 0.0
		if f.Name == "SmallMessage" {
			vtExtra = 1 // the Timestamp
		}
		assert.Equal(t, reuse[codecs.Msgp]+vtExtra, reuse[codecs.VTProtobuf], "%s: vtprotobuf (ResetVT) and msgp reuse", f.Name)
		t.Logf("%s: reuse allocs/op %v", f.Name, reuse)
	}
}

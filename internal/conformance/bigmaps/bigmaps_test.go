package bigmaps

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/forygen/forygen/serializer"
)

// Maps of 300 entries come in chunks of 255 and 45: the golden files decode
// to the manifest's value in both modes, and our own bytes (whose entry
// order is Go's map order) decode to it too.
func TestBigMapsGolden(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "xlang-fixtures-2")
	raw, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	require.NoError(t, err)
	var m struct {
		Cases []struct {
			Name  string          `json:"name"`
			Value json.RawMessage `json:"value"`
		} `json:"cases"`
	}
	require.NoError(t, json.Unmarshal(raw, &m))
	var want BigMaps
	for _, c := range m.Cases {
		if c.Name == "big_maps_struct_fields" {
			require.NoError(t, json.Unmarshal(c.Value, &want))
		}
	}
	require.Len(t, want.I32ToI32, 300)
	for _, mode := range []struct {
		dir        string
		compatible bool
	}{{"schema-consistent", false}, {"compatible", true}} {
		data, err := os.ReadFile(filepath.Join(dir, mode.dir, "big_maps_struct_fields.bin"))
		require.NoError(t, err)
		f := serializer.New(serializer.WithCompatible(mode.compatible))
		var got BigMaps
		require.NoError(t, f.Deserialize(data, &got), mode.dir)
		require.Equal(t, want, got, mode.dir)
		ours, err := f.Serialize(&want)
		require.NoError(t, err)
		require.Equal(t, len(data), len(ours), "%s: same size, other entry order", mode.dir)
		var back BigMaps
		require.NoError(t, f.Deserialize(ours, &back))
		require.Equal(t, want, back, mode.dir)
	}
}

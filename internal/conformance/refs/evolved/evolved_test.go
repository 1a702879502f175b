package evolved

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/forygen/forygen/internal/conformance/refs"
	"github.com/forygen/forygen/serializer"
)

// Tracked messages read with another schema (the evolved reader, field by
// field): back-references resolve to the same object, cycles close.
func TestEvolvedTrackedRead(t *testing.T) {
	f := serializer.New(serializer.WithTrackRef(true))
	data, err := os.ReadFile(filepath.Join("..", "..", "..", "testdata", "xlang-fixtures-2", "compatible", "ref_shared_image_fields.bin"))
	require.NoError(t, err)
	var p ImagePair
	require.NoError(t, f.Deserialize(data, &p))
	require.NotNil(t, p.Cover)
	require.Same(t, p.Cover, p.Thumb)
	require.Equal(t, int32(32000), p.Cover.Width)

	a := &refs.Node{Value: 1}
	a.Next = &refs.Node{Value: 2, Next: a}
	data, err = f.Serialize(a)
	require.NoError(t, err)
	var n Node
	require.NoError(t, f.Deserialize(data, &n))
	require.Equal(t, int32(2), n.Next.Value)
	require.Same(t, &n, n.Next.Next)

	// And back: the evolved writer's bytes into the old types.
	e := &ImagePair{Cover: &Image{Width: 5, Alt: "x"}}
	e.Thumb = e.Cover
	data, err = f.Serialize(e)
	require.NoError(t, err)
	var old refs.ImagePair
	require.NoError(t, f.Deserialize(data, &old))
	require.Same(t, old.Cover, old.Thumb)
	require.Equal(t, int32(5), old.Cover.Width)
	for i := 0; i < len(data); i++ {
		require.Error(t, f.Deserialize(data[:i], new(refs.ImagePair)))
	}
}

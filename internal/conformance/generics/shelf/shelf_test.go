package shelf

import (
	"testing"

	"github.com/forygen/forygen/internal/conformance/generics"
	"github.com/forygen/forygen/serializer"
	"github.com/stretchr/testify/require"
)

// Instantiations of another package round-trip as list elements and map
// values, in both modes, with and without tracking.
func TestShelfRoundTrip(t *testing.T) {
	in := &Shelf{
		Pages: []generics.Page[generics.User]{{Items: []generics.User{{Name: "ann", Age: 3}}, Next: "n"}, {Items: []generics.User{}}},
		Named: map[string]*generics.Page[string]{"a": {Items: []string{"x"}}, "nil": nil},
	}
	for _, compatible := range []bool{false, true} {
		for _, track := range []bool{false, true} {
			f := serializer.New(serializer.WithCompatible(compatible), serializer.WithTrackRef(track))
			data, err := f.Serialize(in)
			require.NoError(t, err)
			var out Shelf
			require.NoError(t, f.Deserialize(data, &out))
			require.Equal(t, in, &out, "compatible=%v track=%v", compatible, track)
		}
	}
}

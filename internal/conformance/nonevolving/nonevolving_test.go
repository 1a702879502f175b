package nonevolving

import (
	"encoding/hex"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/forygen/forygen/serializer"
)

func mustHex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	require.NoError(t, err)
	return b
}

// Compatible-mode messages of official Go whose structs are not evolving:
// forygen reads them into its (evolving) types.
func TestReadNonEvolving(t *testing.T) {
	f := serializer.New()
	var fixed Fixed
	require.NoError(t, f.Deserialize(mustHex(t, "01ff1bd904020661"), &fixed))
	require.Equal(t, Fixed{Name: "a", N: 1}, fixed)

	var outer Outer
	require.NoError(t, f.Deserialize(mustHex(t, "01ff1c000ea073ffe2e1f270c3da04401b14461b176f40166e2c1bd904040662ff1bd90406066301081bd904080664"), &outer))
	require.Equal(t, Outer{F: Fixed{"b", 2}, FP: &Fixed{"c", 3}, L: []Fixed{{"d", 4}}}, outer)

	var named FixedN
	require.NoError(t, f.Deserialize(mustHex(t, "01ff1d0013a0df8e272f6629a20d0c8c70163e42e207384005344815340c200a066e"), &named))
	require.Equal(t, FixedN{Name: "n", N: 5}, named)
}

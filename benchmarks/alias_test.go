package benchmarks

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/forygen/forygen/benchmarks/fixtures"
	"github.com/forygen/forygen/serializer"
)

// WithAliasStrings: one allocation (the input copy) replaces the one per
// string, and the decoded strings do not change when the caller reuses its
// input. Decoding again into the same value reuses its slices, so after the
// first decode only strings allocate.
func TestAliasStrings(t *testing.T) {
	v := fixtures.NewMediaContent()
	data, err := serializer.Serialize(&v)
	require.NoError(t, err)
	// One allocation per non-empty string when copying.
	strings := 0
	for _, s := range append([]string{v.Media.URI, v.Media.Title, v.Media.Format, v.Media.Copyright}, v.Media.Persons...) {
		if s != "" {
			strings++
		}
	}
	for _, im := range v.Images {
		for _, s := range []string{im.URI, im.Title} {
			if s != "" {
				strings++
			}
		}
	}
	copying, aliasing := serializer.New(), serializer.New(serializer.WithAliasStrings(true))
	zero := serializer.New(serializer.WithZeroCopy(true))
	var out fixtures.MediaContent
	copyAllocs := testing.AllocsPerRun(50, func() { require.NoError(t, copying.Deserialize(data, &out)) })
	aliasAllocs := testing.AllocsPerRun(50, func() { require.NoError(t, aliasing.Deserialize(data, &out)) })
	zeroAllocs := testing.AllocsPerRun(50, func() { require.NoError(t, zero.Deserialize(data, &out)) })
	require.Equal(t, float64(strings), copyAllocs)
	require.Equal(t, float64(1), aliasAllocs)
	require.Equal(t, float64(0), zeroAllocs)

	in := append([]byte(nil), data...)
	require.NoError(t, aliasing.Deserialize(in, &out))
	for i := range in {
		in[i] = 'X'
	}
	require.Equal(t, v.Media.URI, out.Media.URI)
	require.Equal(t, v.Images[2].URI, out.Images[2].URI)

	// SmallMessage: its two strings are its only allocations into a reused
	// value (the time is a value), so copying allocates twice, aliasing once.
	sm := fixtures.NewSmallMessage()
	data, err = serializer.Serialize(&sm)
	require.NoError(t, err)
	var smOut fixtures.SmallMessage
	require.Equal(t, float64(2), testing.AllocsPerRun(50, func() { require.NoError(t, copying.Deserialize(data, &smOut)) }))
	require.Equal(t, float64(1), testing.AllocsPerRun(50, func() { require.NoError(t, aliasing.Deserialize(data, &smOut)) }))
	require.Equal(t, float64(0), testing.AllocsPerRun(50, func() { require.NoError(t, zero.Deserialize(data, &smOut)) }))
	require.True(t, sm.BirthDay.Equal(smOut.BirthDay))
	smOut.BirthDay = sm.BirthDay
	require.Equal(t, sm, smOut)
}

// BenchmarkAliasStrings/<fixture>/<mode> decodes the fixture with strings
// copied one allocation each (copy, the default), aliasing one copy of
// the input (alias, WithAliasStrings(true)) or aliasing the input itself
// (zerocopy, WithZeroCopy(true)).
func BenchmarkAliasStrings(b *testing.B) {
	mc, l, sm := fixtures.NewMediaContent(), fixtures.NewMediaContentList(), fixtures.NewSmallMessage()
	for _, fx := range []struct {
		name string
		in   serializer.Message
		out  serializer.Message
	}{
		{"MediaContent", &mc, new(fixtures.MediaContent)},
		{"MediaContentList", &l, new(fixtures.MediaContentList)},
		{"SmallMessage", &sm, new(fixtures.SmallMessage)},
	} {
		data, err := serializer.Serialize(fx.in)
		if err != nil {
			b.Fatal(err)
		}
		for _, mode := range []struct {
			name string
			f    *serializer.Fory
		}{{"copy", serializer.New()}, {"alias", serializer.New(serializer.WithAliasStrings(true))},
			{"zerocopy", serializer.New(serializer.WithZeroCopy(true))}} {
			b.Run(fx.name+"/"+mode.name, func(b *testing.B) {
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					if err := fx.out.ForyDeserialize(mode.f, data); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

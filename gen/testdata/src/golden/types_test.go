package golden

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/forygen/forygen/serializer"
)

// The golden output compiles and round-trips a value with every field set.
func TestRoundTrip(t *testing.T) {
	opt := int32(-7)
	in := Sample{
		ID: -1 << 40, Name: "golden", Tags: []string{"a", ""}, Scores: map[string]int32{"x": 1},
		Temp: 21.5, Level: 3, Origin: Point{X: 1, Y: -1}, Next: &Point{X: 2},
		Points: []Point{{X: 3}, {Y: 4}}, Maybe: []*Point{nil, {X: 5}}, ByKey: map[int32]*Point{1: {X: 6}, 2: nil},
		Raw: []byte{0, 1, 2}, Dense: []int32{-1, 1 << 30}, When: time.Unix(1700000000, 5),
		Every: -90*time.Second - 5, Day: serializer.Date{Year: 2024, Month: 2, Day: 29},
		Flags: [4]bool{true, false, true, false}, Opt: &opt, Fixed: 1 << 31, Big: 1 << 50,
		Maybes: nil,
	}
	for _, compatible := range []bool{true, false} {
		f := serializer.New(serializer.WithCompatible(compatible))
		data, err := f.Serialize(&in)
		require.NoError(t, err)
		var out Sample
		require.NoError(t, f.Deserialize(data, &out))
		require.True(t, in.When.Equal(out.When))
		out.When = in.When
		require.Equal(t, in, out)
	}
}

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
		Maybes: nil, Fixeds: []int64{-1, 1 << 62}, Cells: [][]float32{{1.5}, {}}, Grid: [2]int32{-3, 4},
		Pairs: map[[2]int32]string{{1, 2}: "a"},
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

// Decoding into a used value reuses its slices (serializer.ReuseSlice) but
// leaves nothing of the old elements: a null element is nil, a struct
// element has exactly the decoded fields.
func TestDecodeOverUsedValue(t *testing.T) {
	in := Sample{Maybe: []*Point{nil, {X: 5}}, Points: []Point{{X: 3}}, Dense: []int32{7}, Tags: []string{"a"}}
	for _, compatible := range []bool{true, false} {
		f := serializer.New(serializer.WithCompatible(compatible))
		data, err := f.Serialize(&in)
		require.NoError(t, err)
		var fresh Sample
		require.NoError(t, f.Deserialize(data, &fresh))
		used := Sample{
			Maybe:  []*Point{{X: 1, Y: 1}, {X: 2, Y: 2}, {X: 3, Y: 3}},
			Points: []Point{{X: 9, Y: 9}, {X: 8, Y: 8}},
			Dense:  []int32{1, 2, 3},
			Tags:   []string{"x", "y", "z"},
			Name:   "old",
		}
		require.NoError(t, f.Deserialize(data, &used))
		require.Equal(t, fresh, used)
		require.Nil(t, used.Maybe[0])
	}
}

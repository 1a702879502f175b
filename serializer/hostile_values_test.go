package serializer_test

import (
	"encoding/binary"
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/forygen/forygen/internal/e2e"
	"github.com/forygen/forygen/serializer"
)

// TestDurationEdges round-trips the extreme durations (the fuzzer found
// that those within a second of the minimum were refused: the reader
// scaled the rounded-down seconds before adding the nanoseconds), and
// refuses encodings beyond time.Duration's range (docs/format.md §12).
func TestDurationEdges(t *testing.T) {
	f := serializer.New(serializer.WithCompatible(false))
	for _, d := range []time.Duration{
		math.MinInt64, math.MinInt64 + 1, math.MinInt64 + time.Second - 1, math.MinInt64 + time.Second,
		-time.Second - 1, -time.Second, -1, 0, 1, time.Second, math.MaxInt64 - 1, math.MaxInt64,
	} {
		v := &e2e.Scalars{Dur: d}
		data, err := f.Serialize(v)
		require.NoError(t, err)
		got := new(e2e.Scalars)
		require.NoError(t, f.Deserialize(data, got), "%d", int64(d))
		require.Equal(t, d, got.Dur)
	}

	// Encodings one nanosecond past each end: find the DURATION bytes of a
	// known value and replace them (zz64 seconds, i32le nanoseconds).
	probe := time.Duration(1234567) * time.Second
	data, err := f.Serialize(&e2e.Scalars{Dur: probe})
	require.NoError(t, err)
	marker := binary.AppendVarint(nil, 1234567)
	marker = binary.LittleEndian.AppendUint32(marker, 0)
	i := indexOf(data, marker)
	require.GreaterOrEqual(t, i, 0)
	const maxSec = math.MaxInt64 / int64(time.Second)
	for _, tc := range []struct {
		sec  int64
		nsec uint32
		ok   bool
	}{
		{maxSec, uint32(math.MaxInt64 % int64(time.Second)), true},
		{maxSec, uint32(math.MaxInt64%int64(time.Second)) + 1, false},
		{-maxSec - 1, uint32(int64(time.Second) - math.MaxInt64%int64(time.Second) - 1), true},
		{-maxSec - 1, uint32(int64(time.Second) - math.MaxInt64%int64(time.Second) - 2), false},
		{maxSec + 1, 0, false},
		{-maxSec - 2, 0, false},
		{0, 1e9, false},
	} {
		enc := binary.AppendVarint(nil, tc.sec)
		enc = binary.LittleEndian.AppendUint32(enc, tc.nsec)
		in := append(append(append([]byte{}, data[:i]...), enc...), data[i+len(marker):]...)
		got := new(e2e.Scalars)
		err := f.Deserialize(in, got)
		if tc.ok {
			require.NoError(t, err, "%d s %d ns", tc.sec, tc.nsec)
			continue
		}
		require.ErrorIs(t, err, serializer.ErrMalformed, "%d s %d ns", tc.sec, tc.nsec)
		var de *serializer.DecodeError
		require.ErrorAs(t, err, &de)
		require.Equal(t, "Dur", de.Path)
	}
}

func indexOf(data, sub []byte) int {
	for i := 0; i+len(sub) <= len(data); i++ {
		if string(data[i:i+len(sub)]) == string(sub) {
			return i
		}
	}
	return -1
}

package serializer_test

import (
	"testing"

	"github.com/forygen/forygen/internal/example"
	"github.com/forygen/forygen/serializer"
	"github.com/stretchr/testify/require"
)

// MarshalAppend and SerializeAppend append to dst exactly what Marshal
// writes, keep dst's prefix, and in the reuse loop allocate nothing, in
// both modes.
func TestMarshalAppend(t *testing.T) {
	for _, compatible := range []bool{true, false} {
		f := serializer.New(serializer.WithCompatible(compatible))
		u := example.User{ID: 42, Name: "Ada", Tags: []string{"admin"}}
		want, err := serializer.Marshal(f, &u)
		require.NoError(t, err)

		got, err := serializer.MarshalAppend(f, []byte("pre"), &u)
		require.NoError(t, err)
		require.Equal(t, append([]byte("pre"), want...), got)
		got, err = f.SerializeAppend([]byte("pre"), &u)
		require.NoError(t, err)
		require.Equal(t, append([]byte("pre"), want...), got)

		// A dst too short for the message grows, as append does; one with
		// room is written in place.
		small := make([]byte, 0, 2)
		got, err = serializer.MarshalAppend(f, small, &u)
		require.NoError(t, err)
		require.Equal(t, want, got)
		room := make([]byte, 0, 256)
		got, err = serializer.MarshalAppend(f, room, &u)
		require.NoError(t, err)
		require.Same(t, &room[:1][0], &got[0])

		buf := got
		allocs := testing.AllocsPerRun(100, func() {
			buf, err = serializer.MarshalAppend(f, buf[:0], &u)
			if err != nil {
				t.Fatal(err)
			}
		})
		require.Zero(t, allocs, "MarshalAppend")
		allocs = testing.AllocsPerRun(100, func() {
			buf, err = f.SerializeAppend(buf[:0], &u)
			if err != nil {
				t.Fatal(err)
			}
		})
		if !asanBuild {
			require.Zero(t, allocs, "SerializeAppend")
		}

		// The pooled buffer got its own storage back: Marshal still
		// returns bytes the caller owns, not a view of buf.
		owned, err := serializer.Marshal(f, &u)
		require.NoError(t, err)
		require.Equal(t, want, owned)
		require.NotSame(t, &buf[0], &owned[0])

		var out example.User
		require.NoError(t, serializer.Unmarshal(f, buf, &out))
		require.Equal(t, u, out)

		_, err = serializer.MarshalAppend[example.User](f, []byte("pre"), nil)
		require.ErrorIs(t, err, serializer.ErrNotGenerated)
		got, err = f.SerializeAppend([]byte("pre"), struct{}{})
		require.ErrorIs(t, err, serializer.ErrNotGenerated)
		require.Equal(t, []byte("pre"), got)

		// A message its writer refuses (a name that is not UTF-8) gives
		// dst back as it was, through both entry points, and leaves the
		// Fory's buffer free for the next call.
		bad := example.User{ID: 1, Name: "\xff"}
		for _, appendFn := range []func([]byte) ([]byte, error){
			func(dst []byte) ([]byte, error) { return serializer.MarshalAppend(f, dst, &bad) },
			func(dst []byte) ([]byte, error) { return f.SerializeAppend(dst, &bad) },
		} {
			got, err = appendFn([]byte("pre"))
			require.Error(t, err)
			require.Equal(t, []byte("pre"), got)
			again, err := f.SerializeAppend(nil, &u)
			require.NoError(t, err)
			require.Equal(t, want, again)
		}
	}
}

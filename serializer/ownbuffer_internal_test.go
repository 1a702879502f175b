package serializer

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// The Fory's own buffer: the first call takes it, a call that finds it
// taken gets a pool buffer, and giving it back frees it again; a large
// storage it acquired is dropped on the way back.
func TestOwnBuffer(t *testing.T) {
	f := New()
	a := f.getBuffer()
	require.Same(t, f.own, a)
	b := f.getBuffer()
	require.NotSame(t, f.own, b, "a second caller gets a pool buffer")
	f.putBuffer(b)
	require.Equal(t, uint32(1), f.ownBusy.Load(), "giving back a pool buffer leaves the own one taken")
	f.putBuffer(a)
	require.Equal(t, uint32(0), f.ownBusy.Load())
	require.Same(t, f.own, f.getBuffer())

	f.own.Reset()
	f.own.WriteRawBools(make([]bool, ownMax+1))
	f.putBuffer(f.own)
	require.LessOrEqual(t, cap(f.own.Bytes()), 256, "a large storage is not kept")
	require.Equal(t, 0, f.own.Len())
	small := f.getBuffer()
	small.WriteRawBools(make([]bool, 100))
	keep := cap(small.Bytes())
	f.putBuffer(small)
	require.Equal(t, keep, cap(f.own.Bytes()), "a small storage is kept")
}

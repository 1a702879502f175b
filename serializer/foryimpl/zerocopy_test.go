package foryimpl

import (
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"

	"github.com/forygen/forygen/internal/meta"
)

// inside reports whether p points into b.
func inside(p *byte, b []byte) bool {
	a, lo := uintptr(unsafe.Pointer(p)), uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	return a >= lo && a < lo+uintptr(len(b))
}

// ReadString views the input for UTF-8 and ASCII LATIN1 when aliasing
// (WithAliasStrings, WithZeroCopy) and copies otherwise; LATIN1 that is not
// ASCII is converted, so never a view. ReadBinary views the input only with
// ZeroCopy, with its capacity cut to its length. Under -tags
// forygen_zerocopy every mode is zero-copy.
func TestReadStringAndBinaryAliasing(t *testing.T) {
	zero := func(c *Config) { c.ZeroCopy = true }
	alias := func(c *Config) { c.AliasStrings = true }
	for _, tc := range []struct {
		name   string
		data   []byte // a string header and its bytes
		want   string
		viewed bool // with aliasing on
	}{
		{"utf8", append([]byte{3<<2 | meta.StringUTF8}, "a\xc3\xa9"...), "aé", true},
		{"utf8 two-byte header", append([]byte{0x80 | (40<<2|meta.StringUTF8)&0x7f, (40<<2 | meta.StringUTF8) >> 7}, "0123456789012345678901234567890123456789"...), "0123456789012345678901234567890123456789", true},
		{"latin1 ascii", append([]byte{3<<2 | meta.StringLatin1}, "abc"...), "abc", true},
		{"latin1", []byte{2<<2 | meta.StringLatin1, 'a', 0xe9}, "aé", false},
		{"utf16", []byte{4<<2 | meta.StringUTF16LE, 'h', 0, 'i', 0}, "hi", false},
	} {
		for _, mode := range []struct {
			name string
			mods []func(*Config)
			view bool
		}{{"copy", nil, false}, {"alias", []func(*Config){alias}, true}, {"zerocopy", []func(*Config){zero}, true}} {
			c := newReadContext(tc.data, mode.mods...)
			s := c.ReadString()
			require.NoError(t, c.r.Err(), "%s/%s", tc.name, mode.name)
			require.Equal(t, tc.want, s, "%s/%s", tc.name, mode.name)
			require.Equal(t, (mode.view || forceZeroCopy) && tc.viewed, inside(unsafe.StringData(s), tc.data), "%s/%s: a view of the input", tc.name, mode.name)
		}
	}
	bin := []byte{3, 7, 8, 9, 0xaa}
	for _, mode := range []struct {
		name string
		mods []func(*Config)
		view bool
	}{{"copy", nil, false}, {"alias", []func(*Config){alias}, false}, {"zerocopy", []func(*Config){zero}, true}} {
		c := newReadContext(bin, mode.mods...)
		b := c.ReadBinary()
		require.NoError(t, c.r.Err())
		require.Equal(t, []byte{7, 8, 9}, b, mode.name)
		view := mode.view || forceZeroCopy
		require.Equal(t, view, inside(&b[0], bin), "%s: a view of the input", mode.name)
		if view {
			require.Equal(t, len(b), cap(b), "appending must not overwrite the input")
			_ = append(b, 1)
			require.Equal(t, byte(0xaa), bin[4])
		}
		// An empty run is an empty, non-nil slice that views nothing.
		c = newReadContext([]byte{0}, mode.mods...)
		e := c.ReadBinary()
		require.NoError(t, c.r.Err())
		require.NotNil(t, e)
		require.Empty(t, e)
	}
}

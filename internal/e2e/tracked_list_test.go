package e2e_test

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/forygen/forygen/internal/e2e"
	"github.com/forygen/forygen/internal/e2e/other"
	"github.com/forygen/forygen/serializer"
)

// TestTrackedStructValueList: a list of struct values whose elements
// header has the tracking bit (09, as Python, Java and JavaScript write
// it) puts a reference flag before each element; a back-reference to an
// earlier element copies it, as a value cannot share it
// (foryimpl.ReadStructList), and a null one is the zero value.
func TestTrackedStructValueList(t *testing.T) {
	f := serializer.New(serializer.WithCompatible(false), serializer.WithTrackRef(true))
	a, b := other.Address{Street: "LIST-ST", Lines: []string{"x"}}, other.Address{Street: "LIST-SU", Lines: []string{"y"}}
	data, err := f.Serialize(&e2e.Composite{Addrs: []other.Address{a, b}})
	require.NoError(t, err)
	j := at(t, data, "\x02\x08\x1b\x85\x07") // length 2, header 0x08, STRUCT, varu32(901)
	e0 := j + 5
	hash := data[e0 : e0+4] // an element starts with Address's schema hash
	n := bytes.Index(data[e0+4:], hash) + 4
	require.Greater(t, n, 4)
	body := data[e0 : e0+n]
	rest := data[e0+2*n:]
	edit := func(second ...byte) []byte {
		out := append([]byte(nil), data[:j]...)
		out = append(out, 0x02, 0x09, 0x1b, 0x85, 0x07, 0x00)
		out = append(out, body...)
		out = append(out, second...)
		return append(out, rest...)
	}
	// The root is object 0 and the first element 1: a field bare in a
	// tracked same-schema message (docs/format.md §14.30) is none.
	var got e2e.Composite
	require.NoError(t, f.Deserialize(edit(0xfe, 0x01), &got))
	require.Equal(t, []other.Address{a, a}, got.Addrs)
	got = e2e.Composite{Addrs: []other.Address{b, b}} // reused: the null element is zeroed
	require.NoError(t, f.Deserialize(edit(0xfd), &got))
	require.Equal(t, []other.Address{a, {}}, got.Addrs)
	got = e2e.Composite{}
	require.NoError(t, f.Deserialize(edit(append([]byte{0x00}, body...)...), &got))
	require.Equal(t, []other.Address{a, a}, got.Addrs)
	// A back-reference to the root is not an Address.
	de := decodeErr(t, f, edit(0xfe, 0x00), new(e2e.Composite), "e2e.Composite", serializer.ErrSchemaMismatch)
	require.Equal(t, "Addrs[1]", de.Path)
}

package e2e_test

import (
	"bytes"
	"strings"
	"testing"
	"testing/iotest"
	"unsafe"

	"github.com/stretchr/testify/require"

	"github.com/forygen/forygen/internal/e2e"
	"github.com/forygen/forygen/internal/e2e/other"
	"github.com/forygen/forygen/serializer"
)

// forcedZeroCopy is true when the tests run with -tags forygen_zerocopy,
// which turns WithZeroCopy on for every Fory (.ci/run).
var forcedZeroCopy = serializer.New().Runtime().Config().ZeroCopy

// within reports whether p points into b.
func within(p *byte, b []byte) bool {
	a, lo := uintptr(unsafe.Pointer(p)), uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	return a >= lo && a < lo+uintptr(len(b))
}

// WithZeroCopy: decoded strings and BINARY []byte fields point into the
// caller's input, with WithAliasStrings on or off; their values are right,
// a []byte has no capacity past its length, and writing to the input changes them
// (the documented contract). Without it they point elsewhere and do not
// change.
func TestZeroCopyViewsInput(t *testing.T) {
	for _, m := range modes {
		for _, opt := range []struct {
			name string
			opts []serializer.Option
			view bool // strings and bytes view the caller's input
		}{
			{"copy", nil, false},
			{"alias", []serializer.Option{serializer.WithAliasStrings(true)}, false},
			{"zerocopy", []serializer.Option{serializer.WithZeroCopy(true)}, true},
			{"zerocopy+alias", []serializer.Option{serializer.WithZeroCopy(true), serializer.WithAliasStrings(true)}, true},
		} {
			opt.view = opt.view || forcedZeroCopy
			t.Run(m.name+"/"+opt.name, func(t *testing.T) {
				f := serializer.New(append([]serializer.Option{serializer.WithCompatible(m.compatible)}, opt.opts...)...)
				want := fullContainers()
				data, err := f.Serialize(want)
				require.NoError(t, err)
				var got e2e.Containers
				require.NoError(t, f.Deserialize(data, &got))
				require.Equal(t, want, &got)

				strs := map[string]string{"S": got.S, "Strs[0]": got.Strs[0], "Strs[2]": got.Strs[2], "Named[1]": got.Named[1]}
				for name, s := range strs {
					require.Equal(t, opt.view, within(unsafe.StringData(s), data), "%s %q: a view of the input", name, s)
				}
				// Raw is BINARY (type=bytes), which views the input; Bytes,
				// a list of uint8 on the wire, is decoded element by element.
				require.Equal(t, opt.view, within(&got.Raw[0], data), "Raw: a view of the input")
				if opt.view {
					require.Equal(t, len(got.Raw), cap(got.Raw), "Raw: capacity past its length")
				}
				require.False(t, within(&got.Bytes[0], data), "Bytes: a view of the input")

				if opt.view {
					// Overwrite the first byte of S and of Raw in the input.
					before := got.S
					data[uintptr(unsafe.Pointer(unsafe.StringData(got.S)))-uintptr(unsafe.Pointer(&data[0]))] = 'Z'
					data[uintptr(unsafe.Pointer(&got.Raw[0]))-uintptr(unsafe.Pointer(&data[0]))] = 0x55
					require.Equal(t, "Z"+before[1:], got.S, "a zero-copy string changes with its input")
					require.Equal(t, byte(0x55), got.Raw[0])
				} else {
					for k := range data {
						data[k] = 'Z'
					}
					require.Equal(t, want, &got)
				}
			})
		}
	}
}

// A struct of strings decodes with no allocation at all with WithZeroCopy,
// one per string by default and one (the input copy) with
// WithAliasStrings (none under -tags forygen_zerocopy).
func TestZeroCopyAllocations(t *testing.T) {
	if asanBuild {
		t.Skip("-asan's allocator makes allocations of its own; the counts are checked without it")
	}
	v := other.Tag{Key: "key", Value: "a value"}
	for _, tc := range []struct {
		opt    serializer.Option
		allocs float64
	}{{serializer.WithAliasStrings(false), 2}, {serializer.WithAliasStrings(true), 1}, {serializer.WithZeroCopy(true), 0}} {
		if forcedZeroCopy {
			tc.allocs = 0
		}
		f := serializer.New(tc.opt)
		data, err := f.Serialize(&v)
		require.NoError(t, err)
		var out other.Tag
		allocs := testing.AllocsPerRun(100, func() {
			if err := f.Deserialize(data, &out); err != nil {
				t.Fatal(err)
			}
		})
		require.Equal(t, v, out)
		require.Equal(t, tc.allocs, allocs)
	}
}

// A Decoder with WithZeroCopy never overwrites bytes it has handed to
// Decode: values decoded early keep their contents while later messages
// arrive, a byte at a time (every refill) or in one read.
func TestZeroCopyStream(t *testing.T) {
	f := serializer.New(serializer.WithZeroCopy(true))
	var stream bytes.Buffer
	enc := serializer.NewEncoder(f, &stream)
	var want []other.Tag
	for i := 0; i < 50; i++ {
		tag := other.Tag{Key: strings.Repeat(string(rune('a'+i%26)), 1+i%40), Value: strings.Repeat("v", i)}
		want = append(want, tag)
		require.NoError(t, enc.Encode(&tag))
	}
	for _, r := range []struct {
		name string
		r    func() *bytes.Reader
		wrap bool
	}{{"one read", func() *bytes.Reader { return bytes.NewReader(stream.Bytes()) }, false}, {"byte by byte", func() *bytes.Reader { return bytes.NewReader(stream.Bytes()) }, true}} {
		t.Run(r.name, func(t *testing.T) {
			var src = r.r()
			dec := serializer.NewDecoder(f, src)
			if r.wrap {
				dec = serializer.NewDecoder(f, iotest.OneByteReader(src))
			}
			got := make([]other.Tag, len(want))
			for i := range got {
				require.NoError(t, dec.Decode(&got[i]))
			}
			require.Equal(t, want, got)
		})
	}
}

package buffer

import (
	"bytes"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
)

// TestPutStringAt copies strings of every length up to 100 (each branch of
// PutStringAt and orString's steps), ASCII, with one byte of 0x80 or more at
// each position (not UTF-8), and with "é" there (UTF-8), placed against a
// guard page on both sides: the bytes and offset are right, nothing outside
// the copy is written, and only the first is ASCII.
func TestPutStringAt(t *testing.T) {
	for n := 0; n <= 100; n++ {
		text := make([]byte, n)
		for i := range text {
			text[i] = byte('a' + i%26)
		}
		cases := [][]byte{text}
		for i := 0; i < n; i++ {
			c := bytes.Clone(text)
			c[i] = 0x80 | byte(i)
			cases = append(cases, c)
			if i+1 < n {
				c = bytes.Clone(text)
				copy(c[i:], "é")
				cases = append(cases, c)
			}
		}
		for k, c := range cases {
			forEachPlacement(c, func(src []byte) {
				s := unsafe.String(unsafe.SliceData(src), len(src))
				for _, off := range []int{0, 3} {
					w := arena(off + n + 8)
					end, ok := PutStringAt(w, off, s)
					require.Equal(t, off+n, end, "n=%d", n)
					require.Equal(t, c, w[off:end], "n=%d case %d", n, k)
					requireCanary(t, w, 0, off, "n=%d", n)
					requireCanary(t, w, end, len(w), "n=%d", n)
					require.Equal(t, k == 0, ok, "n=%d case %d: ASCII", n, k)
				}
			})
			// The destination can end at a guard page too.
			w := guardedWindow(n)
			end, _ := PutStringAt(w, 0, string(c))
			require.Equal(t, c, w[:end])
		}
	}
}

// FuzzPutStringAt holds PutStringAt to a copy and a byte-wise ASCII test,
// at any offset, with the bytes around the copy untouched.
func FuzzPutStringAt(f *testing.F) {
	f.Add([]byte("http://javaone.com/keynote_huge.jpg"), uint8(3))
	f.Add([]byte("video/theora\u1234"), uint8(0))
	f.Fuzz(func(t *testing.T, data []byte, off8 uint8) {
		off := int(off8 % 16)
		ascii := true
		for _, c := range data {
			ascii = ascii && c < 0x80
		}
		forEachPlacement(data, func(src []byte) {
			w := arena(off + len(src) + 8)
			end, ok := PutStringAt(w, off, unsafe.String(unsafe.SliceData(src), len(src)))
			require.Equal(t, off+len(data), end)
			require.Equal(t, data, w[off:end])
			require.Equal(t, ascii, ok)
			requireCanary(t, w, 0, off)
			requireCanary(t, w, end, len(w))
		})
	})
}

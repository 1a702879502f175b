package foryimpl

import (
	"math/rand"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"
)

// validUTF8 agrees with utf8.Valid on ASCII, multi-byte, invalid and
// truncated sequences at every position relative to its 8-byte blocks.
func TestValidUTF8(t *testing.T) {
	pieces := []string{"a", "hello, w", "é", "日本", "😀", "\xff", "\xc3", "\xe6\x97", "\xed\xa0\x80", "\x80"}
	rng := rand.New(rand.NewSource(7))
	for i := 0; i < 20000; i++ {
		var b []byte
		for j := rng.Intn(6); j >= 0; j-- {
			for k := rng.Intn(9); k > 0; k-- {
				b = append(b, 'x')
			}
			b = append(b, pieces[rng.Intn(len(pieces))]...)
		}
		exact := make([]byte, len(b))
		copy(exact, b)
		require.Equal(t, utf8.Valid(exact), validUTF8(exact), "%q", exact)
	}
}

func FuzzValidUTF8(f *testing.F) {
	f.Add([]byte("plain ascii text"))
	f.Add([]byte("12345678\xc3\xa9"))
	f.Fuzz(func(t *testing.T, data []byte) {
		b := make([]byte, len(data))
		copy(b, data)
		if validUTF8(b) != utf8.Valid(b) {
			t.Fatalf("validUTF8(%q) = %v", b, !utf8.Valid(b))
		}
	})
}

// readStringBoth decodes data with ReadString and with the general path
// alone, each in a fresh context with the given budget.
func readStringBoth(data []byte, budget uint64) (fast, slow string, fastOff, slowOff int, fastErr, slowErr error) {
	c := newReadContext(data)
	c.budget = budget
	fast = c.ReadString()
	fastOff, fastErr = c.r.Offset(), c.r.Err()
	c = newReadContext(data)
	c.budget = budget
	slow = c.readStringSlow(c.r.ReadVarUint64())
	slowOff, slowErr = c.r.Offset(), c.r.Err()
	return
}

// ReadString's fast path (one- and two-byte UTF-8 headers) decodes exactly
// what the general path does, and fails where it fails.
func TestReadStringFastPathAgrees(t *testing.T) {
	long := make([]byte, 200)
	for i := range long {
		long[i] = 'a' + byte(i%26)
	}
	var cases [][]byte
	for _, n := range []int{0, 1, 31, 32, 33, 127, 200} {
		h := uint64(n)<<2 | strUTF8
		var hdr []byte
		for v := h; ; v >>= 7 {
			if v < 0x80 {
				hdr = append(hdr, byte(v))
				break
			}
			hdr = append(hdr, byte(v)|0x80)
		}
		full := append(append([]byte(nil), hdr...), long[:n]...)
		for cut := 0; cut <= len(full); cut++ {
			cases = append(cases, full[:cut]) // every truncation, including inside the header
		}
		bad := append([]byte(nil), full...)
		if n > 0 {
			bad[len(bad)-1] = 0xff
			cases = append(cases, bad)
		}
	}
	cases = append(cases,
		[]byte{0x81},             // a two-byte header cut after its first byte
		[]byte{0x82, 0x80, 0x00}, // a three-byte header: general path
		[]byte{0x81, 0x01, 'a'},  // LATIN1 with a two-byte header, length 32, truncated
		append([]byte{0x82, 0x01}, long[:32]...),
		append([]byte{0x83, 0x01}, long[:32]...), // UTF-16, odd length
	)
	for _, in := range cases {
		for _, budget := range []uint64{1 << 20, 10} {
			fast, slow, fo, so, fe, se := readStringBoth(in, budget)
			require.Equal(t, slow, fast, "% x budget %d", in, budget)
			require.Equal(t, se != nil, fe != nil, "% x budget %d: %v vs %v", in, budget, fe, se)
			if se == nil {
				require.Equal(t, so, fo, "% x", in)
			}
		}
	}
}

func FuzzReadString(f *testing.F) {
	f.Add([]byte{0x7e, 'a'}, uint16(100))
	f.Add(append([]byte{0x82, 0x01}, make([]byte, 32)...), uint16(100))
	f.Fuzz(func(t *testing.T, data []byte, budget uint16) {
		fast, slow, fo, so, fe, se := readStringBoth(data, uint64(budget))
		if fast != slow || (fe != nil) != (se != nil) || (se == nil && fo != so) {
			t.Fatalf("% x: fast %q at %d (%v), general %q at %d (%v)", data, fast, fo, fe, slow, so, se)
		}
	})
}

package foryimpl

import (
	"math/rand"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"

	"github.com/forygen/forygen/internal/meta"
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

// FuzzValidUTF8 compares validUTF8 and ValidString with utf8.Valid on
// arbitrary bytes, at every alignment of the first byte.
func FuzzValidUTF8(f *testing.F) {
	f.Add([]byte("plain ascii text"))
	f.Add([]byte("12345678\xc3\xa9"))
	f.Add([]byte(strings.Repeat("a", 70) + "\xed\xa0\x80" + strings.Repeat("b", 70)))
	f.Add([]byte("\xf4\x8f\xbf\xbf" + strings.Repeat("c", 65) + "\xe0\xa0"))
	f.Fuzz(func(t *testing.T, data []byte) {
		want := utf8.Valid(data)
		for k := 0; k < 8; k++ {
			buf := make([]byte, k+len(data))
			b := buf[k:]
			copy(b, data)
			if got := validUTF8(b); got != want {
				t.Fatalf("validUTF8(%q) at offset %d = %v", b, k, got)
			}
			if got := ValidString(string(b)); got != want {
				t.Fatalf("ValidString(%q) = %v", b, got)
			}
		}
	})
}

// checkUTF8 asserts that validUTF8 and ValidString give want for b, and
// that want is utf8.Valid's answer (so a wrong expectation in a table
// fails too). b is copied to an allocation of its exact size, so that an
// over-read shows under -asan.
func checkUTF8(t *testing.T, b []byte, want bool) {
	t.Helper()
	exact := make([]byte, len(b))
	copy(exact, b)
	if utf8.Valid(exact) != want {
		t.Fatalf("test expectation for %q is %v, utf8.Valid says otherwise", exact, want)
	}
	if got := validUTF8(exact); got != want {
		t.Fatalf("validUTF8(%q) (%d bytes) = %v, want %v", exact, len(exact), got, want)
	}
	if got := ValidString(string(exact)); got != want {
		t.Fatalf("ValidString(%q) = %v, want %v", exact, got, want)
	}
}

// Every length from 0 to 200 (the word, two-word, four-word, 64-byte and
// looped cases and their boundaries), all ASCII, then with an invalid
// byte, a valid multi-byte character and a truncated one at every
// position, and with the ASCII surrounded by non-ASCII bytes outside the
// slice, which must not be read.
func TestValidUTF8EveryLengthAndPosition(t *testing.T) {
	ascii := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = 'a' + byte(i%26)
		}
		return b
	}
	for n := 0; n <= 200; n++ {
		checkUTF8(t, ascii(n), true)
		// ASCII framed by 0xff on both sides: only the slice counts.
		for k := 0; k < 8; k++ {
			frame := make([]byte, k+n+8)
			for i := range frame {
				frame[i] = 0xff
			}
			copy(frame[k:], ascii(n))
			if !validUTF8(frame[k:k+n]) || !ValidString(string(frame[k:k+n])) {
				t.Fatalf("%d ASCII bytes at offset %d between 0xff bytes: invalid", n, k)
			}
		}
		for p := 0; p < n; p++ {
			for _, bad := range []byte{0x80, 0xbf, 0xc0, 0xc1, 0xf5, 0xff} {
				b := ascii(n)
				b[p] = bad
				checkUTF8(t, b, false)
			}
			// A character of 2, 3 and 4 bytes starting at p, when it fits,
			// and the same cut short by the end of the string.
			for _, ch := range []string{"é", "日", "😀"} {
				if p+len(ch) <= n {
					b := ascii(n)
					copy(b[p:], ch)
					checkUTF8(t, b, true)
				}
				if cut := ch[:len(ch)-1]; p+len(cut) == n {
					b := ascii(n)
					copy(b[p:], cut)
					checkUTF8(t, b, false)
				}
			}
		}
		// Non-ASCII as the last byte or character.
		if n >= 2 {
			b := ascii(n)
			copy(b[n-2:], "é")
			checkUTF8(t, b, true)
		}
	}
}

// Sequences at the edges of RFC 3629 (overlong forms, surrogates, the
// last code point and past it, stray and missing continuation bytes),
// each after and before ASCII runs of lengths that reach every case of
// validUTF8, including the word skips after a multi-byte character.
func TestValidUTF8Sequences(t *testing.T) {
	seqs := []struct {
		s  string
		ok bool
	}{
		{"\u007f", true},
		{"\xc2\x80", true},      // U+0080
		{"\xdf\xbf", true},      // U+07FF
		{"\xc0\x80", false},     // overlong NUL
		{"\xc1\xbf", false},     // overlong U+007F
		{"\xc2\x7f", false},     // bad continuation
		{"\xc2\xc0", false},     // bad continuation
		{"\xe0\xa0\x80", true},  // U+0800
		{"\xe0\x9f\xbf", false}, // overlong U+07FF
		{"\xe0\x80\x80", false}, // overlong NUL
		{"\xe1\x80\x80", true},
		{"\xec\xbf\xbf", true},
		{"\xed\x9f\xbf", true},              // U+D7FF
		{"\xed\xa0\x80", false},             // U+D800, a high surrogate
		{"\xed\xbf\xbf", false},             // U+DFFF, a low surrogate
		{"\xed\xa0\x80\xed\xb0\x80", false}, // a surrogate pair, CESU-8
		{"\xee\x80\x80", true},              // U+E000
		{"\xef\xbf\xbf", true},              // U+FFFF
		{"\xef\xbf\xbd", true},              // U+FFFD itself
		{"\xe1\x80\x7f", false},
		{"\xe1\x80", false},
		{"\xf0\x90\x80\x80", true},  // U+10000
		{"\xf0\x8f\xbf\xbf", false}, // overlong U+FFFF
		{"\xf0\x80\x80\x80", false}, // overlong NUL
		{"\xf1\x80\x80\x80", true},
		{"\xf3\xbf\xbf\xbf", true},
		{"\xf4\x8f\xbf\xbf", true},  // U+10FFFF
		{"\xf4\x90\x80\x80", false}, // U+110000
		{"\xf5\x80\x80\x80", false},
		{"\xf8\x88\x80\x80\x80", false}, // a 5-byte form
		{"\xf0\x90\x80\x7f", false},
		{"\xf0\x90\x80", false},
		{"\xf0\x90", false},
		{"\x80", false},
		{"\xbf\x80", false},
		{"\xfe", false},
		{"\xff", false},
		{"é日😀", true},
	}
	for _, sq := range seqs {
		for _, before := range []int{0, 1, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129} {
			for _, after := range []int{0, 1, 7, 8, 9, 16, 63, 64, 65, 72, 130} {
				b := []byte(strings.Repeat("x", before) + sq.s + strings.Repeat("y", after))
				checkUTF8(t, b, sq.ok)
				// The same sequence again after the ASCII run: the second
				// one is reached by the loop that skips ASCII words.
				b = append(b, "é"+sq.s...)
				checkUTF8(t, b, sq.ok)
			}
		}
	}
}

// Every string of one and two bytes, and every three-byte string that
// starts with a lead byte, decided like utf8.Valid; four-byte strings for
// every lead and second byte with edge values after them.
func TestValidUTF8Exhaustive(t *testing.T) {
	var b [4]byte
	for x := 0; x < 1<<16; x++ {
		b[0], b[1] = byte(x), byte(x>>8)
		if validUTF8(b[:1]) != utf8.Valid(b[:1]) || validUTF8(b[:2]) != utf8.Valid(b[:2]) {
			t.Fatalf("% x", b[:2])
		}
	}
	for x := 0; x < 1<<16; x++ {
		for lead := 0xc0; lead <= 0xff; lead++ {
			b[0], b[1], b[2] = byte(lead), byte(x), byte(x>>8)
			if validUTF8(b[:3]) != utf8.Valid(b[:3]) {
				t.Fatalf("% x", b[:3])
			}
		}
	}
	edges := []byte{0x00, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xff}
	for lead := 0xf0; lead <= 0xff; lead++ {
		for second := 0; second < 256; second++ {
			for _, c3 := range edges {
				for _, c4 := range edges {
					b = [4]byte{byte(lead), byte(second), c3, c4}
					if validUTF8(b[:]) != utf8.Valid(b[:]) {
						t.Fatalf("% x", b)
					}
				}
			}
		}
	}
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
		h := uint64(n)<<2 | meta.StringUTF8
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

package serializer

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

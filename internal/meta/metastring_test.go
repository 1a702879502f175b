package meta

import (
	"encoding/hex"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// h decodes space-separated hex; test vectors are written as in docs/format.md.
func h(s string) []byte {
	b, err := hex.DecodeString(strings.ReplaceAll(s, " ", ""))
	if err != nil {
		panic(err)
	}
	return b
}

func TestEncodeMetaStringExamples(t *testing.T) {
	for _, tc := range []struct {
		s     string
		ctx   Context
		enc   Encoding
		bytes string // "" to check only the encoding
	}{
		// §6.1 examples.
		{"bench", Namespace, AllToLowerSpecial, "84 8d 11 c0"},
		{"NumericStruct", TypeName, AllToLowerSpecial, "75 b4 61 22 81 76 53 8d 05 30"},
		{"Sample", TypeName, FirstToLowerSpecial, "48 0c 7a c8"},
		{"Image", TypeName, FirstToLowerSpecial, ""},
		{"EnumHolder", TypeName, LowerUpperDigitSpecial, "3c 6a 86 42 71 61 88 88"}, // fixture enum_fields_name
		{"f64", FieldName, LowerUpperDigitSpecial, ""},
		{"i64_arr", FieldName, LowerUpperDigitSpecial, ""},
		{"has_bitrate", FieldName, AllToLowerSpecial, ""},
		{"b", FieldName, AllToLowerSpecial, ""},
		{"edge", Namespace, AllToLowerSpecial, "10 66 20"},
		{"Level2", TypeName, LowerUpperDigitSpecial, "4a 22 a2 17 b0"},
		{"org.apache.fory.benchmarks.xlang", Namespace, AllToLowerSpecial,
			"ba 26 d0 1e 01 1c 9a 2b a3 8d 04 8d 11 d8 08 aa 5a ba c0 d3 00"},
		{"field_number01", FieldName, LowerUpperDigitSpecial, "0a 40 85 87 f9 aa 18 08 88 e9 a8"},
		// FTLS only for type names; a field/namespace with one leading
		// capital goes to ATLS or LUDS by the size rule.
		{"Sample", Namespace, AllToLowerSpecial, ""},  // (6+1)·5 = 35 < 6·6
		{"Ab", FieldName, LowerUpperDigitSpecial, ""}, // (2+1)·5 = 15 ≮ 2·6
		// Specials depend on the context.
		{"a.b_c", Namespace, AllToLowerSpecial, ""},
		{"a.b", TypeName, UTF8, "61 2e 62"},
		{"a$b", FieldName, AllToLowerSpecial, ""},
		{"a$b", Namespace, UTF8, "61 24 62"},
		{"My$Type", TypeName, LowerUpperDigitSpecial, ""},
		{"a|b", TypeName, UTF8, "61 7c 62"},
		{"a-b", FieldName, UTF8, "61 2d 62"},
		// Non-ASCII and empty.
		{"café", FieldName, UTF8, "63 61 66 c3 a9"},
		{"日本", TypeName, UTF8, "e6 97 a5 e6 9c ac"},
		{"", Namespace, UTF8, ""},
	} {
		ms := EncodeMetaString(tc.s, tc.ctx)
		assert.Equal(t, tc.enc, ms.Encoding, "%q in %v", tc.s, tc.ctx)
		if tc.bytes != "" {
			assert.Equal(t, tc.bytes, spaced(ms.Bytes), "%q in %v", tc.s, tc.ctx)
		}
		if tc.s == "" {
			assert.Empty(t, ms.Bytes)
		}
		got, err := DecodeMetaString(ms.Encoding, ms.Bytes, tc.ctx)
		require.NoError(t, err, "%q in %v", tc.s, tc.ctx)
		assert.Equal(t, tc.s, got)
	}
}

func spaced(b []byte) string {
	parts := make([]string, len(b))
	for i, c := range b {
		parts[i] = hex.EncodeToString([]byte{c})
	}
	return strings.Join(parts, " ")
}

func TestInlineMetaString(t *testing.T) {
	// §6.3 examples.
	assert.Equal(t, "08 04 84 8d 11 c0",
		spaced(AppendInlineMetaString(nil, EncodeMetaString("bench", Namespace))))
	assert.Equal(t, "14 04 75 b4 61 22 81 76 53 8d 05 30",
		spaced(AppendInlineMetaString(nil, EncodeMetaString("NumericStruct", TypeName))))
	assert.Equal(t, "00", spaced(AppendInlineMetaString(nil, EncodeMetaString("", Namespace))))
	long := EncodeMetaString("org.apache.fory.benchmarks.xlang", Namespace)
	require.Len(t, long.Bytes, 21)
	assert.Equal(t, "2a 04 40 06 fb af 5f cb 40 "+spaced(long.Bytes), spaced(AppendInlineMetaString(nil, long)))

	// The 16/17-byte boundary: encoding byte up to 16 bytes, hash above.
	s16 := MetaString{Encoding: UTF8, Bytes: []byte("0123456789abcdef")}
	assert.Equal(t, append(h("20 00"), s16.Bytes...), AppendInlineMetaString(nil, s16))
	s17 := MetaString{Encoding: LowerUpperDigitSpecial, Bytes: []byte("0123456789abcdefg")}
	got := AppendInlineMetaString([]byte{0xee}, s17) // appends after existing bytes
	h1, _ := Murmur3x64_128(s17.Bytes, 47)
	want := append(h("ee 22"), le64(h1&^0xff|2)...)
	assert.Equal(t, append(want, s17.Bytes...), got)
}

func le64(v uint64) []byte {
	return appendU64LE(nil, v)
}

func TestTypeDefNameForm(t *testing.T) {
	// §6.4 examples.
	assert.Equal(t, "11 84 8d 11 c0", spaced(AppendTypeDefName(nil, EncodeMetaString("bench", Namespace), Namespace)))
	assert.Equal(t, "13 48 0c 7a c8", spaced(AppendTypeDefName(nil, EncodeMetaString("Sample", TypeName), TypeName)))
	assert.Equal(t, "29 75 b4 61 22 81 76 53 8d 05 30",
		spaced(AppendTypeDefName(nil, EncodeMetaString("NumericStruct", TypeName), TypeName)))
	assert.Equal(t, "22 3c 6a 86 42 71 61 88 88", spaced(AppendTypeDefName(nil, EncodeMetaString("EnumHolder", TypeName), TypeName)))
	assert.Equal(t, "00", spaced(AppendTypeDefName(nil, EncodeMetaString("", Namespace), Namespace)))
	assert.Equal(t, "00", spaced(AppendTypeDefName(nil, MetaString{Encoding: AllToLowerSpecial}, TypeName)))
	// UTF8 flag 0.
	assert.Equal(t, "0c 61 24 62", spaced(AppendTypeDefName(nil, EncodeMetaString("a$b", Namespace), Namespace)))

	// Length 62 fits the 6 bits; 63 and up escape with varu32(len − 63).
	for _, n := range []int{62, 63, 64, 63 + 127, 63 + 128} {
		ms := MetaString{Encoding: UTF8, Bytes: []byte(strings.Repeat("x", n))}
		got := AppendTypeDefName(nil, ms, Namespace)
		var hdr []byte
		if n < 63 {
			hdr = []byte{byte(n << 2)}
		} else {
			hdr = appendVarU32([]byte{0xfc}, uint32(n-63))
		}
		assert.Equal(t, append(hdr, ms.Bytes...), got, "len %d", n)
	}

	// Encodings without a flag in the context are programming errors.
	assert.Panics(t, func() { AppendTypeDefName(nil, EncodeMetaString("Sample", TypeName), Namespace) })
	assert.Panics(t, func() { AppendTypeDefName(nil, MetaString{Encoding: LowerSpecial, Bytes: []byte{1}}, TypeName) })
	assert.Panics(t, func() { EncodeMetaString("x", Context(9)) })
}

// TestMetaStringPackingBoundaries checks length and strip flag against the
// §6.1 formulas for every length from 1 to 64, for 5- and 6-bit encodings.
func TestMetaStringPackingBoundaries(t *testing.T) {
	flags := map[bool]int{}
	for n := 1; n <= 64; n++ {
		for _, tc := range []struct {
			s   string
			enc Encoding
			w   int
		}{
			{strings.Repeat("z", n), AllToLowerSpecial, 5},
			{"9" + strings.Repeat("Z", n-1), LowerUpperDigitSpecial, 6},
		} {
			ms := EncodeMetaString(tc.s, FieldName)
			require.Equal(t, tc.enc, ms.Encoding, tc.s)
			wantLen := (n*tc.w + 1 + 7) / 8
			require.Len(t, ms.Bytes, wantLen, tc.s)
			wantFlag := n*tc.w+1+tc.w <= 8*wantLen
			assert.Equal(t, wantFlag, ms.Bytes[0]&0x80 != 0, "flag of %d chars at %d bits", n, tc.w)
			flags[wantFlag]++
			got, err := DecodeMetaString(ms.Encoding, ms.Bytes, FieldName)
			require.NoError(t, err, tc.s)
			require.Equal(t, tc.s, got)
			// Clearing a set flag makes the phantom char appear ('a', code 0).
			if wantFlag {
				b := append([]byte{}, ms.Bytes...)
				b[0] &^= 0x80
				got, err := DecodeMetaString(ms.Encoding, b, FieldName)
				require.NoError(t, err)
				assert.Equal(t, tc.s+"a", got)
			}
		}
	}
	assert.NotZero(t, flags[true])
	assert.NotZero(t, flags[false])
	// Hand-checked: "a" = 0|00000|00, "ab" = 1|00000|00|001|00000 (flag set).
	assert.Equal(t, []byte{0x00}, EncodeMetaString("a", FieldName).Bytes)
	assert.Equal(t, []byte{0x80, 0x20}, EncodeMetaString("ab", FieldName).Bytes)
}

func TestMetaStringRoundTrip(t *testing.T) {
	inputs := []string{
		"", "a", "ab", "abc", "abcdefgh", "z", "_", "__", "$", "a_b", "a.b", "a$b", "a|b",
		"A", "AB", "Ab", "aB", "ABC", "Abc", "ABc", "HTTPServer", "MediaContent", "Media",
		"x1", "1", "0123456789", "a1_b2", "X2Y", "i64_arr", "f64", "u_r_i", "user_i_d",
		"org.apache.fory", "com.example.v2", "My$Type", "$Proxy12", "_Private",
		"another_quite_long_field_name_without_any_tag", strings.Repeat("q", 200),
		strings.Repeat("Q", 100), strings.Repeat("q1", 100),
		"café", "日本語", "emoji😀", "tab\there", "space here", "a-b", "a/b",
	}
	for _, ctx := range []Context{Namespace, TypeName, FieldName} {
		for _, s := range inputs {
			ms := EncodeMetaString(s, ctx)
			got, err := DecodeMetaString(ms.Encoding, ms.Bytes, ctx)
			require.NoError(t, err, "%q in %v (%v)", s, ctx, ms.Encoding)
			assert.Equal(t, s, got, "%q in %v (%v)", s, ctx, ms.Encoding)
			switch ctx {
			case Namespace, FieldName:
				assert.NotEqual(t, FirstToLowerSpecial, ms.Encoding, "%q in %v", s, ctx)
			}
			assert.NotEqual(t, LowerSpecial, ms.Encoding, "%q in %v", s, ctx)
		}
	}
}

func TestDecodeMetaStringAcceptsAllEncodings(t *testing.T) {
	// LS (never written by Go in these contexts) decodes in every context.
	for _, ctx := range []Context{Namespace, TypeName, FieldName} {
		got, err := DecodeMetaString(LowerSpecial, EncodeMetaString("bench", Namespace).Bytes, ctx)
		require.NoError(t, err)
		assert.Equal(t, "bench", got)
	}
	// FTLS decodes outside type names too.
	got, err := DecodeMetaString(FirstToLowerSpecial, h("48 0c 7a c8"), Namespace)
	require.NoError(t, err)
	assert.Equal(t, "Sample", got)
	// LUDS codes 62/63 follow the context.
	luds := EncodeMetaString("a.b_1", Namespace)
	require.Equal(t, LowerUpperDigitSpecial, luds.Encoding)
	got, err = DecodeMetaString(LowerUpperDigitSpecial, luds.Bytes, TypeName)
	require.NoError(t, err)
	assert.Equal(t, "a$b_1", got)
}

func TestDecodeMetaStringErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		enc  Encoding
		b    []byte
		ctx  Context
	}{
		{"unknown encoding", 5, []byte{0}, FieldName},
		{"unknown encoding, empty bytes", 200, nil, FieldName},
		{"unknown context", UTF8, []byte("x"), Context(3)},
		{"invalid UTF-8", UTF8, []byte{0xff, 0xfe}, TypeName},
		{"truncated UTF-8", UTF8, []byte{0xe6, 0x97}, TypeName},
		// 0|11110|00: LS code 30 does not exist.
		{"LS code 30", LowerSpecial, []byte{0x78}, Namespace},
		{"ATLS code 31", AllToLowerSpecial, []byte{0x7c}, Namespace},
		// FTLS first char must be a letter: '.' (26) = 0|11010|00.
		{"FTLS first not a letter", FirstToLowerSpecial, []byte{0x68}, TypeName},
		// ATLS "|" alone (29) = 0|11101|00; "|." = 1|11101|11010|00000 → flag, 2 chars.
		{"ATLS trailing escape", AllToLowerSpecial, []byte{0x74}, TypeName},
		{"ATLS escape of non-letter", AllToLowerSpecial, []byte{0xf7, 0x40}, TypeName},
		// Flag set but nothing left: 1 byte holds one 5/6-bit code, minus the phantom.
		{"LUDS flag leaves no char", LowerUpperDigitSpecial, []byte{0x80}, FieldName},
		{"ATLS flag leaves no char", AllToLowerSpecial, []byte{0x80}, FieldName},
	} {
		_, err := DecodeMetaString(tc.enc, tc.b, tc.ctx)
		require.Error(t, err, tc.name)
		assert.True(t, errors.Is(err, ErrBadMetaString), "%s: %v", tc.name, err)
	}
	// The ATLS vector above really is "|." when not checked as ATLS.
	got, err := DecodeMetaString(LowerSpecial, []byte{0xf7, 0x40}, TypeName)
	require.NoError(t, err)
	assert.Equal(t, "|.", got)
}

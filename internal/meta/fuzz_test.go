package meta

import (
	"errors"
	"testing"
	"unicode/utf8"
)

// FuzzParseTypeDef checks that ParseTypeDef never panics and that whatever it
// accepts re-encodes and re-parses to the same model (checkParse). With
// fixHash set, the header hash is recomputed first so that mutated bodies
// reach the body parser instead of stopping at the hash check.
//
//	go test -run='^$' -fuzz=FuzzParseTypeDef -fuzztime=5s ./internal/meta/
func FuzzParseTypeDef(f *testing.F) {
	for _, v := range typeDefVectors {
		b := h(v.hex)
		f.Add(b, false)
		f.Add(b, true)
		f.Add(append(b, 0x0e, 0xff), false) // data after the TypeDef
	}
	f.Add([]byte{}, false)
	f.Add(wrapBody([]byte{0xc1, 0x01, 0x40, TypeList, 0x5a, 0x5a, 0x04, 0x00}), true)
	f.Add(wrapBody([]byte{0xe1, 0x00, 0x0c, 'a', '.', 'b', 0x40, 0x05, 0x70}), true)
	f.Add(wrapBody([]byte{0x05, 0x00, 0x07, 0x48}), true)
	f.Fuzz(func(t *testing.T, d []byte, fixHash bool) {
		b := make([]byte, len(d))
		copy(b, d)
		if fixHash {
			rehash(b)
		}
		checkParse(t, b)
	})
}

// FuzzDecodeMetaString checks that DecodeMetaString never panics, returns
// valid UTF-8, and that every string it accepts survives Go's encoder:
// EncodeMetaString then DecodeMetaString gives the same string back.
//
//	go test -run='^$' -fuzz=FuzzDecodeMetaString -fuzztime=5s ./internal/meta/
func FuzzDecodeMetaString(f *testing.F) {
	for _, s := range []string{"bench", "NumericStruct", "Sample", "EnumHolder", "i64_arr", "a.b", "café", ""} {
		for _, ctx := range []Context{Namespace, TypeName, FieldName} {
			ms := EncodeMetaString(s, ctx)
			f.Add(uint8(ms.Encoding), uint8(ctx), ms.Bytes)
		}
	}
	f.Add(uint8(AllToLowerSpecial), uint8(TypeName), []byte{0xf7, 0x40})
	f.Add(uint8(LowerUpperDigitSpecial), uint8(FieldName), []byte{0x80})
	f.Add(uint8(9), uint8(7), []byte{0x01})
	f.Fuzz(func(t *testing.T, enc, ctx uint8, d []byte) {
		b := make([]byte, len(d))
		copy(b, d)
		s, err := DecodeMetaString(Encoding(enc), b, Context(ctx))
		if err != nil {
			if !errors.Is(err, ErrBadMetaString) {
				t.Fatalf("error does not wrap ErrBadMetaString: %v", err)
			}
			return
		}
		if !utf8.ValidString(s) {
			t.Fatalf("decoded %q is not valid UTF-8", s)
		}
		if len(b) > 0 && s == "" {
			t.Fatalf("%d bytes decoded to the empty string", len(b))
		}
		ms := EncodeMetaString(s, Context(ctx))
		back, err := DecodeMetaString(ms.Encoding, ms.Bytes, Context(ctx))
		if err != nil || back != s {
			t.Fatalf("%q re-encoded as %v % x decodes to %q, %v", s, ms.Encoding, ms.Bytes, back, err)
		}
	})
}

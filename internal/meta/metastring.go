package meta

import (
	"errors"
	"fmt"
	"unicode/utf8"
)

// Encoding is a meta string encoding, numbered as in docs/format.md §6.1 (the
// numbering of the inline form's encoding byte, §6.3). TypeDef name headers
// use a different, context-dependent 2-bit numbering (§6.4, §11.2).
type Encoding uint8

const (
	UTF8                   Encoding = 0 // raw bytes
	LowerSpecial           Encoding = 1 // LS: 5 bits, a-z . _ $ |
	LowerUpperDigitSpecial Encoding = 2 // LUDS: 6 bits, a-z A-Z 0-9 and the context's two specials
	FirstToLowerSpecial    Encoding = 3 // FTLS: first char lower-cased, then LS
	AllToLowerSpecial      Encoding = 4 // ATLS: every capital X written as |x, then LS
)

func (e Encoding) String() string {
	switch e {
	case UTF8:
		return "UTF8"
	case LowerSpecial:
		return "LOWER_SPECIAL"
	case LowerUpperDigitSpecial:
		return "LOWER_UPPER_DIGIT_SPECIAL"
	case FirstToLowerSpecial:
		return "FIRST_TO_LOWER_SPECIAL"
	case AllToLowerSpecial:
		return "ALL_TO_LOWER_SPECIAL"
	}
	return fmt.Sprintf("Encoding(%d)", uint8(e))
}

// Context says what a meta string names. It decides which encodings the
// writer may choose and which two characters LUDS codes 62 and 63 stand for
// (§6.1).
type Context uint8

const (
	Namespace Context = iota // LUDS specials '.' '_'; writer picks from {ATLS, LUDS, UTF8}
	TypeName                 // LUDS specials '$' '_'; writer picks from {ATLS, LUDS, FTLS, UTF8}
	FieldName                // LUDS specials '$' '_'; writer picks from {ATLS, LUDS, UTF8}
)

func (c Context) String() string {
	switch c {
	case Namespace:
		return "namespace"
	case TypeName:
		return "type name"
	case FieldName:
		return "field name"
	}
	return fmt.Sprintf("Context(%d)", uint8(c))
}

// specials returns the characters of LUDS codes 62 and 63.
func (c Context) specials() (s1, s2 byte, ok bool) {
	switch c {
	case Namespace:
		return '.', '_', true
	case TypeName, FieldName:
		return '$', '_', true
	}
	return 0, 0, false
}

// MetaString is an encoded meta string: the encoding and the packed bytes
// (for UTF8, the string's bytes). The empty string is {UTF8, nil}.
type MetaString struct {
	Encoding Encoding
	Bytes    []byte
}

// ErrBadMetaString is wrapped by every DecodeMetaString error.
var ErrBadMetaString = errors.New("meta: malformed meta string")

// EncodeMetaString encodes s for ctx, choosing the encoding exactly as
// official Fory Go does (§6.1):
//
//  1. empty → UTF8 with no bytes; any non-ASCII byte → UTF8;
//  2. (LS first when allowed — never, in these three contexts; lower-case
//     input gets the same bits from ATLS);
//  3. if every char is a letter, digit or one of the context's two LUDS
//     specials: a digit → LUDS; else exactly one capital, at position 0, in a
//     type name → FTLS; else (n + capitals)·5 < n·6 → ATLS; else LUDS;
//  4. otherwise UTF8.
//
// It panics on a Context other than Namespace, TypeName and FieldName (a
// programming error, never caused by input data).
func EncodeMetaString(s string, ctx Context) MetaString {
	s1, s2, ok := ctx.specials()
	if !ok {
		panic("meta: EncodeMetaString: unknown " + ctx.String())
	}
	if s == "" {
		return MetaString{Encoding: UTF8}
	}
	luds := true
	digits, uppers := 0, 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 0x80:
			return MetaString{Encoding: UTF8, Bytes: []byte(s)}
		case isDigit(c):
			digits++
		case isUpper(c):
			uppers++
		case isLower(c), c == s1, c == s2:
		default:
			luds = false
		}
	}
	switch {
	case !luds:
		return MetaString{Encoding: UTF8, Bytes: []byte(s)}
	case digits > 0:
		return MetaString{Encoding: LowerUpperDigitSpecial, Bytes: packLUDS(s, s1, s2)}
	case uppers == 1 && isUpper(s[0]) && ctx == TypeName:
		return MetaString{Encoding: FirstToLowerSpecial, Bytes: packFTLS(s)}
	case (len(s)+uppers)*5 < len(s)*6:
		return MetaString{Encoding: AllToLowerSpecial, Bytes: packATLS(s, uppers)}
	default:
		return MetaString{Encoding: LowerUpperDigitSpecial, Bytes: packLUDS(s, s1, s2)}
	}
}

// bitPacker writes w-bit codes MSB first after the leading "strip last
// char" flag bit (§6.1).
type bitPacker struct {
	out   []byte
	acc   uint32
	nbits uint
}

func newBitPacker(nchars int, w uint) *bitPacker {
	total := nchars*int(w) + 1
	return &bitPacker{out: make([]byte, 0, (total+7)/8), nbits: 1}
}

func (p *bitPacker) put(code byte, w uint) {
	p.acc = p.acc<<w | uint32(code)
	p.nbits += w
	if p.nbits >= 8 {
		p.nbits -= 8
		p.out = append(p.out, byte(p.acc>>p.nbits))
	}
}

// done flushes the last partial byte and sets the flag when the padding could
// hold one more code, which a decoder would otherwise read as a phantom
// character ("strip last char", §6.1).
func (p *bitPacker) done(nchars int, w uint) []byte {
	if p.nbits > 0 {
		p.out = append(p.out, byte(p.acc<<(8-p.nbits)))
	}
	if nchars*int(w)+1+int(w) <= 8*len(p.out) {
		p.out[0] |= 0x80
	}
	return p.out
}

// lsCode maps a lower-case letter or a LUDS special ('.', '_', '$') to its
// 5-bit LS code. '|' (29) is never passed: it is not LUDS-encodable, so a
// string containing it is written as UTF8, and ATLS writes its escapes
// itself.
func lsCode(c byte) byte {
	switch c {
	case '.':
		return 26
	case '_':
		return 27
	case '$':
		return 28
	}
	return c - 'a'
}

func packLUDS(s string, s1, s2 byte) []byte {
	p := newBitPacker(len(s), 6)
	for i := 0; i < len(s); i++ {
		c := s[i]
		var code byte
		switch {
		case isLower(c):
			code = c - 'a'
		case isUpper(c):
			code = 26 + c - 'A'
		case isDigit(c):
			code = 52 + c - '0'
		case c == s1:
			code = 62
		default: // s2
			code = 63
		}
		p.put(code, 6)
	}
	return p.done(len(s), 6)
}

func packFTLS(s string) []byte {
	p := newBitPacker(len(s), 5)
	p.put(s[0]-'A', 5)
	for i := 1; i < len(s); i++ {
		p.put(lsCode(s[i]), 5)
	}
	return p.done(len(s), 5)
}

func packATLS(s string, uppers int) []byte {
	n := len(s) + uppers
	p := newBitPacker(n, 5)
	for i := 0; i < len(s); i++ {
		c := s[i]
		if isUpper(c) {
			p.put(29, 5) // '|'
			p.put(c-'A', 5)
			continue
		}
		p.put(lsCode(c), 5)
	}
	return p.done(n, 5)
}

// DecodeMetaString decodes b, encoded with enc, in ctx. Every encoding id of
// §6.1 is accepted in every context (a peer's choice may differ from Go's);
// ctx only supplies the LUDS specials. Errors wrap ErrBadMetaString: an
// unknown encoding or context, invalid UTF-8, LS codes 30/31, an FTLS first
// char that is not a letter, an ATLS '|' not followed by a letter, or
// non-empty packed bytes that hold no character. The padding bits after the
// last code are not checked (official Go ignores them too).
func DecodeMetaString(enc Encoding, b []byte, ctx Context) (string, error) {
	s1, s2, ok := ctx.specials()
	if !ok {
		return "", fmt.Errorf("%w: unknown %v", ErrBadMetaString, ctx)
	}
	if enc > AllToLowerSpecial {
		return "", fmt.Errorf("%w: unknown encoding id %d", ErrBadMetaString, uint8(enc))
	}
	if len(b) == 0 {
		return "", nil
	}
	if enc == UTF8 {
		if !utf8.Valid(b) {
			return "", fmt.Errorf("%w: invalid UTF-8", ErrBadMetaString)
		}
		return string(b), nil
	}

	w := uint(5)
	if enc == LowerUpperDigitSpecial {
		w = 6
	}
	// §6.1: floor((8·len − 1)/w) codes follow the flag bit; drop the last
	// one when the flag is set. 8·len − 1 >= 7 > w, so n >= 0.
	n := (8*len(b) - 1) / int(w)
	if b[0]&0x80 != 0 {
		n--
	}
	if n <= 0 {
		return "", fmt.Errorf("%w: %d %v bytes hold no character", ErrBadMetaString, len(b), enc)
	}

	out := make([]byte, 0, n)
	var acc uint32
	var nbits uint
	pos := 0
	// Prime the accumulator with byte 0 minus its flag bit.
	acc, nbits, pos = uint32(b[0]&0x7f), 7, 1
	for i := 0; i < n; i++ {
		for nbits < w {
			acc = acc<<8 | uint32(b[pos])
			pos++
			nbits += 8
		}
		nbits -= w
		code := byte(acc>>nbits) & (1<<w - 1)
		acc &= 1<<nbits - 1
		if enc == LowerUpperDigitSpecial {
			out = append(out, ludsChar(code, s1, s2))
			continue
		}
		c, ok := lsChar(code)
		if !ok {
			return "", fmt.Errorf("%w: invalid %v code %d at char %d", ErrBadMetaString, enc, code, i)
		}
		out = append(out, c)
	}

	switch enc {
	case FirstToLowerSpecial:
		if !isLower(out[0]) {
			return "", fmt.Errorf("%w: %v first char %q is not a letter", ErrBadMetaString, enc, out[0])
		}
		out[0] -= 'a' - 'A'
	case AllToLowerSpecial:
		j := 0
		for i := 0; i < len(out); i++ {
			c := out[i]
			if c == '|' {
				if i+1 >= len(out) || !isLower(out[i+1]) {
					return "", fmt.Errorf("%w: %v escape '|' at char %d is not followed by a letter", ErrBadMetaString, enc, i)
				}
				i++
				c = out[i] - ('a' - 'A')
			}
			out[j] = c
			j++
		}
		out = out[:j]
	}
	return string(out), nil
}

func lsChar(code byte) (byte, bool) {
	switch {
	case code <= 25:
		return 'a' + code, true
	case code == 26:
		return '.', true
	case code == 27:
		return '_', true
	case code == 28:
		return '$', true
	case code == 29:
		return '|', true
	}
	return 0, false
}

func ludsChar(code, s1, s2 byte) byte {
	switch {
	case code <= 25:
		return 'a' + code
	case code <= 51:
		return 'A' + code - 26
	case code <= 61:
		return '0' + code - 52
	case code == 62:
		return s1
	}
	return s2
}

// smallInlineMax is the longest inline meta string that carries a separate
// encoding byte; longer ones carry an 8-byte hash instead (§6.3).
const smallInlineMax = 16

// AppendInlineMetaString appends ms in the inline form of same-schema NAMED_*
// type meta (§6.3) as a fresh string, never a back-reference:
// varu32(len << 1), then for 1..16 bytes the encoding byte, for longer
// strings the i64le hash (murmur3(bytes, 47).h1 with its low byte replaced by
// the encoding), then the bytes. The empty string is the single byte 00.
func AppendInlineMetaString(dst []byte, ms MetaString) []byte {
	n := len(ms.Bytes)
	dst = appendVarU32(dst, uint32(n)<<1)
	switch {
	case n == 0:
		return dst
	case n <= smallInlineMax:
		dst = append(dst, byte(ms.Encoding))
	default:
		h1, _ := Murmur3x64_128(ms.Bytes, hashSeed)
		dst = appendU64LE(dst, h1>>8<<8|uint64(ms.Encoding))
	}
	return append(dst, ms.Bytes...)
}

// bigNameThreshold is the 6-bit length value that announces a varu32 with the
// rest of the length in the TypeDef name form (§6.4).
const bigNameThreshold = 63

// AppendTypeDefName appends ms in the TypeDef name form (§6.4): one byte
// (min(len, 63) << 2) | flag, varu32(len − 63) when len >= 63, then the
// bytes. The 2-bit flag numbering is the TypeDef's own: 0 UTF8, 1 ATLS,
// 2 LUDS, and for type names also 3 FTLS. Namespace and FieldName share the
// three-value numbering. An empty string is the single byte 00, whatever its
// encoding.
//
// It panics when ms.Encoding has no flag in ctx (LS anywhere, FTLS outside
// type names): EncodeMetaString never produces such a pair, so it can only
// be a programming error.
func AppendTypeDefName(dst []byte, ms MetaString, ctx Context) []byte {
	n := len(ms.Bytes)
	if n == 0 {
		return append(dst, 0)
	}
	flag, ok := typeDefNameFlag(ms.Encoding, ctx)
	if !ok {
		panic(fmt.Sprintf("meta: AppendTypeDefName: %v cannot be written as a %v", ms.Encoding, ctx))
	}
	if n >= bigNameThreshold {
		dst = append(dst, bigNameThreshold<<2|flag)
		dst = appendVarU32(dst, uint32(n-bigNameThreshold))
	} else {
		dst = append(dst, byte(n)<<2|flag)
	}
	return append(dst, ms.Bytes...)
}

func typeDefNameFlag(enc Encoding, ctx Context) (byte, bool) {
	switch enc {
	case UTF8:
		return 0, true
	case AllToLowerSpecial:
		return 1, true
	case LowerUpperDigitSpecial:
		return 2, true
	case FirstToLowerSpecial:
		return 3, ctx == TypeName
	}
	return 0, false
}

// typeDefNameEncoding is the inverse of typeDefNameFlag.
func typeDefNameEncoding(flag byte, ctx Context) (Encoding, bool) {
	switch flag {
	case 0:
		return UTF8, true
	case 1:
		return AllToLowerSpecial, true
	case 2:
		return LowerUpperDigitSpecial, true
	case 3:
		return FirstToLowerSpecial, ctx == TypeName
	}
	return 0, false
}

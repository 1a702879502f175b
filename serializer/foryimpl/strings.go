package foryimpl

import (
	"math/bits"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"

	"github.com/forygen/forygen/buffer"

	"github.com/forygen/forygen/internal/meta"
)

// stringMode is where a decoded string's bytes live.
type stringMode uint8

const (
	stringsCopy   stringMode = iota // a new allocation each
	stringsAlias                    // the input (ZeroCopy) or the copy of it (AliasStrings)
	stringsBlocks                   // a block shared with other values (BlockSize)
)

func stringModeOf(o *Config) stringMode {
	switch {
	case o.AliasStrings || o.ZeroCopy:
		return stringsAlias
	case o.BlockSize > 0:
		return stringsBlocks
	}
	return stringsCopy
}

// ReadString reads a string (§7): LATIN1, UTF-16LE or UTF-8. UTF-8 is
// validated unless WithUTF8Validation(false); the bytes are copied unless
// WithAliasStrings(true) or WithZeroCopy(true) (stringsAlias), which view
// the input (a copy of it, or the caller's own), and carved from a block
// with WithBlockAlloc (stringsBlocks, blocks.go).
func (c *ReadContext) ReadString() string {
	// Fast path: a one- or two-byte header (strings under 8 KiB) of UTF-8,
	// what Go and most peers write, that fits the input and the allocation
	// budget; anything else takes the general path below. Two-byte headers
	// are the URIs of BenchmarkDeserialize/MediaContent.
	in, off := c.r.Bytes(), c.r.Offset()
	if off < len(in) {
		h, start := uint(in[off]), off+1
		if h >= 0x80 {
			// A second byte must end the varint; a longer header and a
			// truncated one go the general way.
			if start >= len(in) || in[start] >= 0x80 {
				goto general
			}
			h = h&0x7f | uint(in[start])<<7
			start++
		}
		if n := int(h >> meta.StringLenShift); h&meta.StringEncMask == meta.StringUTF8 && n <= len(in)-start && uint64(n) <= c.budget {
			if n == 0 {
				c.r.SetOffset(start)
				return ""
			}
			// n > 0 and n <= len(in)-start, so in[start:start+n] exists;
			// taken without the two checks in[start] and unsafe.Slice make.
			raw := unsafe.Slice((*byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(in)), start)), n)
			if c.copyChecked {
				// The default: checked, copied (instructions.sh
				// SmallMessage forygen Deserialize).
				if validUTF8(raw) {
					c.r.SetOffset(start + n)
					c.budget -= uint64(n)
					return string(raw)
				}
			} else if c.skipUTF8 || validUTF8(raw) {
				c.r.SetOffset(start + n)
				if c.strMode != stringsCopy {
					if c.strMode == stringsAlias {
						return unsafe.String(&in[start], n)
					}
					c.budget -= uint64(n)
					return c.ownString(raw)
				}
				c.budget -= uint64(n)
				return string(raw)
			}
		}
	}
general:
	return c.readStringSlow(c.r.ReadVarUint64())
}

// validUTF8 is utf8.Valid, with the ASCII prefix of b (most of most
// strings) scanned a word at a time and the rest checked here rather than
// by a call of utf8.Valid: a function that calls nothing, bounds-check
// panics included, runs without a stack frame, and generated writers call
// this once a string through ValidString (BenchmarkStrings/Serialize/
// MediaContent/check, PERFORMANCE.md "Strings"). FuzzValidUTF8 holds it
// equal to utf8.Valid.
//
// The prefix is read in words that may overlap: 8 to 64 bytes in two,
// four or eight words without a loop, longer runs 64 bytes a step with a
// last step that overlaps the one before (BenchmarkStrings/Decode/ascii1M). A word
// that overlaps starts inside the ASCII prefix, so the first high bit it
// holds is the first non-ASCII byte of b.
func validUTF8(b []byte) bool {
	n, i := len(b), 0
	switch {
	case n < 8:
		for ; i < n; i++ {
			if b[i] >= utf8.RuneSelf {
				goto rest
			}
		}
		return true
	case n <= 16:
		// The words that told the string is not all ASCII also tell
		// where its first other byte is: the first high bit of the first
		// word that has one (the second word overlaps the first only
		// where the first is ASCII).
		w0, w1 := buffer.ReadUint64At(b, 0), buffer.ReadUint64At(b, n-8)
		if (w0|w1)&asciiHigh == 0 {
			return true
		}
		if w0&asciiHigh != 0 {
			i = bits.TrailingZeros64(w0&asciiHigh) >> 3
		} else {
			i = n - 8 + bits.TrailingZeros64(w1&asciiHigh)>>3
		}
		goto rest
	case n <= 32:
		w0, w1 := buffer.ReadUint64At(b, 0), buffer.ReadUint64At(b, 8)
		w2, w3 := buffer.ReadUint64At(b, n-16), buffer.ReadUint64At(b, n-8)
		switch {
		case (w0|w1|w2|w3)&asciiHigh == 0:
			return true
		case w0&asciiHigh != 0:
			i = bits.TrailingZeros64(w0&asciiHigh) >> 3
		case w1&asciiHigh != 0:
			i = 8 + bits.TrailingZeros64(w1&asciiHigh)>>3
		case w2&asciiHigh != 0:
			i = n - 16 + bits.TrailingZeros64(w2&asciiHigh)>>3
		default:
			i = n - 8 + bits.TrailingZeros64(w3&asciiHigh)>>3
		}
		goto rest
	case n <= 64:
		if (or32(b, 0)|or32(b, n-32))&asciiHigh == 0 {
			return true
		}
	default:
		for end := n - 64; i < end; i += 64 {
			if (or32(b, i)|or32(b, i+32))&asciiHigh != 0 {
				goto find
			}
		}
		if (or32(b, n-64)|or32(b, n-32))&asciiHigh == 0 {
			return true
		}
	}
find:
	// b[:i] is ASCII, b has at least 8 bytes and one at i or later is not
	// ASCII: find it a word at a time.
	for ; i < n-8; i += 8 {
		if w := buffer.ReadUint64At(b, i) & asciiHigh; w != 0 {
			i += bits.TrailingZeros64(w) >> 3
			goto rest
		}
	}
	i = n - 8 + bits.TrailingZeros64(buffer.ReadUint64At(b, n-8)&asciiHigh)>>3
rest:
	// b[i] is the first byte that is not ASCII. The rest is walked by
	// index: a character's length is checked against n once and its
	// bytes are then read without bounds checks, so that validUTF8 needs
	// no stack frame (BenchmarkSerialize/MediaContent: re-slicing b and
	// the checked reads cost about a third of a 3-byte character; a table
	// of lead bytes, as utf8.Valid has, cost 40 % more a 2-byte character
	// in BenchmarkStrings/Decode/e-1M than these compares).
	for i < n {
		p := unsafe.Add(unsafe.Pointer(unsafe.SliceData(b)), i)
		c := *(*byte)(p)
		if c < utf8.RuneSelf {
			// ASCII after a multi-byte character: skip runs of it a word,
			// then 64 bytes, at a time (BenchmarkStrings/Decode/lead-e-1M).
			i++
			if n-i >= 8 && buffer.ReadUint64At(b, i)&asciiHigh == 0 {
				i += 8
				for n-i >= 64 && (or32(b, i)|or32(b, i+32))&asciiHigh == 0 {
					i += 64
				}
				for n-i >= 8 && buffer.ReadUint64At(b, i)&asciiHigh == 0 {
					i += 8
				}
			}
			continue
		}
		// lo and hi bound the second byte (RFC 3629 §4: no overlong form,
		// no surrogate, nothing above U+10FFFF), which is in range when
		// b1-lo <= hi-lo (one unsigned compare); later bytes are 0x80-0xbf.
		lo, hi := byte(0x80), byte(0xbf)
		switch {
		case c < 0xc2:
			return false // a continuation byte, or an overlong 2-byte form
		case c < 0xe0:
			if n-i < 2 || *(*byte)(unsafe.Add(p, 1))&0xc0 != 0x80 {
				return false
			}
			i += 2
			continue
		case c < 0xf0:
			switch c {
			case 0xe0:
				lo = 0xa0
			case 0xed:
				hi = 0x9f
			}
			if n-i < 3 || *(*byte)(unsafe.Add(p, 1))-lo > hi-lo || *(*byte)(unsafe.Add(p, 2))&0xc0 != 0x80 {
				return false
			}
			i += 3
			continue
		case c == 0xf0:
			lo = 0x90
		case c == 0xf4:
			hi = 0x8f
		case c > 0xf4:
			return false
		}
		if n-i < 4 || *(*byte)(unsafe.Add(p, 1))-lo > hi-lo ||
			*(*byte)(unsafe.Add(p, 2))&0xc0 != 0x80 || *(*byte)(unsafe.Add(p, 3))&0xc0 != 0x80 {
			return false
		}
		i += 4
	}
	return true
}

// asciiHigh is the high bit of every byte of a word: a word of ASCII
// bytes has none of them.
const asciiHigh = 0x8080808080808080

// or32 is the OR of the four words at b[i:i+32], which must exist: its
// high bits are asciiHigh's only if one of the bytes is not ASCII.
func or32(b []byte, i int) uint64 {
	return buffer.ReadUint64At(b, i) | buffer.ReadUint64At(b, i+8) |
		buffer.ReadUint64At(b, i+16) | buffer.ReadUint64At(b, i+24)
}

// readStringSlow is ReadString for headers of more than one byte, other
// encodings, invalid input and errors.
func (c *ReadContext) readStringSlow(h uint64) string {
	if h>>36 != 0 && c.r.Err() == nil {
		c.r.Fail(malformed("string header %d too large", h))
		return ""
	}
	// Compared as uint64 before the conversion: on 32-bit platforms int
	// would truncate a length of 2^32 bytes or more.
	if h>>meta.StringLenShift > uint64(c.r.Remaining()) {
		if c.r.Err() == nil {
			c.r.Fail(shortInput("string of %d bytes exceeds the %d remaining bytes", h>>meta.StringLenShift, c.r.Remaining()))
		}
		return ""
	}
	n := int(h >> meta.StringLenShift)
	raw := c.r.ReadBytes(n)
	if c.r.Err() != nil {
		return ""
	}
	switch h & meta.StringEncMask {
	case meta.StringUTF8:
		if !c.skipUTF8 && !validUTF8(raw) {
			c.r.Fail(malformed("invalid UTF-8 in a string"))
			return ""
		}
		if c.strMode == stringsAlias {
			return unsafe.String(unsafe.SliceData(raw), len(raw))
		}
		if !c.charge(uint64(n), 1) {
			return ""
		}
		return c.ownString(raw)
	case meta.StringLatin1:
		ascii := true
		for _, b := range raw {
			if b >= utf8.RuneSelf {
				ascii = false
				break
			}
		}
		if ascii {
			// ASCII is the same in LATIN1 and UTF-8.
			if c.strMode == stringsAlias {
				return unsafe.String(unsafe.SliceData(raw), len(raw))
			}
			if !c.charge(uint64(n), 1) {
				return ""
			}
			return c.ownString(raw)
		}
		// A rune per byte, then up to 2 UTF-8 bytes per rune.
		if !c.charge(uint64(n), 4+2) {
			return ""
		}
		rs := make([]rune, len(raw))
		for i, b := range raw {
			rs[i] = rune(b)
		}
		return string(rs)
	case meta.StringUTF16LE:
		if n%2 != 0 {
			c.r.Fail(malformed("UTF-16 string of odd byte length %d", n))
			return ""
		}
		// Per 2 input bytes: a uint16, a rune, and up to 3 UTF-8 bytes.
		if !c.charge(uint64(n/2), 2+4+3) {
			return ""
		}
		u := make([]uint16, n/2)
		for i := range u {
			u[i] = uint16(raw[2*i]) | uint16(raw[2*i+1])<<8
		}
		if !c.skipUTF8 && !wellFormedUTF16(u) {
			c.r.Fail(malformed("invalid UTF-16 in a string (an unpaired surrogate)"))
			return ""
		}
		return string(utf16.Decode(u))
	}
	c.r.Fail(malformed("unknown string encoding %d", h&meta.StringEncMask))
	return ""
}

// wellFormedUTF16 reports whether u has no unpaired surrogate: every high
// surrogate is followed by a low one and no low one stands alone. U+FFFD
// itself is a valid character.
func wellFormedUTF16(u []uint16) bool {
	for i := 0; i < len(u); i++ {
		switch c := u[i]; {
		case c >= 0xd800 && c < 0xdc00:
			if i+1 == len(u) || u[i+1] < 0xdc00 || u[i+1] >= 0xe000 {
				return false
			}
			i++
		case c >= 0xdc00 && c < 0xe000:
			return false
		}
	}
	return true
}

// ReadBinary reads a length-prefixed byte run (BINARY and dense arrays of
// bytes, §8.2) and returns a copy, or with WithZeroCopy a view of the
// input whose capacity ends at its length.
func (c *ReadContext) ReadBinary() []byte {
	n := c.ReadLength(1)
	raw := c.r.ReadBytes(n)
	if c.r.Err() != nil {
		return nil
	}
	if n > 0 && c.opts.ZeroCopy {
		return raw
	}
	if !c.charge(uint64(n), 1) {
		return nil
	}
	if out := c.blockCopy(raw); out != nil {
		return out
	}
	out := make([]byte, n)
	copy(out, raw)
	return out
}

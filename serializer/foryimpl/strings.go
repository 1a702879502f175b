package foryimpl

import (
	"math/bits"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"

	"github.com/forygen/forygen/buffer"
)

// String encodings in a string header (docs/format.md §7).
const (
	strLatin1  = 0
	strUTF16LE = 1
	strUTF8    = 2
)

// ReadString reads a string (§7): LATIN1, UTF-16LE or UTF-8. UTF-8 is
// validated unless WithUTF8Validation(false); the bytes are copied unless
// WithAliasStrings(true).
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
		if n := int(h >> 2); h&3 == strUTF8 && n <= len(in)-start && uint64(n) <= c.budget {
			if n == 0 {
				c.r.SetOffset(start)
				return ""
			}
			// n > 0 and n <= len(in)-start, so in[start] exists.
			raw := unsafe.Slice(&in[start], n)
			if c.skipUTF8 || validUTF8(raw) {
				c.r.SetOffset(start + n)
				if c.alias {
					return unsafe.String(&in[start], n)
				}
				c.budget -= uint64(n)
				return string(raw)
			}
		}
	}
general:
	return c.readStringSlow(c.r.ReadVarUint64())
}

// validUTF8 is utf8.Valid with a word-at-a-time scan of the ASCII prefix,
// which is most of most strings (BenchmarkDeserialize/MediaContent spent
// more in utf8.Valid than in any other function). utf8.Valid sees only the
// bytes from the first non-ASCII one.
func validUTF8(b []byte) bool {
	const high = 0x8080808080808080
	n := len(b)
	if n < 8 {
		for i := 0; i < n; i++ {
			if b[i] >= utf8.RuneSelf {
				return utf8.Valid(b[i:])
			}
		}
		return true
	}
	i := 0
	for ; i < n-8; i += 8 {
		if w := buffer.ReadUint64At(b, i) & high; w != 0 {
			return utf8.Valid(b[i+bits.TrailingZeros64(w)>>3:])
		}
	}
	// The last word overlaps the previous one instead of a byte loop; it
	// starts inside the all-ASCII prefix, so at a character boundary.
	if w := buffer.ReadUint64At(b, n-8) & high; w != 0 {
		return utf8.Valid(b[n-8+bits.TrailingZeros64(w)>>3:])
	}
	return true
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
	if h>>2 > uint64(c.r.Remaining()) {
		if c.r.Err() == nil {
			c.r.Fail(shortInput("string of %d bytes exceeds the %d remaining bytes", h>>2, c.r.Remaining()))
		}
		return ""
	}
	n := int(h >> 2)
	raw := c.r.ReadBytes(n)
	if c.r.Err() != nil {
		return ""
	}
	switch h & 3 {
	case strUTF8:
		if !c.skipUTF8 && !validUTF8(raw) {
			c.r.Fail(malformed("invalid UTF-8 in a string"))
			return ""
		}
		if c.alias {
			return unsafe.String(unsafe.SliceData(raw), len(raw))
		}
		if !c.charge(uint64(n), 1) {
			return ""
		}
		return string(raw)
	case strLatin1:
		ascii := true
		for _, b := range raw {
			if b >= utf8.RuneSelf {
				ascii = false
				break
			}
		}
		if ascii {
			if !c.charge(uint64(n), 1) {
				return ""
			}
			return string(raw)
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
	case strUTF16LE:
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
	c.r.Fail(malformed("unknown string encoding %d", h&3))
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
// bytes, §8.2) and returns a copy.
func (c *ReadContext) ReadBinary() []byte {
	n := c.ReadLength(1)
	raw := c.r.ReadBytes(n)
	if c.r.Err() != nil || !c.charge(uint64(n), 1) {
		return nil
	}
	out := make([]byte, n)
	copy(out, raw)
	return out
}

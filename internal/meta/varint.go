package meta

import "encoding/binary"

// appendVarU32 appends v as unsigned LEB128 (docs/format.md §3 varu32).
func appendVarU32(dst []byte, v uint32) []byte {
	for v >= 0x80 {
		dst = append(dst, byte(v)|0x80)
		v >>= 7
	}
	return append(dst, byte(v))
}

// readVarU32 decodes a varu32 from the start of b. It returns the value and
// the number of bytes used, or n == 0 when b ends inside the varint and n < 0
// when the varint is longer than 5 bytes or does not fit in 32 bits.
// Over-long but in-range encodings (80 00) are accepted, as other Fory
// readers accept them; the TypeDef hash does not cover the size varint, so
// strictness there would buy nothing.
func readVarU32(b []byte) (v uint32, n int) {
	for i := 0; i < 5; i++ {
		if i >= len(b) {
			return 0, 0
		}
		c := b[i]
		if i == 4 && c > 0x0f {
			return 0, -1
		}
		v |= uint32(c&0x7f) << (7 * i)
		if c < 0x80 {
			return v, i + 1
		}
	}
	return 0, -1
}

func appendU64LE(dst []byte, v uint64) []byte {
	return binary.LittleEndian.AppendUint64(dst, v)
}

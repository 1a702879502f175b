package meta

import (
	"encoding/binary"
	"math/bits"
)

const (
	murmurC1 = 0x87c37b91114253d5
	murmurC2 = 0x4cf5ad432745937f

	// hashSeed is the seed Fory uses for every MurmurHash3 it computes: the
	// schema hash (§10.1), the TypeDef header hash (§11.1) and the hash of
	// long inline meta strings (§6.3).
	hashSeed = 47
)

// Murmur3x64_128 is the standard MurmurHash3_x64_128 of data and returns both
// 64-bit lanes (h1 is the first 8 bytes of the canonical 16-byte digest, read
// little-endian). The reference algorithm takes a 32-bit seed and starts both
// lanes at it; a 64-bit seed here starts both lanes at the full value, which
// is the same thing for every seed below 2^32 (Fory only uses 47).
func Murmur3x64_128(data []byte, seed uint64) (h1, h2 uint64) {
	s := murmurState{h1: seed, h2: seed}
	tail := s.blocks(data)
	return s.finish(tail, len(data))
}

// murmur3WithSuffix2 hashes data‖b0‖b1 with seed 47 without building the
// concatenation. The TypeDef header hash (§11.1) covers the body followed by
// the two bytes of the header's low 12 bits; the runtime verifies it for
// every new TypeDef it receives, so avoiding a copy of the body matters.
func murmur3WithSuffix2(data []byte, b0, b1 byte) (h1, h2 uint64) {
	s := murmurState{h1: hashSeed, h2: hashSeed}
	rest := s.blocks(data) // 0..15 bytes
	var buf [17]byte
	n := copy(buf[:], rest)
	buf[n] = b0
	buf[n+1] = b1
	tail := s.blocks(buf[:n+2]) // at most one more block
	return s.finish(tail, len(data)+2)
}

type murmurState struct{ h1, h2 uint64 }

// blocks mixes every full 16-byte block of data into the state and returns
// the remaining tail (fewer than 16 bytes).
func (s *murmurState) blocks(data []byte) []byte {
	h1, h2 := s.h1, s.h2
	for len(data) >= 16 {
		k1 := binary.LittleEndian.Uint64(data)
		k2 := binary.LittleEndian.Uint64(data[8:])
		data = data[16:]

		k1 *= murmurC1
		k1 = bits.RotateLeft64(k1, 31)
		k1 *= murmurC2
		h1 ^= k1
		h1 = bits.RotateLeft64(h1, 27)
		h1 += h2
		h1 = h1*5 + 0x52dce729

		k2 *= murmurC2
		k2 = bits.RotateLeft64(k2, 33)
		k2 *= murmurC1
		h2 ^= k2
		h2 = bits.RotateLeft64(h2, 31)
		h2 += h1
		h2 = h2*5 + 0x38495ab5
	}
	s.h1, s.h2 = h1, h2
	return data
}

// finish mixes the tail (< 16 bytes) and the total length, then finalizes.
func (s *murmurState) finish(tail []byte, total int) (uint64, uint64) {
	h1, h2 := s.h1, s.h2
	var k1, k2 uint64
	// Little-endian assembly of the tail: bytes 0..7 into k1, 8..14 into k2.
	for i := len(tail) - 1; i >= 8; i-- {
		k2 = k2<<8 | uint64(tail[i])
	}
	for i := min(len(tail), 8) - 1; i >= 0; i-- {
		k1 = k1<<8 | uint64(tail[i])
	}
	if len(tail) > 8 {
		k2 *= murmurC2
		k2 = bits.RotateLeft64(k2, 33)
		k2 *= murmurC1
		h2 ^= k2
	}
	if len(tail) > 0 {
		k1 *= murmurC1
		k1 = bits.RotateLeft64(k1, 31)
		k1 *= murmurC2
		h1 ^= k1
	}

	h1 ^= uint64(total)
	h2 ^= uint64(total)
	h1 += h2
	h2 += h1
	h1 = fmix64(h1)
	h2 = fmix64(h2)
	h1 += h2
	h2 += h1
	return h1, h2
}

func fmix64(k uint64) uint64 {
	k ^= k >> 33
	k *= 0xff51afd7ed558ccd
	k ^= k >> 33
	k *= 0xc4ceb9fe1a85ec53
	k ^= k >> 33
	return k
}

// SchemaHash is the same-schema struct hash of §10.1: the low 32 bits of lane
// h1 of MurmurHash3_x64_128(fingerprint, seed 47), as an int32. The
// fingerprint string itself is built by the planner (§10.1). Official Go
// refuses to use a hash of 0; that (astronomically rare) case is the caller's
// to report.
func SchemaHash(fingerprint string) int32 {
	h1, _ := Murmur3x64_128([]byte(fingerprint), hashSeed)
	return int32(uint32(h1))
}

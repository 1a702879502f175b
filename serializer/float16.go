package serializer

import "math"

// Float16 is an IEEE 754 half-precision value held as its bits, Fory's
// FLOAT16, like official Fory Go's float16.Float16. A field of this type is
// written as its two bytes; []Float16 is a LIST, or a FLOAT16_ARRAY with
// `fory:"type=array(element=float16)"`.
type Float16 uint16

// Float16FromFloat32 rounds f to the nearest half-precision value, ties to
// even. Values beyond ±65504 round to ±Inf, tiny ones to subnormals or ±0;
// NaN stays NaN.
func Float16FromFloat32(f float32) Float16 {
	b := math.Float32bits(f)
	sign := uint16(b>>16) & 0x8000
	exp := int(b>>23) & 0xff
	mant := b & 0x7fffff
	if exp == 0xff {
		if mant != 0 {
			return Float16(sign | 0x7e00 | uint16(mant>>13)) // a quiet NaN
		}
		return Float16(sign | 0x7c00)
	}
	e := exp - 127 + 15
	switch {
	case e >= 0x1f:
		return Float16(sign | 0x7c00)
	case e <= 0:
		// A subnormal half: the significand with its implicit bit, shifted.
		if e < -10 {
			return Float16(sign)
		}
		m := mant | 0x800000
		shift := uint(14 - e)
		r, rem, half := m>>shift, m&(1<<shift-1), uint32(1)<<(shift-1)
		if rem > half || rem == half && r&1 == 1 {
			r++
		}
		return Float16(sign | uint16(r))
	}
	r := uint16(e)<<10 | uint16(mant>>13)
	if rem := mant & 0x1fff; rem > 0x1000 || rem == 0x1000 && r&1 == 1 {
		r++ // may carry into the exponent, up to Inf: still correct
	}
	return Float16(sign | r)
}

// Float16FromBits returns the half-precision value with the given bits.
func Float16FromBits(bits uint16) Float16 { return Float16(bits) }

// Bits returns h's IEEE 754 bits.
func (h Float16) Bits() uint16 { return uint16(h) }

// Float32 returns h as a float32, exactly.
func (h Float16) Float32() float32 {
	sign := uint32(h&0x8000) << 16
	exp := uint32(h>>10) & 0x1f
	mant := uint32(h) & 0x3ff
	switch {
	case exp == 0x1f:
		return math.Float32frombits(sign | 0x7f800000 | mant<<13)
	case exp == 0:
		if mant == 0 {
			return math.Float32frombits(sign)
		}
		e := uint32(127 - 15 + 1)
		for mant&0x400 == 0 {
			mant <<= 1
			e--
		}
		return math.Float32frombits(sign | e<<23 | (mant&0x3ff)<<13)
	}
	return math.Float32frombits(sign | (exp+127-15)<<23 | mant<<13)
}

// IsNaN reports whether h is a NaN.
func (h Float16) IsNaN() bool { return h&0x7c00 == 0x7c00 && h&0x3ff != 0 }

// BFloat16 is a bfloat16 value (the top half of a float32) held as its bits,
// Fory's BFLOAT16, like official Fory Go's bfloat16.BFloat16. []BFloat16 is a
// LIST, or a BFLOAT16_ARRAY with `fory:"type=array(element=bfloat16)"`.
type BFloat16 uint16

// BFloat16FromFloat32 rounds f to the nearest bfloat16, ties to even; NaN
// stays NaN.
func BFloat16FromFloat32(f float32) BFloat16 {
	b := math.Float32bits(f)
	if b&0x7f800000 == 0x7f800000 && b&0x7fffff != 0 {
		return BFloat16(b>>16 | 0x40) // a quiet NaN, whatever the payload
	}
	return BFloat16((b + 0x7fff + b>>16&1) >> 16)
}

// BFloat16FromBits returns the bfloat16 with the given bits.
func BFloat16FromBits(bits uint16) BFloat16 { return BFloat16(bits) }

// Bits returns b's bits.
func (b BFloat16) Bits() uint16 { return uint16(b) }

// Float32 returns b as a float32, exactly.
func (b BFloat16) Float32() float32 { return math.Float32frombits(uint32(b) << 16) }

// IsNaN reports whether b is a NaN.
func (b BFloat16) IsNaN() bool { return b&0x7f80 == 0x7f80 && b&0x7f != 0 }

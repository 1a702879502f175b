package foryimpl

import (
	"math/big"
	"math/bits"
	"strconv"

	"github.com/forygen/forygen/buffer"
)

// The DECIMAL limits every Fory implementation applies (official Go's
// maxDecimalScale and maxDecimalMagnitudeBytes).
const (
	maxDecimalScale = 10_000
	maxDecimalBytes = 10_000
)

// CheckDecimal is the error for a decimal no reader would accept, or nil.
func CheckDecimal(t *TypeInfo, field string, unscaled *big.Int, scale int32) error {
	switch {
	case scale < -maxDecimalScale || scale > maxDecimalScale:
		return &EncodeError{Type: t.GoName, Path: field, Err: &detail{sentinel: ErrInvalidValue,
			msg: "decimal scale " + strconv.Itoa(int(scale)) + " outside [-10000, 10000]"}}
	case unscaled.BitLen() > maxDecimalBytes*8:
		return &EncodeError{Type: t.GoName, Path: field, Err: &detail{sentinel: ErrInvalidValue,
			msg: "decimal magnitude of more than 10000 bytes"}}
	}
	return nil
}

// WriteDecimal writes a DECIMAL (docs/format.md §12): the scale as a
// zigzag varint, then either varu64(zigzag(unscaled) << 1) when that zigzag
// fits 63 bits, or varu64((len << 2) | (sign << 1) | 1) and the magnitude's
// len bytes, least significant first.
func WriteDecimal(b *buffer.Buffer, unscaled *big.Int, scale int32) {
	b.WriteVarInt32(scale)
	if unscaled.IsInt64() {
		if z := buffer.ZigZag64(unscaled.Int64()); z>>63 == 0 {
			b.WriteVarUint64(z << 1)
			return
		}
	}
	mag := unscaled.Bits() // little-endian words of the magnitude
	n := (unscaled.BitLen() + 7) / 8
	sign := uint64(0)
	if unscaled.Sign() < 0 {
		sign = 1
	}
	b.WriteVarUint64(uint64(n)<<2 | sign<<1 | 1)
	b.Reserve(n)
	w, off := b.Window(), b.WriterIndex()
	for i := 0; i < n; i++ {
		w[off+i] = byte(mag[i/(bits.UintSize/8)] >> (8 * (i % (bits.UintSize / 8))))
	}
	b.SetWriterIndex(off + n)
}

// skipDecimal steps over a DECIMAL.
func (c *ReadContext) skipDecimal() {
	var u big.Int
	c.ReadDecimal(&u)
}

// ReadDecimal reads a DECIMAL into u and returns its scale. A scale outside
// [-10000, 10000], a magnitude longer than 10000 bytes, a magnitude with a
// trailing zero byte or one that is zero in the long form is malformed, as
// official Go refuses them.
func (c *ReadContext) ReadDecimal(u *big.Int) int32 {
	scale := c.r.ReadVarInt32()
	h := c.r.ReadVarUint64()
	if c.r.Err() != nil {
		return 0
	}
	if scale < -maxDecimalScale || scale > maxDecimalScale {
		c.r.Fail(malformed("decimal scale %d outside [-10000, 10000]", scale))
		return 0
	}
	if h&1 == 0 {
		u.SetInt64(buffer.UnZigZag64(h >> 1))
		return scale
	}
	n := h >> 2
	switch {
	case n == 0 || n > maxDecimalBytes:
		c.r.Fail(malformed("decimal magnitude of %d bytes", n))
		return 0
	case n > uint64(c.r.Remaining()):
		c.r.Fail(shortInput("decimal magnitude of %d bytes exceeds the %d remaining bytes", n, c.r.Remaining()))
		return 0
	}
	raw := c.r.ReadBytes(int(n))
	if raw[len(raw)-1] == 0 {
		c.r.Fail(malformed("decimal magnitude with a trailing zero byte"))
		return 0
	}
	if !c.charge(1, allocSize(n)) {
		return 0
	}
	be := make([]byte, n)
	for i, x := range raw {
		be[len(be)-1-i] = x
	}
	u.SetBytes(be)
	if h&2 != 0 {
		u.Neg(u)
	}
	return scale
}

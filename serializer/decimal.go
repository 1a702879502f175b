package serializer

import (
	"math/big"
	"strconv"
	"strings"
)

// Decimal is Fory's DECIMAL, like official Fory Go's fory.Decimal: the exact
// value Unscaled × 10^-Scale. An unscaled value whose zigzag form fits 63
// bits is written as one varint, a larger one as its magnitude's bytes.
// Fory accepts scales in [-10000, 10000] and magnitudes up to 10000 bytes;
// Serialize refuses others with an EncodeError.
type Decimal struct {
	Unscaled big.Int
	Scale    int32
}

// NewDecimal returns unscaled × 10^-scale; unscaled is copied, and nil is 0.
func NewDecimal(unscaled *big.Int, scale int32) Decimal {
	var d Decimal
	if unscaled != nil {
		d.Unscaled.Set(unscaled)
	}
	d.Scale = scale
	return d
}

// Equal reports whether d and other have the same unscaled value and scale
// (1.0 with scale 1 and 1 with scale 0 are not Equal).
func (d *Decimal) Equal(other *Decimal) bool {
	return d.Scale == other.Scale && d.Unscaled.Cmp(&other.Unscaled) == 0
}

// String formats d in decimal notation: 123.45 for 12345 with scale 2,
// 5E+3 for 5 with scale -3.
func (d *Decimal) String() string {
	digits := new(big.Int).Abs(&d.Unscaled).String()
	sign := ""
	if d.Unscaled.Sign() < 0 {
		sign = "-"
	}
	switch {
	case d.Scale == 0:
		return sign + digits
	case d.Scale < 0:
		return sign + digits + "E+" + strconv.Itoa(int(-d.Scale))
	}
	scale := int(d.Scale)
	if len(digits) <= scale {
		digits = strings.Repeat("0", scale-len(digits)+1) + digits
	}
	return sign + digits[:len(digits)-scale] + "." + digits[len(digits)-scale:]
}

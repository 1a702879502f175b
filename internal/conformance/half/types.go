// Package half declares the types of the float16/bfloat16 cases of
// internal/testdata/xlang-fixtures-2, as official Fory Go declared them with
// float16.Float16 and bfloat16.BFloat16 (serializer.Float16 and
// serializer.BFloat16 here).
package half

//go:generate go run github.com/forygen/forygen/cmd/forygen

import "github.com/forygen/forygen/serializer"

// HalfFloats is case float16_bfloat16.
//
//fory:generate id=213
type HalfFloats struct {
	F16      serializer.Float16
	BF16     serializer.BFloat16
	F16Neg   serializer.Float16
	BF16Neg  serializer.BFloat16
	F16Max   serializer.Float16
	F16Tiny  serializer.Float16
	F16Inf   serializer.Float16
	F16NaN   serializer.Float16
	F16List  []serializer.Float16
	BF16List []serializer.BFloat16
	F16Arr   []serializer.Float16  `fory:"type=array(element=float16)"`
	BF16Arr  []serializer.BFloat16 `fory:"type=array(element=bfloat16)"`
	F16Ptr   *serializer.Float16
}

// BFloat16Ptr is cases bfloat16_pointer_set and bfloat16_pointer_nil.
//
//fory:generate id=224
type BFloat16Ptr struct {
	Count int32
	Value *serializer.BFloat16
	Other *serializer.Float16
}

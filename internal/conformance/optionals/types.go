// Package optionals declares the optional case of
// internal/testdata/xlang-fixtures-2 as official Fory Go declared it with
// optional.Optional (serializer.Optional here).
package optionals

//go:generate go run github.com/forygen/forygen/cmd/forygen

import "github.com/forygen/forygen/serializer"

// Optionals is case optional_fields.
//
//fory:generate id=222
type Optionals struct {
	I32     serializer.Optional[int32]
	I64     serializer.Optional[int64]
	Str     serializer.Optional[string]
	Flag    serializer.Optional[bool]
	F64     serializer.Optional[float64]
	NoneI32 serializer.Optional[int32]
	NoneStr serializer.Optional[string]
}

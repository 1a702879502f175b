// Package decimals declares the DECIMAL case of
// internal/testdata/xlang-fixtures-2 as official Fory Go declared it with
// fory.Decimal (serializer.Decimal here).
package decimals

//go:generate go run github.com/forygen/forygen/cmd/forygen

import "github.com/forygen/forygen/serializer"

// Decimals is case decimal_fields.
//
//fory:generate id=214
type Decimals struct {
	Zero     serializer.Decimal
	Price    serializer.Decimal
	Negative serializer.Decimal
	Huge     serializer.Decimal
	NegHuge  serializer.Decimal
	Scaled   serializer.Decimal
	Ptr      *serializer.Decimal
	NilPtr   *serializer.Decimal
	List     []serializer.Decimal
}

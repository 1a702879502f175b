// Package skips declares, for golden files of internal/testdata/xlang-fixtures-2,
// local versions of their structs that lack most fields: a compatible-mode
// reader must skip what official Go wrote for the missing fields (unions,
// any values, sets, 16-bit floats, decimals, optionals, big maps) and read
// the rest.
package skips

//go:generate go run github.com/forygen/forygen/cmd/forygen

import "github.com/forygen/forygen/serializer"

// PetOwner is case union_field_*'s PetOwner without its union field Pet.
//
//fory:generate id=217
type PetOwner struct {
	Name string `fory:"id=1"`
}

// AnyHolder is case any_fields's AnyHolder without any of its nine any
// fields, and one field the writer lacks.
//
//fory:generate id=219
type AnyHolder struct {
	Extra int32
}

// AnyList is case any_list's AnyList without Items ([]any).
//
//fory:generate id=220
type AnyList struct {
	Extra int32
}

// AnyMap is case any_map's AnyMap without Entries (map[string]any).
//
//fory:generate id=221
type AnyMap struct {
	Extra int32
}

// SetHolder is case set_fields's SetHolder with only Ints.
//
//fory:generate id=211
type SetHolder struct {
	Ints serializer.Set[int32]
}

// SetMulti is case set_fields_multi's SetMulti with only Codes.
//
//fory:generate id=212
type SetMulti struct {
	Codes serializer.Set[int32]
}

// HalfFloats is case float16_bfloat16's HalfFloats with only F16 and
// BF16Neg: the reader skips FLOAT16, BFLOAT16, their lists, their dense
// arrays and a nullable FLOAT16.
//
//fory:generate id=213
type HalfFloats struct {
	F16     serializer.Float16
	BF16Neg serializer.BFloat16
}

// Decimals is case decimal_fields's Decimals with only Price: the reader
// skips small and big decimals, a pointer, a nil pointer and a list.
//
//fory:generate id=214
type Decimals struct {
	Price serializer.Decimal
}

// Optionals is case optional_fields's Optionals with only Str.
//
//fory:generate id=222
type Optionals struct {
	Str serializer.Optional[string]
}

// BigMaps is case big_maps_struct_fields's BigMaps with only I32ToStr: the
// reader skips three maps of 300 entries.
//
//fory:generate id=223
type BigMaps struct {
	I32ToStr map[int32]string
}

// Package bigmaps declares case big_maps_struct_fields of
// internal/testdata/xlang-fixtures-2: maps of more than 255 entries, written
// in chunks of 255 and the rest.
package bigmaps

//go:generate go run github.com/forygen/forygen/cmd/forygen

// BigMaps is case big_maps_struct_fields.
//
//fory:generate id=223
type BigMaps struct {
	I32ToI32 map[int32]int32
	StrToI64 map[string]int64
	StrToStr map[string]string
	I32ToStr map[int32]string
}

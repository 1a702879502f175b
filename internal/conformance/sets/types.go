// Package sets declares the SET cases of internal/testdata/xlang-fixtures-2
// as official Fory Go declared them with fory.Set (serializer.Set here).
package sets

//go:generate go run github.com/forygen/forygen/cmd/forygen

import "github.com/forygen/forygen/serializer"

// SetHolder is case set_fields.
//
//fory:generate id=211
type SetHolder struct {
	Strings serializer.Set[string]
	Ints    serializer.Set[int32]
	Empty   serializer.Set[int64]
	Missing serializer.Set[string]
	Maybe   serializer.Set[string] `fory:"nullable"`
}

// SetMulti is case set_fields_multi.
//
//fory:generate id=212
type SetMulti struct {
	Words serializer.Set[string]
	Codes serializer.Set[int32]
}

// SetsInside holds sets as list elements and map values.
//
//fory:generate id=214
type SetsInside struct {
	List  []serializer.Set[int32]
	ByKey map[string]serializer.Set[string]
}

// Package bytefields holds []byte and []bool fields as LIST, BINARY and dense arrays (Bytes,
// id 115).
//
// Conformance cases (xlang-fixtures/manifest.json): bytes.
//
// The declarations are copied verbatim from the cases' go_types (fory.Date becomes
// serializer.Date); the fory:generate and fory:enum directives reproduce the cases'
// registrations. forygen writes types_fory.go next to this file.
package bytefields

//go:generate go run github.com/forygen/forygen/cmd/forygen

//fory:generate id=115
type Bytes struct {
	Plain []byte
	Bin   []byte  `fory:"type=bytes"`
	U8Arr []uint8 `fory:"type=array(element=uint8)"`
	Bools []bool
	BoolA []bool `fory:"type=array(element=bool)"`
}

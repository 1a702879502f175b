// Package benchlongns holds NumericStruct registered as
// "org.apache.fory.benchmarks.xlang.NumericStruct": the namespace meta string is longer than
// 16 bytes, so same-schema type meta carries its 8-byte hash.
//
// Conformance cases (xlang-fixtures/manifest.json): numeric_struct_name_long_namespace.
//
// The declarations are copied verbatim from the cases' go_types (fory.Date becomes
// serializer.Date); the fory:generate and fory:enum directives reproduce the cases'
// registrations. forygen writes types_fory.go next to this file.
package benchlongns

//go:generate go run github.com/forygen/forygen/cmd/forygen

//fory:generate name=org.apache.fory.benchmarks.xlang.NumericStruct
type NumericStruct struct {
	F1  int32 `fory:"id=1"`
	F2  int32 `fory:"id=2"`
	F3  int32 `fory:"id=3"`
	F4  int32 `fory:"id=4"`
	F5  int32 `fory:"id=5"`
	F6  int32 `fory:"id=6"`
	F7  int32 `fory:"id=7"`
	F8  int32 `fory:"id=8"`
	F9  int32 `fory:"id=9"`
	F10 int32 `fory:"id=10"`
	F11 int32 `fory:"id=11"`
	F12 int32 `fory:"id=12"`
}

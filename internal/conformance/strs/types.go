// Package strs holds a struct of strings (Strings, id 101), read from UTF-8 and from
// LATIN1/UTF16 payloads.
//
// Conformance cases (xlang-fixtures/manifest.json): strings, strings_non_utf8_wire.
//
// The declarations are copied verbatim from the cases' go_types (fory.Date becomes
// serializer.Date); the fory:generate and fory:enum directives reproduce the cases'
// registrations. forygen writes types_fory.go next to this file.
package strs

//go:generate go run github.com/forygen/forygen/cmd/forygen

//fory:generate id=101
type Strings struct {
	Empty  string
	ASCII  string
	Latin1 string
	CJK    string
	Emoji  string
}

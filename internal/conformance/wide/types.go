// Package wide holds a 34-field struct that needs the TypeDef field-count and body-size
// escapes (Wide, id 118).
//
// Conformance cases (xlang-fixtures/manifest.json): wide.
//
// The declarations are copied verbatim from the cases' go_types (fory.Date becomes
// serializer.Date); the fory:generate and fory:enum directives reproduce the cases'
// registrations. forygen writes types_fory.go next to this file.
package wide

//go:generate go run github.com/forygen/forygen/cmd/forygen

//fory:generate id=118
type Wide struct {
	FieldNumber01                            int32
	FieldNumber02                            int32
	FieldNumber03                            int32
	FieldNumber04                            int32
	FieldNumber05                            int32
	FieldNumber06                            int32
	FieldNumber07                            int32
	FieldNumber08                            int32
	FieldNumber09                            int32
	FieldNumber10                            int32
	FieldNumber11                            int32
	FieldNumber12                            int32
	FieldNumber13                            int32
	FieldNumber14                            int32
	FieldNumber15                            int32
	FieldNumber16                            int32
	FieldNumber17                            int32
	FieldNumber18                            int32
	FieldNumber19                            int32
	FieldNumber20                            int32
	FieldNumber21                            int32
	FieldNumber22                            int32
	FieldNumber23                            int32
	FieldNumber24                            int32
	FieldNumber25                            int32
	FieldNumber26                            int32
	FieldNumber27                            int32
	FieldNumber28                            int32
	FieldNumber29                            int32
	FieldNumber30                            int32
	FieldNumber31                            int32
	FieldNumber32                            int32
	AVeryLongFieldNameThatNeedsTheSizeEscape string `fory:"id=40"`
	AnotherQuiteLongFieldNameWithoutAnyTag   string
}

// Package other holds generated types that the e2e package uses as fields,
// to show that generated code refers to another package's type information
// (issue 3, item 3: "generated types from other packages").
package other

//go:generate go run github.com/forygen/forygen/cmd/forygen

// Status is an enum registered by id, used as a field type from package e2e.
//
//fory:enum id=902
type Status int32

// Status values.
const (
	StatusUnknown Status = iota
	StatusActive
	StatusRetired
)

// Address is a generated struct used by value, by pointer, in lists and as
// a map value from package e2e.
//
//fory:generate id=901
type Address struct {
	Street string
	Zip    int32
	Lines  []string
	Status Status
}

// Tag is registered by name, to cover named registrations across packages.
//
//fory:generate name=other.Tag
type Tag struct {
	Key   string
	Value string
}

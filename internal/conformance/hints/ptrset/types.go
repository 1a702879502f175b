// Package ptrset declares case hint_set_element_ref_false of
// internal/testdata/xlang-fixtures-3, whose Leaf has another registration
// than package hints' Leaf.
package ptrset

//go:generate go run github.com/forygen/forygen/cmd/forygen

import "github.com/forygen/forygen/serializer"

// PtrSet is case hint_set_element_ref_false.
//
//fory:generate id=336
type PtrSet struct {
	Leaves serializer.Set[*Leaf] `fory:"type=set(element=_(ref=false))"`
}

// Leaf is PtrSet's element.
//
//fory:generate id=335
type Leaf struct {
	Name string
	N    int32
}

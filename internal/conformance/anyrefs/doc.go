// Package anyrefs checks the runtime's any codec (foryimpl.WriteAny,
// ReadAny) against the reference-tracking golden files of
// internal/testdata/xlang-fixtures-2 that hold any fields: ref_tracked_kinds
// (Any1 and Any2 hold the same *Image: 00 and the Image, then fe and its
// id) and ref_nil_pointers (a nil Extra any is fd). The structs holding the
// any fields have no generated code yet, so the tests build the message
// around the calls: the root prefix from the file, then the any values.
package anyrefs

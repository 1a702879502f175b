// Package e2e is the end-to-end package of annotated types (issue 3, item
// 7): it covers every field kind the generator supports, and its tests
// round-trip them in both modes and attack the decoders with hostile input
// (issue 6). The generated code (types_fory.go) is committed.
package e2e

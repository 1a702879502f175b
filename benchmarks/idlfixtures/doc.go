// Package idlfixtures is what forygen idl writes from ../idl/bench.fdl, the
// benchmark schema (benchmarks/pb/bench.proto, the hand-annotated types of
// package fixtures) written as Fory IDL. The benchmarks compare it with
// package fixtures under the same Fory options (idl_test.go,
// instructions.sh idl; benchmarks/PERFORMANCE.md).
package idlfixtures

//go:generate go tool forygen idl -o . ../idl/bench.fdl

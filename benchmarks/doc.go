// Package benchmarks compares forygen with protobuf (protobuf-go, with and
// without plain-struct conversion, and vtprotobuf) and msgp (map and tuple
// forms) on the six data sets of Apache Fory's cross-language benchmark and
// one small message (SmallMessage).
//
//	go test -run '^$' -bench . -benchtime 200ms        # the go test benchmarks
//	go run ./cmd/report                                 # correctness, interleaved rounds, table and chart
//
// The fixtures and generated code are in package fixtures, the protobuf twins
// in package pb, and the codecs the tests, benchmarks and report share in
// internal/codecs. README.md has the results.
package benchmarks

// Package pb holds the protobuf twins of the benchmark fixtures: bench.proto
// and the code protoc-gen-go (bench.pb.go) and protoc-gen-go-vtproto
// (bench_vtproto.pb.go; features marshal, unmarshal, size and pool, the pool
// feature on for every message, for ResetVT) generate from it. The generated files are committed so that building and testing never
// need protoc; gen.sh regenerates them and names the tool versions.
package pb

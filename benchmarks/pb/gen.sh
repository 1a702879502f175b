#!/usr/bin/env bash
# Regenerates bench.pb.go and bench_vtproto.pb.go from bench.proto. The
# generated files are committed, so building and testing never need protoc;
# CI does not run this script.
#
# Tools (the versions the committed files were generated with):
#   apt-get update && apt-get install -y protobuf-compiler        # protoc 3.21.12 (Debian 12)
#   go install google.golang.org/protobuf/cmd/protoc-gen-go@v1.36.12
#   go install github.com/planetscale/vtprotobuf/cmd/protoc-gen-go-vtproto@v0.6.0
# The plugins must be on PATH (go install puts them in $(go env GOPATH)/bin).
#
# The vtprotobuf pool feature is on for every message (pool=<import path>.*):
# it generates ResetVT, which resets a message but keeps its repeated fields'
# backing arrays (and resets their elements in place), so the benchmarks'
# vtprotobuf reuse cell decodes into a reused message with ResetVT() +
# UnmarshalVT, reusing slices as forygen and msgp do. It also generates
# <Message>FromVTPool and ReturnToVTPool (sync.Pool), which the benchmarks
# do not call (ResetVT returns a singular sub-message such as
# MediaContent.media to its pool; UnmarshalVT takes it back from there).
#
# Run from anywhere: benchmarks/pb/gen.sh
set -euo pipefail
cd "$(dirname "$0")"
PATH="$(go env GOPATH)/bin:$PATH"
protoc --proto_path=. \
  --go_out=. --go_opt=paths=source_relative \
  --go-vtproto_out=. --go-vtproto_opt=paths=source_relative \
  --go-vtproto_opt=features=marshal+unmarshal+size+pool \
  "--go-vtproto_opt=pool=github.com/forygen/forygen/benchmarks/pb.*" \
  bench.proto
gofmt -l . | (! grep .) # generated code must already be gofmt-clean

#!/usr/bin/env bash
# Regenerates media.pb.go from media.proto. The generated file is committed,
# so building and testing never need protoc.
#
# Tools (the versions the committed file was generated with):
#   apt-get update && apt-get install -y protobuf-compiler        # protoc 3.21.12 (Debian 12)
#   go install google.golang.org/protobuf/cmd/protoc-gen-go@v1.36.12
set -euo pipefail
cd "$(dirname "$0")"
PATH="$(go env GOPATH)/bin:$PATH"
protoc --proto_path=. --go_out=. --go_opt=paths=source_relative media.proto
gofmt -l . | (! grep .) # generated code must already be gofmt-clean

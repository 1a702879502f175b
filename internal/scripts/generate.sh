#!/usr/bin/env bash
# Regenerates (or, with -check, checks) buffer/bulk_gen.go and the generated
# code of every package of the repository that declares annotated types, one forygen run per
# package: a run refuses two types with one registration id, and the test
# packages reuse ids across packages on purpose.
#
#   internal/scripts/generate.sh          # rewrite stale files
#   internal/scripts/generate.sh -check   # write nothing; exit 1 with a diff if any file is stale,
#                                         # or if a package's types break its committed fory.lock
#   internal/scripts/generate.sh -lock    # rewrite the fory.lock of every package of the root
#                                         # module: accept the current schemas (see docs/schema.md)
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=$(mktemp -d)/forygen
trap 'rm -rf "$(dirname "$bin")"' EXIT
go build -o "$bin" ./cmd/forygen
status=0
run() { # module dir, packages...
	local dir=$1
	shift
	for p in "$@"; do
		(cd "$dir" && "$bin" ${check:-} "$p") || status=1
	done
}
check=${1:-}
mapfile -t root < <(grep -rl --include='*.go' -e '^//fory:generate' -e '^//fory:enum' -e '^//fory:union' internal gen/testdata/src/golden | xargs -n1 dirname | sort -u | sed 's#^#./#')
if [ "$check" = -lock ]; then
	for p in "${root[@]}"; do
		"$bin" lock "$p" || status=1
	done
	exit $status
fi
# The packages forygen idl writes from Fory IDL: their declarations first
# (with -check, compared), then their generated code as every package's.
idl() { # the package directory, then forygen idl's flags and files
	local out=$1
	shift
	"$bin" idl ${check:-} -o "$out" "$@" || status=1
}
t=internal/conformance/idl/testdata
idl internal/conformance/idl/demo $t/demo.fdl
idl internal/conformance/idl/common $t/common.fdl
idl internal/conformance/idl/user $t/user.fdl
idl internal/conformance/idl/greeter $t/service.fdl
idl internal/conformance/idl/idlall $t/everything.fdl
idl grpccodec/internal/idlsvc -grpc $t/everything.fdl
idl grpccodec/internal/idlgreeter -grpc $t/service.fdl
idl benchmarks/idlfixtures benchmarks/idl/bench.fdl
# buffer's dense-array families, generated from one table (buffer/internal/bulkgen).
go run ./buffer/internal/bulkgen ${check:-} || status=1
# With -check, forygen also compares each package with its fory.lock.
run . "${root[@]}"
run benchmarks ./fixtures/ ./fixtures/evolved/ ./idlfixtures/
run grpccodec ./internal/testmsg/
exit $status

#!/usr/bin/env bash
# instructions.sh: instructions per unary call (client + server + runtime, in
# one process) and per codec operation, counted by callgrind, so the
# comparison does not depend on what else the machine is running.
#
#   ./instructions.sh            # markdown rows for the README table
#
# Each benchmark runs under valgrind twice, with N1 and N2 iterations;
# (Ir(N2) - Ir(N1)) / (N2 - N1) cancels server start-up and warm-up.
# GOMAXPROCS=1 keeps idle threads from spinning (which callgrind would count)
# and GOGC=off keeps the Go runtime working under valgrind, so collector
# work is not in the counts: read them next to allocs/op and B/op.
set -euo pipefail
cd "$(dirname "$0")"
command -v valgrind >/dev/null || { echo "instructions.sh: needs valgrind (apt-get install -y valgrind)" >&2; exit 1; }
bin=$(mktemp -d)/grpccodec.test
go test -c -o "$bin" . >&2

ir() {
	local out
	out=$(mktemp)
	GOMAXPROCS=1 GOGC=off GODEBUG=asyncpreemptoff=1,cpu.rdtscp=off \
		valgrind --tool=callgrind --callgrind-out-file="$out" "$bin" \
		-test.run='^$' -test.bench="$1" -test.benchtime="$2x" -test.count=1 >/dev/null 2>&1
	awk '/^(summary|totals):/ {print $2; exit}' "$out"
	rm -f "$out"
}

per() { # per BENCH N1 N2
	local a z
	a=$(ir "$1" "$2")
	z=$(ir "$1" "$3")
	echo $(((z - a) / ($3 - $2)))
}

echo "| benchmark | proto instr/op | fory instr/op |"
echo "| --- | ---: | ---: |"
for c in 1 8 64; do
	p=$(per "UnaryMediaContent/callers=$c/codec=proto\$" 500 2500)
	f=$(per "UnaryMediaContent/callers=$c/codec=fory\$" 500 2500)
	echo "| unary call, $c callers | $p | $f |"
done
for op in marshal unmarshal; do
	p=$(per "CodecMediaContent/codec=proto/op=$op\$" 20000 120000)
	f=$(per "CodecMediaContent/codec=fory/op=$op\$" 20000 120000)
	echo "| codec $op | $p | $f |"
done

#!/usr/bin/env bash
# instructions.sh: instructions per operation of one benchmark, counted by
# callgrind (independent of machine load), as issue 7 prescribes.
#
#   ./instructions.sh FIXTURE CODEC [Serialize|Deserialize|DeserializeFresh|DeserializeEvolved|both]
#   ./instructions.sh all                # every fixture × codec × direction, as a markdown table
#   ./instructions.sh fixed              # the fixed cost of a call, on an empty struct
#   ./instructions.sh strings            # string decoding and the write-side UTF-8 check (BenchmarkStrings, BenchmarkAliasStrings)
#   ./instructions.sh idl                # hand fixtures vs forygen idl's output of idl/bench.fdl, same Fory options (BenchmarkIDL)
#   ./instructions.sh blocks             # decoding with and without WithBlockAlloc, fresh and reused (BenchmarkBlockAlloc)
#
# The directions are the go test benchmarks' (bench_test.go): Serialize,
# Deserialize (into a reused target), DeserializeFresh (into a new value every
# time) and DeserializeEvolved (forygen only, MediaContent and
# MediaContentList: a reader with a later schema). both is Serialize and
# Deserialize. all takes FIXTURES and CODECS (space-separated) from the
# environment, and prints "–" where a benchmark does not exist.
#
# The benchmark binary runs under valgrind twice, with N1 and N2 iterations;
# (Ir(N2) - Ir(N1)) / (N2 - N1) cancels the setup cost. It runs with GOGC=off:
# mallocgc's instructions are counted, the collector's work is not (it never
# runs), so the counts understate the cells that allocate; the ns cells of
# the report and of go test -bench carry that cost.
set -euo pipefail
cd "$(dirname "$0")"
command -v valgrind >/dev/null || { echo "instructions.sh: needs valgrind (apt-get install -y valgrind)" >&2; exit 1; }

# Iteration counts: enough that the difference dwarfs the run-to-run jitter
# of the runtime (timers, background work), few enough for valgrind to
# finish in seconds. List fixtures are 20 times larger per operation.
N1_SINGLE=${N1:-2000} N2_SINGLE=${N2:-12000}
N1_LIST=${N1:-200} N2_LIST=${N2:-1200}
bin=${BENCH_BIN:-$(mktemp -d)/bench.test}
if [ ! -x "$bin" ]; then
	go test -c -o "$bin" . >&2
fi

# ir BENCHMARK N → total instructions of one run.
ir() {
	local out
	out=$(mktemp)
	GOMAXPROCS=1 GOGC=off GODEBUG=asyncpreemptoff=1,cpu.rdtscp=off \
		valgrind --tool=callgrind --callgrind-out-file="$out" "$bin" \
		-test.run='^$' -test.bench="$1" -test.benchtime="$2x" -test.count=1 >/dev/null 2>&1
	awk '/^(summary|totals):/ {print $2; exit}' "$out"
	rm -f "$out"
}

# per_op_pattern PATTERN [list] → instructions per operation of the benchmark.
per_op_pattern() {
	local a b n1=$N1_SINGLE n2=$N2_SINGLE
	if [ "${2:-}" = list ]; then n1=$N1_LIST n2=$N2_LIST; fi
	a=$(ir "$1" "$n1")
	b=$(ir "$1" "$n2")
	echo $(((b - a) / (n2 - n1)))
}

# per_op DIRECTION FIXTURE CODEC → instructions per operation.
per_op() {
	local kind=single
	case $2 in *List) kind=list ;; esac
	per_op_pattern "^Benchmark$1\$/^$2\$/^$3\$" "$kind"
}

if [ "${1:-}" = all ]; then
	fixtures=${FIXTURES:-"NumericStruct Sample MediaContent NumericStructList SampleList MediaContentList SmallMessage"}
	codecs=${CODECS:-"forygen forygen-consistent forygen-ref protobuf protobuf-convert vtprotobuf msgp msgp-tuple"}
	# Columns: the reuse cells, the fresh cell, and the evolved cell where
	# there is one (forygen on MediaContent and MediaContentList).
	echo 'Instructions per operation. deserialize: into a reused target; fresh: into a new value each time; evolved: a reader with a later schema (forygen only).'
	echo 'Counted with the garbage collector off (GOGC=off): the cost of collecting what a cell allocates is not in these counts (allocation itself is); the ns cells carry it.'
	echo
	printf '| fixture | codec | serialize | deserialize | deserialize fresh | deserialize evolved |\n|---|---|---:|---:|---:|---:|\n'
	for f in $fixtures; do
		for c in $codecs; do
			evolved=–
			case $c/$f in forygen/MediaContent | forygen/MediaContentList) evolved=$(per_op DeserializeEvolved "$f" "$c") ;; esac
			printf '| %s | %s | %s | %s | %s | %s |\n' "$f" "$c" "$(per_op Serialize "$f" "$c")" "$(per_op Deserialize "$f" "$c")" \
				"$(per_op DeserializeFresh "$f" "$c")" "$evolved"
		done
	done
	exit 0
fi

if [ "${1:-}" = fixed ]; then
	# The fixed cost of a call, on an empty struct (BenchmarkFixedCost),
	# with and without the benchmark loop's own cost (Baseline). A call is
	# cheap, so more iterations keep the runtime's jitter out of the result.
	N1_SINGLE=${N1:-20000} N2_SINGLE=${N2:-220000}
	base=$(per_op_pattern '^BenchmarkFixedCost$/^Baseline$')
	echo "baseline (benchmark loop and an empty call) $base instructions/op"
	for d in Serialize Deserialize SerializeWithContext DeserializeWithContext SerializeAny DeserializeAny; do
		for m in compatible consistent; do
			n=$(per_op_pattern "^BenchmarkFixedCost\$/^$d\$/^$m\$")
			echo "fixed $d $m $n instructions/op, $((n - base)) without the baseline"
		done
	done
	exit 0
fi

if [ "${1:-}" = strings ]; then
	# BenchmarkStrings: one string decoded (fixtures.Text), and the
	# serialize cost with the write-side UTF-8 check on and off. A 1 MB
	# string takes about a million instructions per op, so those cells run
	# few iterations. Then BenchmarkAliasStrings: MediaContent,
	# MediaContentList and SmallMessage decoded with each string option.
	for c in ascii10 ascii100 ascii1M lead-e-1M e-1M; do
		case $c in *1M) n1=4 n2=24 ;; *) n1=$N1_SINGLE n2=$N2_SINGLE ;; esac
		a=$(ir "^BenchmarkStrings\$/^Decode\$/^$c\$" "$n1")
		b=$(ir "^BenchmarkStrings\$/^Decode\$/^$c\$" "$n2")
		echo "decode $c $(((b - a) / (n2 - n1))) instructions/op"
	done
	for f in MediaContent MediaContentList; do
		kind=single
		case $f in *List) kind=list ;; esac
		for m in check nocheck; do
			echo "serialize $f $m $(per_op_pattern "^BenchmarkStrings\$/^Serialize\$/^$f\$/^$m\$" "$kind") instructions/op"
		done
	done
	for f in MediaContent MediaContentList SmallMessage; do
		kind=single
		case $f in *List) kind=list ;; esac
		for m in copy alias zerocopy; do
			n=$(per_op_pattern "^BenchmarkAliasStrings\$/^$f\$/^$m\$" "$kind")
			echo "deserialize $f $m $n instructions/op"
		done
	done
	exit 0
fi

if [ "${1:-}" = blocks ]; then
	# BenchmarkBlockAlloc: each fixture decoded by the default Fory and by
	# one WithBlockAlloc(8 KiB), into a new value (fresh) and into a reused
	# one. FIXTURES (space-separated) selects rows.
	fixtures=${FIXTURES:-"NumericStruct Sample MediaContent NumericStructList SampleList MediaContentList SmallMessage"}
	echo 'Instructions per decode, default Fory vs WithBlockAlloc(8 KiB) (GOGC=off, as for all: the collector'"'"'s work is not counted).'
	echo
	printf '| fixture | fresh default | fresh blocks | reused default | reused blocks |\n|---|---:|---:|---:|---:|\n'
	for f in $fixtures; do
		kind=single
		case $f in *List) kind=list ;; esac
		cells=()
		for d in fresh reused; do
			for m in default blocks; do
				cells+=("$(per_op_pattern "^BenchmarkBlockAlloc\$/^$f\$/^$m\$/^$d\$" "$kind")")
			done
		done
		printf '| %s | %s | %s | %s | %s |\n' "$f" "${cells[@]}"
	done
	exit 0
fi

if [ "${1:-}" = idl ]; then
	# BenchmarkIDL: the hand-annotated fixtures (package fixtures) and
	# forygen idl's output of idl/bench.fdl (package idlfixtures) under the
	# same Fory options. FIXTURES and OPTIONS (space-separated; ref is
	# foryc's options: compatible mode, reference tracking) select cells.
	fixtures=${FIXTURES:-"NumericStruct Sample MediaContent NumericStructList SampleList MediaContentList SmallMessage"}
	options=${OPTIONS:-"ref compatible consistent"}
	echo 'Instructions per operation, hand-annotated fixtures vs forygen idl output, same Fory options (GOGC=off, as for all).'
	echo
	printf '| fixture | options | serialize hand | serialize idl | deserialize hand | deserialize idl | fresh hand | fresh idl |\n|---|---|---:|---:|---:|---:|---:|---:|\n'
	for f in $fixtures; do
		kind=single
		case $f in *List) kind=list ;; esac
		for o in $options; do
			row="| $f | $o |"
			for d in Serialize Deserialize DeserializeFresh; do
				for s in hand idl; do
					row="$row $(per_op_pattern "^BenchmarkIDL\$/^$d\$/^$f\$/^$s-$o\$" "$kind") |"
				done
			done
			echo "$row"
		done
	done
	exit 0
fi

usage='usage: instructions.sh FIXTURE CODEC [Serialize|Deserialize|DeserializeFresh|DeserializeEvolved|both] | all | fixed | strings | idl'
fixture=${1:?$usage}
codec=${2:?$usage}
dir=${3:-both}
case $dir in
both) echo "$fixture $codec serialize $(per_op Serialize "$fixture" "$codec") deserialize $(per_op Deserialize "$fixture" "$codec") instructions/op" ;;
*) echo "$fixture $codec $dir $(per_op "$dir" "$fixture" "$codec") instructions/op" ;;
esac

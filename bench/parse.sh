#!/usr/bin/env bash
# bench/parse.sh [BUILD_DIR]: parse throughput (bench_parse) over the corpus PTX, then the compile time of
# the X3 grammar's translation unit (semantics/ptx/parse.cpp) with the build's own flags.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
cmake --build "$build" --target bench_parse corpus_parse >/dev/null
[ -d "$build/corpus-ptx" ] || "$build/bin/corpus_parse" "$root/../shared/corpus" "$build/corpus-ptx" 2 >/dev/null || true
"$build/bin/bench_parse" "$root/../shared/corpus/zluda-ptx" "$build/corpus-ptx"
cmd=$(python3 -c "import json,sys; print(next(e['command'] for e in json.load(open('$build/compile_commands.json')) if e['file'].endswith('semantics/ptx/parse.cpp')))")
cmd=$(echo "$cmd" | sed -E 's/ -o [^ ]+/ -o \/dev\/null/')
start=$(date +%s.%N); (cd "$build" && eval "$cmd"); end=$(date +%s.%N)
awk -v s="$start" -v e="$end" 'BEGIN { printf "X3 grammar TU (semantics/ptx/parse.cpp) compile time: %.1f s\n", e - s }'

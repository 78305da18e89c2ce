#!/usr/bin/env bash
# CLI behaviour of `ptxcheck race -p BUILD_DIR` and `ptxcheck merge` (issue 38, whole projects): a small project
# of four .cu files (race-free, racy with its flags from the database, shaped by a `// ptxcheck:` comment, not
# compiling) in both entry forms (`command`, `arguments`); verdicts per kernel, exit codes, --jobs, --shard +
# merge, SARIF, and located errors in a bad compile_commands.json. Usage: race_project.sh PTXCHECK
set -u
ptxcheck=$1
. "$(dirname "$0")/lib.sh"  # check, passed/failed, $tmp, summary
mkdir -p "$tmp/src/include" "$tmp/build"

cat >"$tmp/src/clean.cu" <<'CU'
__global__ void total(const int* in, int* sum) { atomicAdd(sum, in[threadIdx.x]); }
CU
# Compiles only with the database's -Iinclude (relative to its directory) and -DRACY_INDEX.
cat >"$tmp/src/include/racy.h" <<'CU'
#define RACY_SLOT RACY_INDEX
CU
cat >"$tmp/src/racy.cu" <<'CU'
#include "racy.h"
__global__ void racy(int* out) { out[RACY_SLOT] = threadIdx.x; }
CU
# Race-free in one CTA of 64 threads only: the comment fixes that shape.
cat >"$tmp/src/shaped.cu" <<'CU'
// ptxcheck: --blockDim=64 --gridDim=1
__global__ void shaped(int* a) {
  __shared__ int s[64];
  s[threadIdx.x] = a[threadIdx.x];
  __syncthreads();
  a[threadIdx.x] = s[63 - threadIdx.x];
}
CU
cat >"$tmp/src/broken.cu" <<'CU'
__global__ void broken(int* p) { p[0] = undefined_name; }
CU
cat >"$tmp/build/compile_commands.json" <<JSON
[
  {"directory": "$tmp/src", "command": "/usr/local/cuda/bin/nvcc -Iinclude -DRACY_INDEX=0 -O3 -x cu -c racy.cu -o racy.o", "file": "racy.cu"},
  {"directory": "$tmp/build", "arguments": ["nvcc", "-std=c++17", "-c", "../src/clean.cu", "-o", "clean.o"], "file": "../src/clean.cu"},
  {"directory": "$tmp/src", "command": "nvcc -c 'shaped.cu' -o shaped.o", "file": "shaped.cu"},
  {"directory": "$tmp/src", "command": "nvcc -c broken.cu -o broken.o", "file": "broken.cu"},
  {"directory": "$tmp/src", "command": "g++ -c host.cpp -o host.o", "file": "host.cpp"}
]
JSON
cd "$tmp" || exit 1

"$ptxcheck" race -p build >table1 2>err1; rc=$?
check "race -p: exit 1 (a race is the worst)" test $rc -eq 1
check "race-free kernel" grep -qE '^src/clean\.cu +total\(int const\*, int\*\) +race-free *$' table1
check "racy kernel, flags from the database" grep -qE '^src/racy\.cu +racy\(int\*\) +race +write at racy\.cu:2 / write at racy\.cu:2' table1
check "shape from the // ptxcheck: comment" grep -qE '^src/shaped\.cu +shaped\(int\*\) +race-free *$' table1
check "compile error is an error row" grep -qE "^src/broken\.cu +- +error +nvcc: line 1: identifier \"undefined_name\" is undefined" table1
check "non-.cu entries are skipped" bash -c "! grep -q host.cpp table1"
check "summary line" grep -qx '4 files: 1 race, 2 race-free, 1 error' table1
check "rows in sorted file order" test "$(awk '/^src\// {print $1}' table1 | tr '\n' ' ')" = "src/broken.cu src/clean.cu src/racy.cu src/shaped.cu "
check "no progress line when stderr is not a terminal" test ! -s err1

"$ptxcheck" race -p build --jobs 2 >table2 2>/dev/null; rc=$?
check "--jobs 2: exit 1" test $rc -eq 1
check "--jobs 2: the same table as --jobs 1" cmp -s table1 table2

"$ptxcheck" race -p build --shard 1/2 --format jsonl >s1.jsonl; rc1=$?
"$ptxcheck" race -p build/compile_commands.json --shard 2/2 --format jsonl >s2.jsonl; rc2=$?
check "shard 1/2: broken + racy, exit 1" test $rc1 -eq 1 -a "$(wc -l <s1.jsonl)" -eq 2
check "shard 2/2: clean + shaped, exit 0" test $rc2 -eq 0 -a "$(wc -l <s2.jsonl)" -eq 2
check "jsonl lines are JSON with their entry" python3 -c '
import json, sys
rows = [json.loads(l) for f in ("s1.jsonl", "s2.jsonl") for l in open(f)]
sys.exit(sorted(r["entry"] for r in rows) != [0, 1, 2, 3])'
"$ptxcheck" merge s2.jsonl s1.jsonl >merged; rc=$?
check "merge: exit 1, the worst of the shards" test $rc -eq 1
check "merge of the shards == the unsharded table" cmp -s table1 merged
"$ptxcheck" merge s2.jsonl >/dev/null; rc=$?
check "merge of a race-free shard: exit 0" test $rc -eq 0

"$ptxcheck" race -p build --format sarif >sarif; rc=$?
check "sarif: exit 1" test $rc -eq 1
check "sarif is valid JSON with the race and the compile error" python3 -c '
import json, sys
s = json.load(open("sarif"))
ids = [r["ruleId"] for r in s["runs"][0]["results"]]
sys.exit(not ("ptxcheck.race.data-race" in ids and "ptxcheck.race.input" in ids))'
"$ptxcheck" merge --format sarif s1.jsonl s2.jsonl >sarif2
check "merge --format sarif == race -p --format sarif" cmp -s sarif sarif2

# --shapes before the comment: two CTAs make shaped's a[threadIdx.x] race between them.
echo '{"src/shaped.cu": {"blockDim": [64], "gridDim": "2"}}' >shapes.json
"$ptxcheck" race -p build --shapes shapes.json --format json >json; rc=$?
check "--shapes: exit 1" test $rc -eq 1
check "--format json: one object per file; --shapes over the comment" python3 -c '
import json, sys
j = json.load(open("json"))
v = {r["file"].split("/")[-1]: [k["verdict"] for k in r["kernels"]] for r in j}
sys.exit(not (len(j) == 4 and v["shaped.cu"] == ["race"] and v["clean.cu"] == ["race-free"] and v["broken.cu"] == []))'

# Bad input: located errors, exit 2.
mkdir bad
printf '[\n  {"directory": "/x", "file": "a.cu", "command": "nvcc -c a.cu"},\n]\n' >bad/compile_commands.json
"$ptxcheck" race -p bad >/dev/null 2>err; rc=$?
check "malformed database: exit 2" test $rc -eq 2
check "malformed database: located" grep -q '^bad/compile_commands.json:3:1: error: ' err
printf '[\n  {"directory": "/x", "file": "a.cu", "command": "nvcc -c a.cu"},\n  {"directory": "/x", "command": "nvcc -c b.cu"}\n]\n' >bad/compile_commands.json
"$ptxcheck" race -p bad >/dev/null 2>err; rc=$?
check "entry without file: exit 2" test $rc -eq 2
check "entry without file: located at the entry" grep -q '^bad/compile_commands.json:3:3: error: entry 2: an entry needs "file"' err
"$ptxcheck" race -p nowhere >/dev/null 2>err; rc=$?
check "no database: exit 2" test $rc -eq 2
"$ptxcheck" race -p build --shard 3/2 >/dev/null 2>err; rc=$?
check "bad --shard: exit 2" test $rc -eq 2
echo '{"file": "a.cu", "exit_code": 0' >bad.jsonl
"$ptxcheck" merge s1.jsonl bad.jsonl >/dev/null 2>err; rc=$?
check "merge of a bad line: exit 2, located" bash -c "test $rc -eq 2 && grep -q '^bad.jsonl:1:' err"

if [ $failed -ne 0 ]; then echo "--- race -p build:"; cat table1; fi
summary race_project

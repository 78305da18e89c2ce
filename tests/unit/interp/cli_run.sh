#!/usr/bin/env bash
# `ptxcheck run` through the real executable: JSON output and the stable exit codes (0 ran, 1 out of bounds,
# 2 bad input, 3 unsupported). Usage: cli_run.sh PTXCHECK SOURCE_DIR
set -u
exe=$1; src=$2; data=$src/tests/unit/interp/data; fails=0
check() { # name expected_rc actual_rc
  if [ "$2" != "$3" ]; then echo "FAIL $1: exit $3, expected $2"; fails=$((fails+1)); else echo "ok   $1"; fi
}
out=$("$exe" run "$data/scale.ptx" --launch "$data/scale.json"); rc=$?
check "launch json" 0 $rc
# out = in * 7 for the first n = 3 elements, the 4th stays zero
echo "$out" | grep -q '"bytes_le_hex": "07000000' || { echo "FAIL launch json: output"; fails=$((fails+1)); }
echo "$out" | grep -q '0e000000150000000000000' || { echo "FAIL launch json: values"; fails=$((fails+1)); }
out=$("$exe" run "$data/scale.ptx" --grid 1 --block 4 --buffer in=01000000ffffffff --buffer out=zero:8 \
      --param buffer:in --param buffer:out --param u32:2 --param u32:2); rc=$?
check "flags" 0 $rc
echo "$out" | grep -q '"bytes_le_hex": "02000000feffffff"' || { echo "FAIL flags: output"; fails=$((fails+1)); }
# Typed buffers (issue 38): values in, values out; a launch file's buffer replaced by --buffer keeps no stale type.
out=$("$exe" run "$data/scale.ptx" --grid 1 --block 4 --buffer in=s32:1,-1,5 --buffer 'out=s32[3]' \
      --param buffer:in --param buffer:out --param u32:3 --param u32:3); rc=$?
check "typed buffers" 0 $rc
echo "$out" | tr -d ' \n' | grep -q '"out":{"type":"s32","values":\[3,-3,15\]}' || { echo "FAIL typed buffers: output $out"; fails=$((fails+1)); }
out=$("$exe" run "$data/scale.ptx" --grid 1 --block 4 --buffer in=s32:2 --buffer 'out=s32[1]' --hex \
      --param buffer:in --param buffer:out --param u32:3 --param u32:1); rc=$?
check "--hex" 0 $rc
echo "$out" | tr -d ' \n' | grep -q '"out":{"bytes_le_hex":"06000000","type":"s32","values":\[6\]}' || { echo "FAIL --hex: output $out"; fails=$((fails+1)); }
# .npy: --output-npy writes every buffer; a launch reads one back with {"npy": FILE} (relative to the launch file).
npy=$(mktemp -d)
"$exe" run "$data/scale.ptx" --grid 1 --block 4 --buffer in=s32:1,-1,5 --buffer 'out=s32[3]' --output-npy "$npy" \
      --param buffer:in --param buffer:out --param u32:3 --param u32:3 >/dev/null; rc=$?
check "--output-npy" 0 $rc
printf '{"kernel": "scale", "block": [4], "buffers": {"in": {"npy": "out.npy"}, "out": {"type": "s32", "count": 3}},
 "params": [{"buffer": "in"}, {"buffer": "out"}, {"u32": 2}, {"u32": 3}]}' >"$npy/again.json"
out=$("$exe" run "$data/scale.ptx" --launch "$npy/again.json"); rc=$?
check "npy buffer in a launch" 0 $rc
echo "$out" | tr -d ' \n' | grep -q '"out":{"type":"s32","values":\[6,-6,30\]}' || { echo "FAIL npy round trip: output $out"; fails=$((fails+1)); }
rm -rf "$npy"
err=$("$exe" run "$data/scale.ptx" --block 4 --buffer in=u8:300 2>&1 >/dev/null); rc=$?
check "typed value out of range -> 2" 2 $rc
echo "$err" | grep -q 'error: --buffer in: element 0: 300 does not fit .u8' || { echo "FAIL out of range: message '$err'"; fails=$((fails+1)); }
"$exe" run "$data/scale.ptx" --block 4 --buffer in=01000000 --buffer out=zero:4 \
      --param buffer:in --param buffer:out --param u32:2 --param u32:4 >/dev/null 2>&1; rc=$?
check "out of bounds -> 1" 1 $rc
"$exe" run "$data/scale.ptx" --block 4 --param u32:2 >/dev/null 2>&1; rc=$?
check "wrong parameter count -> 2" 2 $rc
# A launch no GPU accepts fails like the driver's (ISA 10.2: %ntid.x is at most 1024).
err=$("$exe" run "$data/scale.ptx" --block 2048 --buffer in=zero:4 --buffer out=zero:4 \
      --param buffer:in --param buffer:out --param u32:2 --param u32:1 2>&1 >/dev/null); rc=$?
check "block of 2048 threads -> 2" 2 $rc
echo "$err" | grep -q 'error: block 2048,1,1: %ntid.x is 1 to 1024 (ISA 10.2)' || { echo "FAIL block of 2048: message '$err'"; fails=$((fails+1)); }
"$exe" run "$data/missing.ptx" --block 4 >/dev/null 2>&1; rc=$?
check "missing file -> 2" 2 $rc
tmp=$(mktemp); printf '.version 7.8\n.target sm_80\n.address_size 64\n.visible .entry u(.param .u64 o)\n{\n.reg .b32 %%r<4>; .reg .f32 %%f<2>;\ncvt.rm.tf32.f32 %%r1, %%f1;\nret;\n}\n' > "$tmp"
err=$("$exe" run "$tmp" --param u64:0 2>&1 >/dev/null); rc=$?
check "unsupported -> 3" 3 $rc
echo "$err" | grep -q ':7: unsupported: cvt.rm.tf32.f32' || { echo "FAIL unsupported: message '$err'"; fails=$((fails+1)); }
rm -f "$tmp"
# --cooperative: cooperative_groups' grid sync runs (every CTA resident, the grid workspace in %envreg); each
# a[i] takes a[i + 1] read before the sync, so 0..128 becomes 1..128, 128. Without it the grid sync traps (exit 1).
ws=$src/tests/unit/race/kernels/grid_sync.cu
hex=$(for i in $(seq 0 128); do printf '%02x%02x0000' $((i % 256)) $((i / 256)); done)
want=$(for i in $(seq 1 128) 128; do printf '%02x%02x0000' $((i % 256)) $((i / 256)); done)
out=$("$exe" run "$ws" --cooperative --grid 4 --block 32 --buffer a=$hex --param buffer:a); rc=$?
check "cooperative grid sync" 0 $rc
echo "$out" | grep -q "\"bytes_le_hex\": \"$want\"" || { echo "FAIL cooperative grid sync: output"; fails=$((fails+1)); }
"$exe" run "$ws" --grid 4 --block 32 --buffer a=$hex --param buffer:a >/dev/null 2>&1; rc=$?
check "grid sync without a cooperative launch traps -> 1" 1 $rc
# Clusters (ISA 2.2.2): "cluster" in a launch file and --cluster. In exchange each thread reads arr[tid] of the next
# rank, (rank + 1) % 2 * 100 + tid, then getctarank of it and its own arr[tid]; rank 0's counter (word 7) is 2 * 32 * 2.
out=$("$exe" run "$data/cluster.ptx" --launch "$data/cluster_exchange.json"); rc=$?
check "cluster launch file" 0 $rc
vals=$(echo "$out" | tr -d ' \n' | sed 's/.*"values":\[\([^]]*\)\].*/\1/')
echo "$vals" | cut -d, -f1,2,3,4,7 | grep -qx '100,100,1,0,128' || { echo "FAIL cluster launch file: rank 0 thread 0 got $(echo "$vals" | cut -d, -f1-8)"; fails=$((fails+1)); }
echo "$vals" | cut -d, -f257,258,259,260 | grep -qx '0,0,0,100' || { echo "FAIL cluster launch file: rank 1 thread 0 got $(echo "$vals" | cut -d, -f257-264)"; fails=$((fails+1)); }
out=$("$exe" run "$data/cluster.ptx" --kernel req2 --grid 4 --block 32 --cluster 2 --buffer 'out=u32[8]' --param buffer:out); rc=$?
check "--cluster" 0 $rc
echo "$out" | tr -d ' \n' | grep -q '"values":\[1,2,1,2,1,2,1,2\]' || { echo "FAIL --cluster: output $out"; fails=$((fails+1)); }
err=$("$exe" run "$data/cluster.ptx" --launch "$data/cluster_indivisible.json" 2>&1 >/dev/null); rc=$?
check "grid not a whole number of clusters -> 2" 2 $rc
[ "$err" = "$data/cluster_indivisible.json: error: grid 6,1,1 is not a whole number of clusters 4,1,1 (ISA 2.2.2: the grid is made of clusters)" ] ||
  { echo "FAIL indivisible grid: message '$err'"; fails=$((fails+1)); }
err=$("$exe" run "$data/cluster.ptx" --launch "$data/cluster_mismatch.json" 2>&1 >/dev/null); rc=$?
check "cluster other than .reqnctapercluster -> 2" 2 $rc
[ "$err" = "error: cluster 4,1,1: kernel req2 requires .reqnctapercluster 2,1,1 (ISA 11.7.1)" ] ||
  { echo "FAIL .reqnctapercluster mismatch: message '$err'"; fails=$((fails+1)); }
err=$("$exe" run "$data/cluster.ptx" --kernel map_rank --grid 2 --cluster 2 --buffer 'out=u64[1]' --param buffer:out --param u32:5 --param u32:0 2>&1 >/dev/null); rc=$?
check "mapa to rank 5 of 2 -> 1" 1 $rc
[ "$err" = "error: mapa.shared::cluster.u64: CTA rank 5 is not below %cluster_nctarank 2" ] || { echo "FAIL mapa rank: message '$err'"; fails=$((fails+1)); }
"$exe" run "$data/cluster.ptx" --kernel req2 --grid 4 --cluster 2 0 --buffer 'out=u32[8]' --param buffer:out >/dev/null 2>&1; rc=$?
check "--cluster 2 0 -> 2" 2 $rc
# A tensor map in a launch file (docs/async-copies.md): the 8 x 4 box of u32 at (4, 3) of a 10 x 6 tensor
# A[y][x] = 100 y + x loads zeros for x >= 10 and y >= 6 (ISA 5.5.3.3); the box 5000 + k stored at (2, 4) writes
# rows 4 and 5 only.
out=$("$exe" run "$data/bulk_copy.ptx" --launch "$data/bulk_tile.json"); rc=$?
check "tensor map launch" 0 $rc
echo "$out" | tr -d ' \n' | grep -q '"out":{"type":"u32","values":\[304,305,306,307,308,309,0,0,404,405,406,407,408,409,0,0,504,505,506,507,508,509,0,0,0,0,0,0,0,0,0,0,0,' ||
  { echo "FAIL tensor map launch: out $out"; fails=$((fails+1)); }
echo "$out" | tr -d ' \n' | grep -q '400,401,5000,5001,5002,5003,5004,5005,5006,5007,3735928559,3735928559,500,501,5008,' ||
  { echo "FAIL tensor map launch: A $out"; fails=$((fails+1)); }
bad=$(mktemp); sed 's/"global_strides": \[48\]/"global_strides": [40]/' "$data/bulk_tile.json" >"$bad"
err=$("$exe" run "$data/bulk_copy.ptx" --launch "$bad" 2>&1 >/dev/null); rc=$?
check "tensor map stride not a multiple of 16 -> 2" 2 $rc
echo "$err" | grep -q "buffer 'tmap': tensor map: global_strides must be multiples of 16 below 2^40" || { echo "FAIL bad tensor map: message '$err'"; fails=$((fails+1)); }
rm -f "$bad"
exit $fails

#!/usr/bin/env bash
# Compute Sanitizer's racecheck (NVIDIA's dynamic shared-memory hazard detector) on the race unit kernels that use
# cp.async and ldmatrix, for comparison with ptxcheck's verdicts (their `// expect:` lines). Needs a GPU and the
# CUDA toolkit; run on the device machine: bench/sanitizer_racecheck.sh [OUT_DIR]. Prints one line per kernel:
# the expected verdict, racecheck's hazard summary. Not a test: racecheck sees one execution, shared memory only.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
k=$here/tests/unit/race/kernels
out=${1:-$(mktemp -d)}
mkdir -p "$out"
run() {  # name, launch expression over buffers b0 b1 (1 MiB each, zeroed)
  local name=$1 launch=$2
  cat > "$out/$name.cu" <<CU
#include "$k/$name.cu"
#include <cstdio>
int main() {
  void *b0, *b1;
  cudaMalloc(&b0, 1 << 20); cudaMalloc(&b1, 1 << 20);
  cudaMemset(b0, 0, 1 << 20); cudaMemset(b1, 0, 1 << 20);
  $launch;
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) { std::printf("launch: %s\n", cudaGetErrorString(e)); return 1; }
  return 0;
}
CU
  nvcc -arch=sm_90 -lineinfo -o "$out/$name" "$out/$name.cu" || { echo "$name: nvcc failed"; return; }
  local expect summary
  expect=$(head -1 "$k/$name.cu" | sed 's/^\/\/ expect: *\([a-z-]*\).*/\1/')
  summary=$(compute-sanitizer --tool racecheck --racecheck-report hazard "$out/$name" 2>&1 | grep -E "RACECHECK SUMMARY|ERROR SUMMARY" | tr '\n' ' ')
  printf '%-42s ptxcheck expects %-10s racecheck: %s\n' "$name" "$expect" "${summary:-no summary}"
}
run async_copy_wait_then_barrier "reverse<<<2, 256>>>((const int*)b0, (int*)b1)"
run async_copy_barrier_before_wait "reverse<<<2, 256>>>((const int*)b0, (int*)b1)"
run async_copy_own_element_before_wait "scale<<<1, 64>>>((const float*)b0, (float*)b1)"
run async_copy_double_buffer "sum_tiles<<<4, 128>>>((const float*)b0, (float*)b1, 3u)"
run async_copy_double_buffer_wait_too_few "sum_tiles<<<4, 128>>>((const float*)b0, (float*)b1, 3u)"
run ldmatrix_mma_tile "tile<<<2, 64>>>((const half*)b0, (float*)b1)"
run ldmatrix_missing_barrier "tile<<<2, 64>>>((const half*)b0, (float*)b1)"
run shared_no_barrier "k<<<2, 128>>>((int*)b0)"

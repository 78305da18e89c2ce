// What the programs of tests/cute/programs do around their CUTLASS operator: copy host data to the device, and set
// up, run and synchronise an operator (GemmUniversalAdapter, ConvUniversalAdapter), saying which step failed.
#pragma once

#include <cstdio>
#include <vector>

#include "cutlass/cutlass.h"

template <class T>
T* to_device(const std::vector<T>& host) {
  T* p = nullptr;
  cudaMalloc(&p, host.size() * sizeof(T));
  cudaMemcpy(p, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice);
  return p;
}

// can_implement, initialize with a workspace of the size the operator asks, run, and wait for the device.
template <class Operator>
bool run_operator(const typename Operator::Arguments& args, const char* name) {
  Operator op;
  if (op.can_implement(args) != cutlass::Status::kSuccess) {
    std::printf("%s: FAIL: can_implement refuses the arguments\n", name);
    return false;
  }
  void* workspace = nullptr;
  if (const size_t bytes = Operator::get_workspace_size(args)) cudaMalloc(&workspace, bytes);
  if (op.initialize(args, workspace) != cutlass::Status::kSuccess) {
    std::printf("%s: FAIL: initialize\n", name);
    return false;
  }
  const cutlass::Status run = op.run();
  const cudaError_t sync = cudaDeviceSynchronize();
  if (run != cutlass::Status::kSuccess || sync != cudaSuccess) {
    std::printf("%s: FAIL: run %d, %s\n", name, int(run), cudaGetErrorString(sync));
    return false;
  }
  return true;
}

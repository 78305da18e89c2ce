// Graph memory nodes (api_graph_memory.cpp): the allocation and free nodes that cudaGraphAddMemAllocNode /
// cudaGraphAddMemFreeNode add and that cudaMallocAsync / cudaFreeAsync record in a capturing stream, and what a
// graph launch does about allocations left live by its previous launch.
#pragma once

#include "semantics/runtime/graph.hpp"

#include <cuda_runtime_api.h>

#include <vector>

namespace ptx::runtime {

// What an allocation node keeps (cudaGraphMemAllocNodeGetParams returns it; the access descriptors are the
// node's own copy) and what a free node keeps.
struct MemAllocParams {
  cudaMemAllocNodeParams params{};
  std::vector<cudaMemAccessDesc> access;
};
struct MemFreeParams {
  void* dptr = nullptr;
};

// An allocation node for `p` (bytesize, poolProps on device 0): its address is reserved now and written to
// p.dptr. 0, or cudaErrorInvalidValue (recorded) for parameters CUDA refuses.
int make_mem_alloc_node(cudaMemAllocNodeParams& p, GraphNode& node);
// A free node for `dptr` in graph `g`: 0, or cudaErrorInvalidValue when dptr is no allocation node's address or
// `g` frees it already.
int make_mem_free_node(const Graph& g, void* dptr, GraphNode& node);
// Whether `g` has memory nodes (CUDA: such a graph cannot be cloned nor be a child graph).
bool has_memory_nodes(const Graph& g);
// Before a launch of `nodes`: an allocation they made in an earlier launch that is still live makes the launch fail
// (cudaErrorInvalidValue, cudaGraphLaunch), unless `auto_free` (cudaGraphInstantiateFlagAutoFreeOnLaunch) frees it.
int free_before_launch(const std::vector<GraphNode>& nodes, bool auto_free);

}  // namespace ptx::runtime

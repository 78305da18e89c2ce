// CUDA runtime API: graph memory nodes (CUDA Programming Guide, "Graph Memory Nodes"; Runtime API
// cudaGraphAddMemAllocNode, cudaGraphAddMemFreeNode). "CUDA assigns virtual addresses for the graph allocation at
// node creation time": the address is reserved when the node is made and stays reserved. "Graph allocations are
// considered recreated every time a graph runs": the allocation node makes the bytes live (their values
// undefined: --memcheck sees them uninitialized), a free node, cudaFreeAsync or cudaFree ends their life. Outside
// it host copies from or to them fail and --memcheck reports a kernel's access as one to freed memory.
// cudaMallocAsync / cudaFreeAsync in a capturing stream record these nodes (api_memory.cpp).
#include "semantics/runtime/api_error.hpp"
#include "semantics/runtime/graph_memory.hpp"
#include "semantics/runtime/graph_nodes.hpp"
#include "semantics/runtime/runtime.hpp"

#include <algorithm>
#include <any>
#include <sstream>

using ptx::runtime::Graph;
using ptx::runtime::GraphNode;
using ptx::runtime::Runtime;

namespace ptx::runtime {

namespace {
int refuse(const std::string& why) {
  Runtime::instance().report(why);
  return Runtime::instance().record(invalid_value);
}
std::string hex(const void* p) {
  std::ostringstream s;
  s << p;
  return s.str();
}
}  // namespace

// Runtime API cudaGraphAddMemAllocNode: poolProps.location is the device the memory resides on, of pinned
// (cudaMemAllocationTypePinned) memory; IPC handle types are not supported; there is one device here (0).
int make_mem_alloc_node(cudaMemAllocNodeParams& p, GraphNode& node) {
  const cudaMemPoolProps& pool = p.poolProps;
  if (p.bytesize == 0) return refuse("cudaGraphAddMemAllocNode: bytesize is 0");
  if (pool.allocType != cudaMemAllocationTypePinned || pool.location.type != cudaMemLocationTypeDevice || pool.location.id != 0 ||
      pool.handleTypes != cudaMemHandleTypeNone)
    return refuse("cudaGraphAddMemAllocNode: poolProps must be pinned memory on device 0 with no IPC handle type");
  if (p.accessDescCount && !p.accessDescs) return refuse("cudaGraphAddMemAllocNode: accessDescs is null");
  void* dptr = nullptr;
  if (int e = Runtime::instance().reserve_graph_memory(&dptr, p.bytesize)) return e;
  p.dptr = dptr;
  MemAllocParams kept{p, {p.accessDescs, p.accessDescs + p.accessDescCount}};
  node.what = "memory allocation node of " + std::to_string(p.bytesize) + " bytes at " + hex(dptr);
  node.run = [dptr] { return Runtime::instance().graph_allocate(dptr); };
  node.type = mem_alloc_node;
  node.params = std::move(kept);
  return success;
}

// Runtime API cudaGraphAddMemFreeNode: cudaErrorInvalidValue for "an allocation twice in the same graph" and "an
// address that was not returned by an allocation node".
int make_mem_free_node(const Graph& g, void* dptr, GraphNode& node) {
  if (!Runtime::instance().is_graph_memory(dptr)) return refuse("cudaGraphAddMemFreeNode: " + hex(dptr) + " is not the address of an allocation node");
  for (const auto& n : g.nodes)
    if (n->type == mem_free_node && std::any_cast<const MemFreeParams&>(n->params).dptr == dptr)
      return refuse("cudaGraphAddMemFreeNode: the graph frees " + hex(dptr) + " already");
  node.what = "memory free node of " + hex(dptr);
  node.run = [dptr] { return Runtime::instance().graph_free(dptr); };
  node.type = mem_free_node;
  node.params = MemFreeParams{dptr};
  return success;
}

bool has_memory_nodes(const Graph& g) {
  return std::any_of(g.nodes.begin(), g.nodes.end(), [](const auto& n) { return n->type == mem_alloc_node || n->type == mem_free_node; });
}

// Runtime API cudaGraphLaunch: "If any allocations created by graphExec remain unfreed (from a previous launch)
// and graphExec was not instantiated with cudaGraphInstantiateFlagAutoFreeOnLaunch, the launch will fail with
// cudaErrorInvalidValue."
int free_before_launch(const std::vector<GraphNode>& nodes, bool auto_free) {
  for (const GraphNode& n : nodes) {
    if (n.type != mem_alloc_node) continue;
    void* dptr = std::any_cast<const MemAllocParams&>(n.params).params.dptr;
    if (!Runtime::instance().graph_memory_live(dptr)) continue;
    if (!auto_free) return refuse("cudaGraphLaunch: the graph's allocation at " + hex(dptr) + " from its previous launch is not freed");
    if (int e = Runtime::instance().graph_free(dptr)) return e;
  }
  return success;
}

}  // namespace ptx::runtime

namespace {
const GraphNode* node_of(cudaGraphNode_t n) { return reinterpret_cast<const GraphNode*>(n); }
}  // namespace

extern "C" {

cudaError_t cudaGraphAddMemAllocNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* deps, size_t count,
                                     cudaMemAllocNodeParams* p) {
  if (!node || !graph || !p) return cudaErrorInvalidValue;
  GraphNode made;
  if (int e = ptx::runtime::make_mem_alloc_node(*p, made)) return as_error(e);
  return ptx::runtime::add_graph_node(node, graph, deps, count, std::move(made));
}

cudaError_t cudaGraphAddMemFreeNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* deps, size_t count, void* dptr) {
  if (!node || !graph) return cudaErrorInvalidValue;
  GraphNode made;
  if (int e = ptx::runtime::make_mem_free_node(*reinterpret_cast<Graph*>(graph), dptr, made)) return as_error(e);
  return ptx::runtime::add_graph_node(node, graph, deps, count, std::move(made));
}

cudaError_t cudaGraphMemAllocNodeGetParams(cudaGraphNode_t node, cudaMemAllocNodeParams* out) {
  if (!node || !out || node_of(node)->type != ptx::runtime::mem_alloc_node) return cudaErrorInvalidValue;
  const auto& kept = std::any_cast<const ptx::runtime::MemAllocParams&>(node_of(node)->params);
  *out = kept.params;
  out->accessDescs = kept.access.empty() ? nullptr : kept.access.data();  // owned by the node
  return cudaSuccess;
}

cudaError_t cudaGraphMemFreeNodeGetParams(cudaGraphNode_t node, void* dptr_out) {
  if (!node || !dptr_out || node_of(node)->type != ptx::runtime::mem_free_node) return cudaErrorInvalidValue;
  *static_cast<void**>(dptr_out) = std::any_cast<const ptx::runtime::MemFreeParams&>(node_of(node)->params).dptr;
  return cudaSuccess;
}

}  // extern "C"

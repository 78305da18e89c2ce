// CUDA runtime API: graphs built node by node (cudaGraphAdd*Node with their dependencies, cudaGraphAddDependencies
// and RemoveDependencies) and the graph queries (nodes, root nodes, edges, a node's type and dependencies). What a
// node does is fixed when it is added, as in CUDA: a kernel node copies its argument bytes, a memcpy or memset node
// its parameters. Memory nodes: api_graph_memory.cpp. Nodes of kinds not implemented here (conditional, external
// semaphores, event waits) stay unimplemented, by name (api_missing.cpp).
#include "semantics/runtime/graph_memory.hpp"
#include "semantics/runtime/graph_nodes.hpp"
#include "semantics/runtime/pitched.hpp"
#include "semantics/runtime/runtime.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <memory>
#include <vector>

using ptx::runtime::Graph;
using ptx::runtime::GraphNode;
using ptx::runtime::Runtime;

namespace {
cudaError_t as_error(int e) { return static_cast<cudaError_t>(e); }
cudaError_t invalid() { return as_error(Runtime::instance().record(ptx::runtime::invalid_value)); }
Graph* graph_of(cudaGraph_t g) { return reinterpret_cast<Graph*>(g); }
GraphNode* node_of(cudaGraphNode_t n) { return reinterpret_cast<GraphNode*>(n); }

}  // namespace

// Adds `node` to `graph` after `deps` (nodes of the same graph, as CUDA requires).
cudaError_t ptx::runtime::add_graph_node(cudaGraphNode_t* out, cudaGraph_t graph, const cudaGraphNode_t* deps, size_t count, GraphNode node) {
  if (!out || !graph || (count && !deps)) return invalid();
  Graph* g = graph_of(graph);
  for (size_t i = 0; i < count; ++i) {
    if (!g->owns(node_of(deps[i]))) return invalid();
    node.deps.push_back(node_of(deps[i]));
  }
  *out = reinterpret_cast<cudaGraphNode_t>(g->add(std::move(node)));
  return cudaSuccess;
}
namespace {
using ptx::runtime::add_graph_node;
}  // namespace

extern "C" {

cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* deps, size_t count) {
  return add_graph_node(node, graph, deps, count, {"empty node", [] { return 0; }, ptx::runtime::empty_node, {}});
}

cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* deps, size_t count,
                                   const cudaKernelNodeParams* p) {
  if (!p) return invalid();
  if (p->extra) return as_error(Runtime::instance().unimplemented("cudaGraphAddKernelNode with arguments in `extra`"));
  const auto* host_function = p->func;
  const ptx::runtime::Kernel* k = Runtime::instance().kernel(host_function);
  if (!k) return as_error(Runtime::instance().record(ptx::runtime::invalid_device_function));
  ptx::runtime::LaunchConfig config;
  config.grid = {p->gridDim.x, p->gridDim.y, p->gridDim.z};
  config.block = {p->blockDim.x, p->blockDim.y, p->blockDim.z};
  config.shared_bytes = p->sharedMemBytes;
  int error = 0;
  auto run = Runtime::instance().deferred_launch(host_function, config, p->kernelParams, {}, error);
  if (!run) return as_error(error);
  return add_graph_node(node, graph, deps, count, {"kernel node " + k->name, std::move(run), ptx::runtime::kernel_node, {}});
}

cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* deps, size_t count, void* dst,
                                     const void* src, size_t bytes, cudaMemcpyKind kind) {
  auto run = [=] { return Runtime::instance().copy(dst, src, bytes, kind); };
  return add_graph_node(node, graph, deps, count, {"memcpy node", run, ptx::runtime::memcpy_node, {}});
}

cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* deps, size_t count,
                                   const cudaMemcpy3DParms* p) {
  if (!p) return invalid();
  const cudaMemcpy3DParms copy = *p;
  return add_graph_node(node, graph, deps, count, {"memcpy node", [copy] { return ptx::runtime::copy_pitched(copy); }, ptx::runtime::memcpy_node, {}});
}

cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* deps, size_t count,
                                   const cudaMemsetParams* p) {
  if (!p || (p->elementSize != 1 && p->elementSize != 2 && p->elementSize != 4)) return invalid();
  if (p->height > 1 && p->pitch < p->width * p->elementSize) return invalid();
  const cudaMemsetParams set = *p;
  auto run = [set] { return ptx::runtime::set_rows(set.dst, set.pitch, set.value, set.elementSize, set.width, set.height); };
  return add_graph_node(node, graph, deps, count, {"memset node", run, ptx::runtime::memset_node, {}});
}

cudaError_t cudaGraphAddHostNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* deps, size_t count,
                                 const cudaHostNodeParams* p) {
  if (!p || !p->fn) return invalid();
  auto run = [fn = p->fn, data = p->userData] {
    fn(data);
    return 0;
  };
  return add_graph_node(node, graph, deps, count, {"host node", run, ptx::runtime::host_node, {}});
}

// The child graph is copied into the node (CUDA clones it); the node runs the copy's nodes in dependency order.
cudaError_t cudaGraphAddChildGraphNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* deps, size_t count,
                                       cudaGraph_t child) {
  if (!child) return invalid();
  if (ptx::runtime::has_memory_nodes(*graph_of(child))) {  // cudaGraphAddMemAllocNode: only "if the ownership is moved to the parent"
    Runtime::instance().report("cudaGraphAddChildGraphNode: a graph with memory nodes cannot be a child graph");
    return invalid();
  }
  std::vector<GraphNode> nodes;
  if (!ptx::runtime::run_order_copy(*graph_of(child), nodes)) return invalid();
  auto run = [nodes = std::move(nodes)] { return ptx::runtime::run_nodes(nodes); };
  return add_graph_node(node, graph, deps, count, {"child graph node", run, ptx::runtime::child_graph_node, {}});
}

cudaError_t cudaGraphAddEventRecordNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* deps, size_t count,
                                        cudaEvent_t event) {
  if (!event) return invalid();
  auto run = [event] { return static_cast<int>(cudaEventRecord(event, nullptr)); };
  return add_graph_node(node, graph, deps, count, {"event record node", run, ptx::runtime::event_record_node, {}});
}

// Edges from[i] -> to[i]: to[i] runs after from[i]. Edge data other than the default is not modelled.
cudaError_t cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t* from, const cudaGraphNode_t* to, const cudaGraphEdgeData*,
                                     size_t count) {
  if (!graph || (count && (!from || !to))) return invalid();
  Graph* g = graph_of(graph);
  for (size_t i = 0; i < count; ++i)
    if (!g->owns(node_of(from[i])) || !g->owns(node_of(to[i])) || from[i] == to[i]) return invalid();
  for (size_t i = 0; i < count; ++i) {
    auto& deps = node_of(to[i])->deps;
    if (std::find(deps.begin(), deps.end(), node_of(from[i])) == deps.end()) deps.push_back(node_of(from[i]));
  }
  return cudaSuccess;
}
cudaError_t cudaGraphRemoveDependencies(cudaGraph_t graph, const cudaGraphNode_t* from, const cudaGraphNode_t* to, const cudaGraphEdgeData*,
                                        size_t count) {
  if (!graph || (count && (!from || !to))) return invalid();
  for (size_t i = 0; i < count; ++i) {
    auto& deps = node_of(to[i])->deps;
    auto it = std::find(deps.begin(), deps.end(), node_of(from[i]));
    if (it == deps.end()) return invalid();  // CUDA: removing an edge that does not exist is an error
    deps.erase(it);
  }
  return cudaSuccess;
}

// The graph's nodes in the order they were added (a handle each).
cudaError_t cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t* nodes, size_t* count) {
  if (!graph || !count) return cudaErrorInvalidValue;
  const auto& all = graph_of(graph)->nodes;
  if (nodes)
    for (std::size_t i = 0; i < all.size() && i < *count; ++i) nodes[i] = reinterpret_cast<cudaGraphNode_t>(all[i].get());
  *count = all.size();
  return cudaSuccess;
}
cudaError_t cudaGraphGetRootNodes(cudaGraph_t graph, cudaGraphNode_t* roots, size_t* count) {
  if (!graph || !count) return cudaErrorInvalidValue;
  std::vector<cudaGraphNode_t> found;
  for (const auto& n : graph_of(graph)->nodes)
    if (n->deps.empty()) found.push_back(reinterpret_cast<cudaGraphNode_t>(n.get()));
  if (roots) std::copy_n(found.begin(), std::min(found.size(), *count), roots);
  *count = found.size();
  return cudaSuccess;
}
cudaError_t cudaGraphGetEdges(cudaGraph_t graph, cudaGraphNode_t* from, cudaGraphNode_t* to, cudaGraphEdgeData* edges, size_t* count) {
  if (!graph || !count) return cudaErrorInvalidValue;
  std::size_t k = 0;
  for (const auto& n : graph_of(graph)->nodes)
    for (GraphNode* d : n->deps) {
      if (from && to && k < *count) {
        from[k] = reinterpret_cast<cudaGraphNode_t>(d);
        to[k] = reinterpret_cast<cudaGraphNode_t>(n.get());
        if (edges) edges[k] = cudaGraphEdgeData{};
      }
      ++k;
    }
  *count = k;
  return cudaSuccess;
}
cudaError_t cudaGraphNodeGetType(cudaGraphNode_t node, cudaGraphNodeType* type) {
  if (!node || !type) return cudaErrorInvalidValue;
  *type = static_cast<cudaGraphNodeType>(node_of(node)->type);
  return cudaSuccess;
}
cudaError_t cudaGraphNodeGetDependencies(cudaGraphNode_t node, cudaGraphNode_t* deps, cudaGraphEdgeData* edges, size_t* count) {
  if (!node || !count) return cudaErrorInvalidValue;
  const auto& all = node_of(node)->deps;
  for (std::size_t i = 0; deps && i < all.size() && i < *count; ++i) {
    deps[i] = reinterpret_cast<cudaGraphNode_t>(all[i]);
    if (edges) edges[i] = cudaGraphEdgeData{};
  }
  *count = all.size();
  return cudaSuccess;
}

}  // extern "C"

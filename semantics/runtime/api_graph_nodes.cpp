// CUDA runtime API: graphs built node by node (cudaGraphAdd*Node with their dependencies, cudaGraphAddDependencies
// and RemoveDependencies) and the graph queries (nodes, root nodes, edges, a node's type and dependencies). What a
// node does is fixed when it is added, as in CUDA: a kernel node copies its argument bytes, a memcpy or memset node
// its parameters (the node makers: graph_nodes.cpp); each node keeps its parameters for the Get/SetParams calls
// (api_graph_update.cpp). Memory nodes: api_graph_memory.cpp; conditional nodes and the generic cudaGraphAddNode:
// api_graph_conditional.cpp, api_graph_add_node.cpp; event nodes' events: api_graph_events.cpp. Nodes of kinds not
// implemented (external semaphores) stay unimplemented, by name (api_missing.cpp).
#include "semantics/runtime/api_error.hpp"
#include "semantics/runtime/graph_memory.hpp"
#include "semantics/runtime/graph_nodes.hpp"
#include "semantics/runtime/runtime.hpp"

#include <algorithm>
#include <memory>
#include <vector>

using ptx::runtime::Graph;
using ptx::runtime::GraphNode;
using ptx::runtime::Runtime;

namespace {
Graph* graph_of(cudaGraph_t g) { return reinterpret_cast<Graph*>(g); }
GraphNode* node_of(cudaGraphNode_t n) { return reinterpret_cast<GraphNode*>(n); }

// Each cudaGraphAdd*Node: the node its maker makes, added after `deps`.
template <class Make>
cudaError_t add_made(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* deps, size_t count, bool given, Make make) {
  if (!given) return invalid();
  GraphNode made;
  if (int e = make(made)) return as_error(e);
  return ptx::runtime::add_graph_node(node, graph, deps, count, std::move(made));
}
}  // namespace

extern "C" {

cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* deps, size_t count) {
  return ptx::runtime::add_graph_node(node, graph, deps, count, {"empty node", [] { return 0; }, ptx::runtime::empty_node, {}});
}

cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* deps, size_t count,
                                   const cudaKernelNodeParams* p) {
  return add_made(node, graph, deps, count, p, [p](GraphNode& m) { return ptx::runtime::make_kernel_node(*p, m); });
}
cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* deps, size_t count, void* dst,
                                     const void* src, size_t bytes, cudaMemcpyKind kind) {
  return add_made(node, graph, deps, count, true, [&](GraphNode& m) { return ptx::runtime::make_memcpy_node_1d({dst, src, bytes, kind}, m); });
}
cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* deps, size_t count,
                                   const cudaMemcpy3DParms* p) {
  return add_made(node, graph, deps, count, p, [p](GraphNode& m) { return ptx::runtime::make_memcpy_node(*p, m); });
}
cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* deps, size_t count,
                                   const cudaMemsetParams* p) {
  return add_made(node, graph, deps, count, p, [p](GraphNode& m) { return ptx::runtime::make_memset_node(*p, m); });
}
cudaError_t cudaGraphAddHostNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* deps, size_t count,
                                 const cudaHostNodeParams* p) {
  return add_made(node, graph, deps, count, p, [p](GraphNode& m) { return ptx::runtime::make_host_node(*p, m); });
}
cudaError_t cudaGraphAddChildGraphNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* deps, size_t count,
                                       cudaGraph_t child) {
  return add_made(node, graph, deps, count, child, [child](GraphNode& m) { return ptx::runtime::make_child_node(*graph_of(child), m); });
}

cudaError_t cudaGraphAddEventRecordNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* deps, size_t count,
                                        cudaEvent_t event) {
  return add_made(node, graph, deps, count, true, [event](GraphNode& m) { return ptx::runtime::make_event_record_node(event, m); });
}
cudaError_t cudaGraphAddEventWaitNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* deps, size_t count,
                                      cudaEvent_t event) {
  return add_made(node, graph, deps, count, true, [event](GraphNode& m) { return ptx::runtime::make_event_wait_node(event, m); });
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
  if (ptx::runtime::has_memory_nodes(*graph_of(graph))) {  // cudaGraphAddMemAllocNode: "Nodes and edges of the graph cannot be deleted."
    Runtime::instance().report("cudaGraphRemoveDependencies: the edges of a graph with memory nodes cannot be deleted");
    return invalid();
  }
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

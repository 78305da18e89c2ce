// CUDA runtime API: graphs by stream capture (cudaStreamBeginCapture ... cudaStreamEndCapture, across streams
// through events), and running graphs (cudaGraphInstantiate, cudaGraphLaunch). Captured work: kernel launches
// (their argument bytes copied at capture, as CUDA does), async copies and memsets, event records, host functions,
// graph launches. A launch of the instantiated graph runs every node after the nodes it depends on, in one order
// the edges allow (insertion order where they leave a choice). Graphs built node by node: api_graph_nodes.cpp; memory
// nodes: api_graph_memory.cpp; changing nodes and instantiated graphs: api_graph_update.cpp, api_graph_exec_update.cpp.
#include "semantics/runtime/api_error.hpp"
#include "semantics/runtime/graph_conditional.hpp"
#include "semantics/runtime/graph_memory.hpp"
#include "semantics/runtime/runtime.hpp"

#include <cuda_runtime_api.h>

#include <map>
#include <string>
#include <memory>
#include <vector>

using ptx::runtime::Graph;
using ptx::runtime::GraphExec;
using ptx::runtime::GraphNode;
using ptx::runtime::Runtime;

namespace {
// Graphs with memory or conditional nodes that have an instantiation now: "If graph contains any allocation or free
// nodes, there can be at most one executable graph in existence for that graph at a time" (cudaGraphInstantiate);
// of a graph with conditional nodes "Only one instantiation of the graph may exist at any point in time"
// (cudaGraphNodeTypeConditional).
std::map<const Graph*, int>& instantiated() {
  static std::map<const Graph*, int> m;
  return m;
}
}  // namespace

extern "C" {

// The legacy default stream cannot capture (CUDA: cudaErrorStreamCaptureUnsupported); a stream captures once.
cudaError_t cudaStreamBeginCapture(cudaStream_t stream, cudaStreamCaptureMode mode) {
  if (!stream) return cudaErrorStreamCaptureUnsupported;
  return ptx::runtime::begin_capture(stream, mode) ? cudaSuccess : cudaErrorIllegalState;
}
cudaError_t cudaStreamBeginCapture_ptsz(cudaStream_t stream, cudaStreamCaptureMode mode) { return cudaStreamBeginCapture(stream, mode); }

// Capture into an existing graph (a conditional node's body, as the Programming Guide's examples do): its first
// node depends on `deps`; edge data other than the default is refused by name.
cudaError_t cudaStreamBeginCaptureToGraph(cudaStream_t stream, cudaGraph_t graph, const cudaGraphNode_t* deps, const cudaGraphEdgeData* edges,
                                          size_t count, cudaStreamCaptureMode mode) {
  if (!stream) return cudaErrorStreamCaptureUnsupported;
  if (!graph || (count && !deps)) return as_error(Runtime::instance().record(ptx::runtime::invalid_value));
  Graph* g = reinterpret_cast<Graph*>(graph);
  std::vector<GraphNode*> after;
  for (size_t i = 0; i < count; ++i) {
    if (edges && (edges[i].from_port || edges[i].to_port || edges[i].type))
      return as_error(Runtime::instance().unimplemented("cudaStreamBeginCaptureToGraph with edge data other than the default"));
    auto* n = reinterpret_cast<GraphNode*>(deps[i]);
    if (!g->owns(n)) return as_error(Runtime::instance().record(ptx::runtime::invalid_value));
    after.push_back(n);
  }
  return ptx::runtime::begin_capture(stream, mode, g, std::move(after)) ? cudaSuccess : cudaErrorIllegalState;
}
cudaError_t cudaStreamBeginCaptureToGraph_ptsz(cudaStream_t stream, cudaGraph_t graph, const cudaGraphNode_t* deps, const cudaGraphEdgeData* edges,
                                               size_t count, cudaStreamCaptureMode mode) {
  return cudaStreamBeginCaptureToGraph(stream, graph, deps, edges, count, mode);
}

// (a capture into an existing graph may pass no `graph`: the program has it)
cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t* graph) {
  if (!graph && !ptx::runtime::captures_into_existing(stream)) return cudaErrorInvalidValue;
  Graph* g = nullptr;
  const int e = ptx::runtime::end_capture(stream, g);
  if (graph) *graph = reinterpret_cast<cudaGraph_t>(g);
  return as_error(Runtime::instance().record(e));
}
cudaError_t cudaStreamEndCapture_ptsz(cudaStream_t stream, cudaGraph_t* graph) { return cudaStreamEndCapture(stream, graph); }

cudaError_t cudaThreadExchangeStreamCaptureMode(cudaStreamCaptureMode* mode) {
  if (!mode) return cudaErrorInvalidValue;
  *mode = static_cast<cudaStreamCaptureMode>(ptx::runtime::exchange_thread_capture_mode(*mode));
  return cudaSuccess;
}

cudaError_t cudaStreamIsCapturing(cudaStream_t stream, cudaStreamCaptureStatus* status) {
  if (!status) return cudaErrorInvalidValue;
  *status = ptx::runtime::is_capturing(stream) ? cudaStreamCaptureStatusActive : cudaStreamCaptureStatusNone;
  return cudaSuccess;
}
cudaError_t cudaStreamIsCapturing_ptsz(cudaStream_t stream, cudaStreamCaptureStatus* status) { return cudaStreamIsCapturing(stream, status); }

// The status, the capture's graph, and the nodes the stream's next operation will depend on (no edge data).
cudaError_t cudaStreamGetCaptureInfo(cudaStream_t stream, cudaStreamCaptureStatus* status, unsigned long long* id, cudaGraph_t* graph,
                                     const cudaGraphNode_t** dependencies, const cudaGraphEdgeData** edges, size_t* count) {
  if (!status) return cudaErrorInvalidValue;
  Graph* g = ptx::runtime::capture_graph(stream);
  const auto* deps = ptx::runtime::capture_dependencies(stream);
  *status = g ? cudaStreamCaptureStatusActive : cudaStreamCaptureStatusNone;
  if (id) *id = reinterpret_cast<unsigned long long>(g);
  if (graph) *graph = reinterpret_cast<cudaGraph_t>(g);
  if (dependencies) *dependencies = deps && !deps->empty() ? reinterpret_cast<const cudaGraphNode_t*>(deps->data()) : nullptr;
  if (edges) *edges = nullptr;
  if (count) *count = deps ? deps->size() : 0;
  return cudaSuccess;
}
cudaError_t cudaStreamGetCaptureInfo_ptsz(cudaStream_t stream, cudaStreamCaptureStatus* status, unsigned long long* id, cudaGraph_t* graph,
                                          const cudaGraphNode_t** dependencies, const cudaGraphEdgeData** edges, size_t* count) {
  return cudaStreamGetCaptureInfo(stream, status, id, graph, dependencies, edges, count);
}

cudaError_t cudaGraphCreate(cudaGraph_t* graph, unsigned int) {
  if (!graph) return cudaErrorInvalidValue;
  *graph = reinterpret_cast<cudaGraph_t>(new Graph());
  return cudaSuccess;
}
cudaError_t cudaGraphDestroy(cudaGraph_t graph) {
  ptx::runtime::forget_graph(reinterpret_cast<Graph*>(graph));
  instantiated().erase(reinterpret_cast<Graph*>(graph));
  delete reinterpret_cast<Graph*>(graph);
  return cudaSuccess;
}
cudaError_t cudaGraphClone(cudaGraph_t* clone, cudaGraph_t graph) {
  if (!clone || !graph) return cudaErrorInvalidValue;
  // cudaGraphAddMemAllocNode: "The graph cannot be cloned."; the same of conditional nodes (cudaGraphNodeTypeConditional)
  if (const Graph& g = *reinterpret_cast<Graph*>(graph); ptx::runtime::has_memory_nodes(g) || ptx::runtime::has_conditional_nodes(g)) {
    Runtime::instance().report(std::string("cudaGraphClone: a graph with ") + (ptx::runtime::has_memory_nodes(g) ? "memory" : "conditional") +
                               " nodes cannot be cloned");
    return as_error(Runtime::instance().record(ptx::runtime::not_supported));
  }
  *clone = reinterpret_cast<cudaGraph_t>(ptx::runtime::clone_graph(*reinterpret_cast<Graph*>(graph)).release());
  return cudaSuccess;
}

cudaError_t cudaGraphInstantiate(cudaGraphExec_t* exec, cudaGraph_t graph, unsigned long long flags) {
  if (!exec || !graph) return cudaErrorInvalidValue;
  auto e = ptx::runtime::instantiate(*reinterpret_cast<Graph*>(graph));
  if (!e) {
    Runtime::instance().report("cudaGraphInstantiate: the graph's dependencies form a cycle");
    return as_error(Runtime::instance().record(ptx::runtime::invalid_value));
  }
  if (std::string why = ptx::runtime::conditional_body_problem(*e->graph); !why.empty()) {
    Runtime::instance().report("cudaGraphInstantiate: " + why);
    return as_error(Runtime::instance().record(ptx::runtime::invalid_value));
  }
  e->auto_free = flags & cudaGraphInstantiateFlagAutoFreeOnLaunch;
  const Graph* g = reinterpret_cast<Graph*>(graph);
  if (const bool memory = ptx::runtime::has_memory_nodes(*g); memory || ptx::runtime::has_conditional_nodes(*g)) {
    if (instantiated()[g]++) {
      --instantiated()[g];
      Runtime::instance().report(std::string("cudaGraphInstantiate: a graph with ") + (memory ? "memory" : "conditional") +
                                 " nodes has an instantiation already");
      // (conditional: cudaErrorNotSupported, measured on an H200, tests/hardware/h200/exec.txt, graph_conditional)
      return as_error(Runtime::instance().record(memory ? ptx::runtime::invalid_value : ptx::runtime::not_supported));
    }
    e->one_instance = g;
  }
  *exec = reinterpret_cast<cudaGraphExec_t>(e.release());
  return cudaSuccess;
}
cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t* exec, cudaGraph_t graph, unsigned long long flags) {
  return cudaGraphInstantiate(exec, graph, flags);
}
cudaError_t cudaGraphExecDestroy(cudaGraphExec_t exec) {
  const auto* e = reinterpret_cast<GraphExec*>(exec);
  if (auto it = e ? instantiated().find(e->one_instance) : instantiated().end(); it != instantiated().end()) --it->second;
  delete e;
  return cudaSuccess;
}

// The nodes in dependency order, stopping at the first error (which each node has recorded, as the call it stands
// for would). Launched into a capturing stream, the whole graph becomes one node of that capture.
cudaError_t cudaGraphLaunch(cudaGraphExec_t exec, cudaStream_t stream) {
  if (!exec) return cudaErrorInvalidValue;
  const auto* e = reinterpret_cast<GraphExec*>(exec);
  const std::vector<GraphNode> nodes = ptx::runtime::exec_nodes(*e);
  if (int err = ptx::runtime::free_before_launch(nodes, e->auto_free)) return as_error(err);
  // (the node keeps its own copy: the executable may be destroyed first)
  // (the executable's conditional values; those of handles with cudaGraphCondAssignDefault take their default as
  // each launch starts)
  return as_error(ptx::runtime::now_or_captured(stream, "cudaGraphLaunch", ptx::runtime::child_graph_node,
                                                [nodes, values = e->conditional_values] {
                                                  ptx::runtime::ConditionalLaunch launch(values);
                                                  return ptx::runtime::run_nodes(nodes);
                                                }));
}
cudaError_t cudaGraphLaunch_ptsz(cudaGraphExec_t exec, cudaStream_t stream) { return cudaGraphLaunch(exec, stream); }

// A host function runs in stream order: now, or as a host node of the capture.
cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void* user_data) {
  if (!fn) return cudaErrorInvalidValue;
  auto run = [fn, user_data] {
    fn(user_data);
    return 0;
  };
  // (run now, it reports the stream's sticky error instead; recorded, it runs when the graph does)
  if (!ptx::runtime::is_capturing(stream))
    if (cudaError_t e = static_cast<cudaError_t>(Runtime::instance().sticky())) return e;
  return as_error(ptx::runtime::now_or_captured(stream, "cudaLaunchHostFunc", ptx::runtime::host_node, run));
}
cudaError_t cudaLaunchHostFunc_ptsz(cudaStream_t stream, cudaHostFn_t fn, void* user_data) { return cudaLaunchHostFunc(stream, fn, user_data); }

}  // extern "C"

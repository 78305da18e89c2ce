// CUDA runtime API: graphs through stream capture (cudaStreamBeginCapture ... cudaStreamEndCapture,
// cudaGraphInstantiate, cudaGraphLaunch). Work is captured from one stream: kernel launches (their argument
// bytes copied at capture, as CUDA does), async copies and memsets, event records. Every operation runs in
// capture order when the graph is launched, which is an order the graph's dependencies allow (a single-stream
// capture is a chain). A capture that would span several streams (cudaStreamWaitEvent on an event recorded in a
// capture) is refused loudly; graphs built node by node (cudaGraphAdd*Node) are not implemented (api_missing.cpp).
#include "semantics/runtime/graph.hpp"
#include "semantics/runtime/runtime.hpp"

#include <cuda_runtime_api.h>

#include <vector>

using ptx::runtime::Graph;
using ptx::runtime::GraphNode;

namespace {
// An instantiated graph: its nodes, copied (the graph may change or go; the executable stays).
struct GraphExec {
  std::vector<GraphNode> nodes;
};
int run_nodes(const std::vector<GraphNode>& nodes) {
  for (const GraphNode& n : nodes)
    if (int err = n.run()) return err;
  return 0;
}
}  // namespace

extern "C" {

// The legacy default stream cannot capture (CUDA: cudaErrorStreamCaptureUnsupported); a stream captures once.
cudaError_t cudaStreamBeginCapture(cudaStream_t stream, cudaStreamCaptureMode) {
  if (!stream) return cudaErrorStreamCaptureUnsupported;
  return ptx::runtime::begin_capture(stream) ? cudaSuccess : cudaErrorIllegalState;
}
cudaError_t cudaStreamBeginCapture_ptsz(cudaStream_t stream, cudaStreamCaptureMode mode) { return cudaStreamBeginCapture(stream, mode); }

cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t* graph) {
  if (!graph) return cudaErrorInvalidValue;
  Graph* g = ptx::runtime::end_capture(stream);
  if (!g) return cudaErrorIllegalState;
  if (g->invalidated) {
    delete g;
    *graph = nullptr;
    return cudaErrorStreamCaptureInvalidated;
  }
  *graph = reinterpret_cast<cudaGraph_t>(g);
  return cudaSuccess;
}
cudaError_t cudaStreamEndCapture_ptsz(cudaStream_t stream, cudaGraph_t* graph) { return cudaStreamEndCapture(stream, graph); }

cudaError_t cudaStreamIsCapturing(cudaStream_t stream, cudaStreamCaptureStatus* status) {
  if (!status) return cudaErrorInvalidValue;
  *status = ptx::runtime::is_capturing(stream) ? cudaStreamCaptureStatusActive : cudaStreamCaptureStatusNone;
  return cudaSuccess;
}
cudaError_t cudaStreamIsCapturing_ptsz(cudaStream_t stream, cudaStreamCaptureStatus* status) { return cudaStreamIsCapturing(stream, status); }

// The status, and the graph being built; the capture's dependencies are not modelled (none are given).
cudaError_t cudaStreamGetCaptureInfo(cudaStream_t stream, cudaStreamCaptureStatus* status, unsigned long long* id, cudaGraph_t* graph,
                                     const cudaGraphNode_t** dependencies, const cudaGraphEdgeData** edges, size_t* count) {
  if (!status) return cudaErrorInvalidValue;
  Graph* g = ptx::runtime::capture_graph(stream);
  *status = g ? cudaStreamCaptureStatusActive : cudaStreamCaptureStatusNone;
  if (id) *id = reinterpret_cast<unsigned long long>(g);
  if (graph) *graph = reinterpret_cast<cudaGraph_t>(g);
  if (dependencies) *dependencies = nullptr;
  if (edges) *edges = nullptr;
  if (count) *count = 0;
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
  delete reinterpret_cast<Graph*>(graph);
  return cudaSuccess;
}
// The graph's nodes in capture order (a handle each, usable only to count them: no node API is implemented).
cudaError_t cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t* nodes, size_t* count) {
  if (!graph || !count) return cudaErrorInvalidValue;
  const auto& all = reinterpret_cast<Graph*>(graph)->nodes;
  if (nodes)
    for (std::size_t i = 0; i < all.size() && i < *count; ++i) nodes[i] = reinterpret_cast<cudaGraphNode_t>(all[i].get());
  *count = all.size();
  return cudaSuccess;
}

cudaError_t cudaGraphInstantiate(cudaGraphExec_t* exec, cudaGraph_t graph, unsigned long long) {
  if (!exec || !graph) return cudaErrorInvalidValue;
  auto* e = new GraphExec();
  for (const auto& n : reinterpret_cast<Graph*>(graph)->nodes) e->nodes.push_back(*n);
  *exec = reinterpret_cast<cudaGraphExec_t>(e);
  return cudaSuccess;
}
cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t* exec, cudaGraph_t graph, unsigned long long flags) {
  return cudaGraphInstantiate(exec, graph, flags);
}
cudaError_t cudaGraphExecDestroy(cudaGraphExec_t exec) {
  delete reinterpret_cast<GraphExec*>(exec);
  return cudaSuccess;
}

// The nodes in capture order, stopping at the first error (which each node has recorded, as the call it stands
// for would). Launched into a capturing stream, the whole graph becomes one node of that capture.
cudaError_t cudaGraphLaunch(cudaGraphExec_t exec, cudaStream_t stream) {
  if (!exec) return cudaErrorInvalidValue;
  const auto* e = reinterpret_cast<GraphExec*>(exec);
  if (ptx::runtime::is_capturing(stream)) {  // the node keeps its own copy: the executable may be destroyed first
    ptx::runtime::capture_into(stream, {"cudaGraphLaunch", [nodes = e->nodes] { return run_nodes(nodes); }});
    return cudaSuccess;
  }
  return static_cast<cudaError_t>(run_nodes(e->nodes));
}
cudaError_t cudaGraphLaunch_ptsz(cudaGraphExec_t exec, cudaStream_t stream) { return cudaGraphLaunch(exec, stream); }

}  // extern "C"

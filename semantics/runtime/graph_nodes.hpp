// The nodes of a graph built node by node (graph_nodes.cpp) as values: what each kind keeps of its parameters
// (GraphNode::params), and the makers that check parameters as cudaGraphAdd*Node does and fill a node from them.
// cudaGraphAdd*Node, the nodes' SetParams calls and the instantiated graph's (api_graph_update.cpp) share them.
#pragma once

#include "semantics/runtime/graph.hpp"
#include "semantics/runtime/runtime.hpp"

#include <cuda_runtime_api.h>

namespace ptx::runtime {

// Adds `node` to `graph` after `deps` (nodes of that graph, as CUDA requires); cudaErrorInvalidValue otherwise.
cudaError_t add_graph_node(cudaGraphNode_t* out, cudaGraph_t graph, const cudaGraphNode_t* deps, size_t count, GraphNode node);

// A 1D copy (cudaGraphAddMemcpyNode1D, cudaMemcpyAsync in a capture). Other memcpy nodes keep a cudaMemcpy3DParms,
// memset nodes a cudaMemsetParams, host nodes a cudaHostNodeParams, kernel nodes a KeptLaunch (runtime.hpp),
// child graph nodes their copy of the child graph.
struct Memcpy1D {
  void* dst = nullptr;
  const void* src = nullptr;
  size_t count = 0;
  cudaMemcpyKind kind = cudaMemcpyDefault;
};

// Each maker sets node.what, run, type and params, or returns the error (recorded) for parameters CUDA refuses.
// (`extras`: the launch attributes a kernel node keeps when its parameters change, cluster shape and cooperative)
int make_kernel_node(const cudaKernelNodeParams& p, GraphNode& node, const LaunchExtras& extras = {});
int make_memcpy_node(const cudaMemcpy3DParms& p, GraphNode& node);
int make_memcpy_node_1d(const Memcpy1D& p, GraphNode& node);
int make_memset_node(const cudaMemsetParams& p, GraphNode& node);
int make_host_node(const cudaHostNodeParams& p, GraphNode& node);
// A child graph node runs a copy of `child` (kept as its params, a std::shared_ptr<const Graph>).
int make_child_node(const Graph& child, GraphNode& node);
// Event record and event wait nodes keep their event (an EventNode); a null event is cudaErrorInvalidValue.
struct EventNode {
  cudaEvent_t event = nullptr;
};
int make_event_record_node(cudaEvent_t event, GraphNode& node);
int make_event_wait_node(cudaEvent_t event, GraphNode& node);

// `target` does what `made` does (its work and parameters); its edges and enabled state stay (the SetParams calls).
void replace_work(GraphNode& target, GraphNode made);
// The generic cudaGraphNodeParams forms of kernel and memset parameters as their own Add calls take them.
cudaKernelNodeParams kernel_params(const cudaKernelNodeParamsV2& k);
cudaMemsetParams memset_params(const cudaMemsetParamsV2& m);

// A memcpy node's copy as 3D parameters (a 1D copy as one row of `count` bytes), false when it keeps none.
bool memcpy_params(const GraphNode& node, cudaMemcpy3DParms& out);
// Whether a memcpy node's copy is 1-dimensional (cudaGraphExecMemcpyNodeSetParams accepts only those).
bool memcpy_is_1d(const GraphNode& node);

}  // namespace ptx::runtime

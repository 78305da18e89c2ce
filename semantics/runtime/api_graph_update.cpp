// CUDA runtime API: changing nodes after they are made (Runtime API, "Graph Management"): the Get/SetParams calls
// of kernel, memcpy, memset and host nodes, their cudaGraphExec*SetParams forms for an instantiated graph,
// cudaGraphNodeSetEnabled/GetEnabled, and cudaGraphExecUpdate. An instantiated graph keeps its own copy of every
// node (graph.hpp, GraphExec): changing the graph afterwards does not change it, and changing it reaches only
// later launches ("node is also not modified by this call").
#include "semantics/runtime/api_error.hpp"
#include "semantics/runtime/graph_nodes.hpp"
#include "semantics/runtime/runtime.hpp"

#include <any>

using ptx::runtime::Graph;
using ptx::runtime::GraphExec;
using ptx::runtime::GraphNode;
using ptx::runtime::Runtime;
namespace rt = ptx::runtime;

namespace {
GraphNode* node_of(cudaGraphNode_t n) { return reinterpret_cast<GraphNode*>(n); }
// The instantiated graph's own node for `node` of the graph it was made from, or null.
GraphNode* exec_node(cudaGraphExec_t exec, cudaGraphNode_t node) {
  return exec && node ? reinterpret_cast<GraphExec*>(exec)->node_for(node_of(node)) : nullptr;
}
// `target`'s work replaced by what `make` makes (its edges and enabled state kept), when it is a node of `type`.
template <class Make>
cudaError_t set_params(GraphNode* target, int type, Make make) {
  if (!target || target->type != type) return invalid();
  GraphNode made;
  if (int e = make(made)) return as_error(e);
  rt::replace_work(*target, std::move(made));
  return cudaSuccess;
}
template <class T>
const T* params_of(cudaGraphNode_t node, int type) {
  return node && node_of(node)->type == type ? std::any_cast<T>(&node_of(node)->params) : nullptr;
}
// New kernel parameters for `target`: its launch attributes (cluster shape, cooperative), which are not among
// cudaKernelNodeParams, stay.
int remake_kernel(const GraphNode* target, const cudaKernelNodeParams* p, GraphNode& made) {
  if (!p) return rt::invalid_value;
  const auto* was = target ? std::any_cast<rt::KeptLaunch>(&target->params) : nullptr;
  return rt::make_kernel_node(*p, made, was ? was->extras : rt::LaunchExtras{});
}
bool is_1d(const cudaMemcpy3DParms& p) {
  return !p.srcArray && !p.dstArray && p.extent.height <= 1 && p.extent.depth <= 1;
}
}  // namespace

extern "C" {

// --- the graph's nodes. Kernel arguments returned are the node's own copy ("owned by the node").
cudaError_t cudaGraphKernelNodeGetParams(cudaGraphNode_t node, cudaKernelNodeParams* out) {
  const auto* k = params_of<rt::KeptLaunch>(node, rt::kernel_node);
  if (!k || !out) return cudaErrorInvalidValue;
  *out = cudaKernelNodeParams{};
  out->func = const_cast<void*>(k->host_function);
  out->gridDim = dim3(k->config.grid[0], k->config.grid[1], k->config.grid[2]);
  out->blockDim = dim3(k->config.block[0], k->config.block[1], k->config.block[2]);
  out->sharedMemBytes = static_cast<unsigned>(k->config.shared_bytes);
  out->kernelParams = const_cast<void**>(k->pointers.data());
  return cudaSuccess;
}
cudaError_t cudaGraphKernelNodeSetParams(cudaGraphNode_t node, const cudaKernelNodeParams* p) {
  return set_params(node_of(node), rt::kernel_node, [&](GraphNode& m) { return remake_kernel(node_of(node), p, m); });
}
cudaError_t cudaGraphMemcpyNodeGetParams(cudaGraphNode_t node, cudaMemcpy3DParms* out) {
  if (!node || !out || node_of(node)->type != rt::memcpy_node || !rt::memcpy_params(*node_of(node), *out)) return cudaErrorInvalidValue;
  return cudaSuccess;
}
cudaError_t cudaGraphMemcpyNodeSetParams(cudaGraphNode_t node, const cudaMemcpy3DParms* p) {
  return set_params(node_of(node), rt::memcpy_node, [p](GraphNode& m) { return p ? rt::make_memcpy_node(*p, m) : rt::invalid_value; });
}
cudaError_t cudaGraphMemcpyNodeSetParams1D(cudaGraphNode_t node, void* dst, const void* src, size_t count, cudaMemcpyKind kind) {
  return set_params(node_of(node), rt::memcpy_node, [&](GraphNode& m) { return rt::make_memcpy_node_1d({dst, src, count, kind}, m); });
}
cudaError_t cudaGraphMemsetNodeGetParams(cudaGraphNode_t node, cudaMemsetParams* out) {
  const auto* p = params_of<cudaMemsetParams>(node, rt::memset_node);
  if (!p || !out) return cudaErrorInvalidValue;
  *out = *p;
  return cudaSuccess;
}
cudaError_t cudaGraphMemsetNodeSetParams(cudaGraphNode_t node, const cudaMemsetParams* p) {
  return set_params(node_of(node), rt::memset_node, [p](GraphNode& m) { return p ? rt::make_memset_node(*p, m) : rt::invalid_value; });
}
cudaError_t cudaGraphHostNodeGetParams(cudaGraphNode_t node, cudaHostNodeParams* out) {
  const auto* p = params_of<cudaHostNodeParams>(node, rt::host_node);
  if (!p || !out) return cudaErrorInvalidValue;
  *out = *p;
  return cudaSuccess;
}
cudaError_t cudaGraphHostNodeSetParams(cudaGraphNode_t node, const cudaHostNodeParams* p) {
  return set_params(node_of(node), rt::host_node, [p](GraphNode& m) { return p ? rt::make_host_node(*p, m) : rt::invalid_value; });
}

// --- an instantiated graph's nodes, named by the nodes of the graph it was made from.
// cudaGraphExecKernelNodeSetParams: "All nodeParams fields may change" (the function too: one device here).
cudaError_t cudaGraphExecKernelNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node, const cudaKernelNodeParams* p) {
  GraphNode* target = exec_node(exec, node);
  return set_params(target, rt::kernel_node, [&](GraphNode& m) { return remake_kernel(target, p, m); });
}
// cudaGraphExecMemcpyNodeSetParams: "Both the instantiation-time memory operands and the memory operands in
// pNodeParams must be 1-dimensional. Zero-length operations are not supported."
cudaError_t cudaGraphExecMemcpyNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node, const cudaMemcpy3DParms* p) {
  GraphNode* target = exec_node(exec, node);
  if (!p || !target || target->type != rt::memcpy_node) return invalid();
  if (!rt::memcpy_is_1d(*target) || !is_1d(*p)) return invalid("cudaGraphExecMemcpyNodeSetParams: only 1-dimensional copies can be changed");
  if (p->extent.width == 0) return invalid("cudaGraphExecMemcpyNodeSetParams: zero-length copies are not supported");
  return set_params(target, rt::memcpy_node, [p](GraphNode& m) { return rt::make_memcpy_node(*p, m); });
}
cudaError_t cudaGraphExecMemcpyNodeSetParams1D(cudaGraphExec_t exec, cudaGraphNode_t node, void* dst, const void* src, size_t count,
                                               cudaMemcpyKind kind) {
  GraphNode* target = exec_node(exec, node);
  if (!target || target->type != rt::memcpy_node) return invalid();
  if (!rt::memcpy_is_1d(*target)) return invalid("cudaGraphExecMemcpyNodeSetParams1D: the node's copy is not 1-dimensional");
  if (count == 0) return invalid("cudaGraphExecMemcpyNodeSetParams1D: zero-length copies are not supported");
  return set_params(target, rt::memcpy_node, [&](GraphNode& m) { return rt::make_memcpy_node_1d({dst, src, count, kind}, m); });
}
// cudaGraphExecMemsetNodeSetParams: "Zero sized operations are not supported", "for 2d memsets, all dimension
// changes are rejected. For 1d memsets, changes in height are explicitly rejected".
cudaError_t cudaGraphExecMemsetNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node, const cudaMemsetParams* p) {
  GraphNode* target = exec_node(exec, node);
  if (!p || !target || target->type != rt::memset_node) return invalid();
  const auto* was = std::any_cast<cudaMemsetParams>(&target->params);
  if (p->width == 0 || p->height == 0) return invalid("cudaGraphExecMemsetNodeSetParams: zero-sized memsets are not supported");
  if (was && was->height > 1 && (p->width != was->width || p->height != was->height || p->elementSize != was->elementSize || p->pitch != was->pitch))
    return invalid("cudaGraphExecMemsetNodeSetParams: a 2D memset's dimensions cannot change");
  if (was && was->height <= 1 && p->height != 1) return invalid("cudaGraphExecMemsetNodeSetParams: a 1D memset's height cannot change");
  return set_params(target, rt::memset_node, [p](GraphNode& m) { return rt::make_memset_node(*p, m); });
}
cudaError_t cudaGraphExecHostNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node, const cudaHostNodeParams* p) {
  return set_params(exec_node(exec, node), rt::host_node, [p](GraphNode& m) { return p ? rt::make_host_node(*p, m) : rt::invalid_value; });
}

// cudaGraphNodeSetEnabled: "Disabled nodes are functionally equivalent to empty nodes until they are reenabled";
// "Currently only kernel, memset and memcpy nodes are supported."
cudaError_t cudaGraphNodeSetEnabled(cudaGraphExec_t exec, cudaGraphNode_t node, unsigned int enabled) {
  GraphNode* target = exec_node(exec, node);
  if (!target || (target->type != rt::kernel_node && target->type != rt::memset_node && target->type != rt::memcpy_node)) return invalid();
  target->enabled = enabled != 0;
  return cudaSuccess;
}
cudaError_t cudaGraphNodeGetEnabled(cudaGraphExec_t exec, cudaGraphNode_t node, unsigned int* enabled) {
  GraphNode* target = exec_node(exec, node);
  if (!enabled || !target || (target->type != rt::kernel_node && target->type != rt::memset_node && target->type != rt::memcpy_node))
    return invalid();
  *enabled = target->enabled ? 1 : 0;
  return cudaSuccess;
}

}  // extern "C"

// CUDA runtime API: cudaGraphExecUpdate and cudaGraphExecChildGraphNodeSetParams, which give an instantiated graph
// the node parameters of a topologically identical graph. Nodes are paired in the order they were created, their
// dependencies in edge order (Runtime API, cudaGraphExecUpdate: "The dependencies are paired based on edge order").
#include "semantics/runtime/graph_conditional.hpp"
#include "semantics/runtime/graph_nodes.hpp"
#include "semantics/runtime/runtime.hpp"

#include <any>
#include <iterator>
#include <map>
#include <memory>
#include <string>

using ptx::runtime::Graph;
using ptx::runtime::GraphExec;
using ptx::runtime::GraphNode;
using ptx::runtime::Runtime;
namespace rt = ptx::runtime;

namespace {
struct Mismatch {
  cudaGraphExecUpdateResult result = cudaGraphExecUpdateSuccess;
  const GraphNode* node = nullptr;  // the node of the new graph at fault, if any
  const GraphNode* from = nullptr;  // the mismatched dependency, if any
};

// The memory type (cudaMemoryType) of a copy's side: arrays apart, the runtime's kind of memory.
int side_type(const void* ptr, const void* array) { return array ? -1 : Runtime::instance().memory_type(ptr); }

// Whether `now`'s parameters may replace `was`'s (the limitations listed under cudaGraphExecUpdate): memsets keep a
// 2D memset's dimensions and a 1D memset's height; memcpys keep the memory type of source and destination.
bool parameters_may_change(const GraphNode& was, const GraphNode& now) {
  if (was.type == rt::memset_node) {
    const auto* a = std::any_cast<cudaMemsetParams>(&was.params);
    const auto* b = std::any_cast<cudaMemsetParams>(&now.params);
    if (!a || !b) return true;
    if (a->height > 1) return a->width == b->width && a->height == b->height && a->elementSize == b->elementSize && a->pitch == b->pitch;
    return b->height == 1;
  }
  if (was.type == rt::memcpy_node) {
    cudaMemcpy3DParms a{}, b{};
    if (!rt::memcpy_params(was, a) || !rt::memcpy_params(now, b)) return true;
    return side_type(a.srcPtr.ptr, a.srcArray) == side_type(b.srcPtr.ptr, b.srcArray) &&
           side_type(a.dstPtr.ptr, a.dstArray) == side_type(b.dstPtr.ptr, b.dstArray);
  }
  return true;
}

// Kernel nodes: "A cooperative node cannot be updated to a non-cooperative node, and vice-versa" (cooperative is a
// kernel node attribute, cudaKernelNodeAttributeCooperative).
bool attributes_may_change(const GraphNode& was, const GraphNode& now) {
  const auto* a = std::any_cast<rt::KeptLaunch>(&was.params);
  const auto* b = std::any_cast<rt::KeptLaunch>(&now.params);
  return !a || !b || a->extras.cooperative == b->extras.cooperative;
}

Mismatch compare(const Graph& was, const Graph& now);

// Conditional nodes (cudaGraphExecUpdate: "Changing node parameters is not supported. Changing parameters of nodes
// within the conditional body graph is subject to the rules above"): the same kind and number of bodies, each body
// updatable from its pair. The handle may differ: a handle belongs to the graph it was created for. As measured on
// an H200 (tests/hardware/h200/exec.txt, graph_conditional_update): another kind or number of bodies is
// cudaGraphExecUpdateErrorNotSupported at the conditional node; a body's mismatch is reported as the body's
// comparison gives it, not at the conditional node.
Mismatch compare_conditional(const GraphNode& was, const GraphNode& now) {
  const auto* a = std::any_cast<rt::ConditionalParams>(&was.params);
  const auto* b = std::any_cast<rt::ConditionalParams>(&now.params);
  if (!a || !b || a->kind != b->kind || a->bodies.size() != b->bodies.size()) return {cudaGraphExecUpdateErrorNotSupported, &now, nullptr};
  for (std::size_t i = 0; i < a->bodies.size(); ++i)
    if (Mismatch m = compare(*a->bodies[i], *b->bodies[i]); m.result != cudaGraphExecUpdateSuccess) return m;
  return {};
}

// The node-by-node checks, once the topologies agree: same type, no memory node (an allocation's address is its
// node's), parameters and attributes changed only as allowed, child graphs and conditional bodies compared
// recursively ("The update is recursive").
Mismatch compare_nodes(const Graph& was, const Graph& now) {
  for (std::size_t i = 0; i < now.nodes.size(); ++i) {
    const GraphNode& a = *was.nodes[i];
    const GraphNode& b = *now.nodes[i];
    if (a.type != b.type) return {cudaGraphExecUpdateErrorNodeTypeChanged, &b, nullptr};
    if (a.type == rt::mem_alloc_node || a.type == rt::mem_free_node) return {cudaGraphExecUpdateErrorNotSupported, &b, nullptr};
    if (a.type == rt::conditional_node)
      if (Mismatch m = compare_conditional(a, b); m.result != cudaGraphExecUpdateSuccess) return m;
    if (!parameters_may_change(a, b)) return {cudaGraphExecUpdateErrorParametersChanged, &b, nullptr};
    if (!attributes_may_change(a, b)) return {cudaGraphExecUpdateErrorAttributesChanged, &b, nullptr};
    const auto* ca = std::any_cast<std::shared_ptr<const Graph>>(&a.params);
    const auto* cb = std::any_cast<std::shared_ptr<const Graph>>(&b.params);
    if (ca && cb)
      if (Mismatch m = compare(**ca, **cb); m.result != cudaGraphExecUpdateSuccess) return {m.result, &b, m.from};
  }
  return {};
}

// cudaGraphExecUpdate's topology rules: the same number of nodes, each with as many dependencies as its pair, paired
// dependency by dependency. A dependency that does not match is reported at its node with errorFromNode null, as
// an H200 gives it (tests/hardware/h200/exec.txt, graph_update: "errorFromNode" is documented as the error edge's
// from node, but the real runtime leaves it null).
Mismatch compare(const Graph& was, const Graph& now) {
  if (was.nodes.size() != now.nodes.size()) return {cudaGraphExecUpdateErrorTopologyChanged, nullptr, nullptr};
  std::map<const GraphNode*, std::size_t> index_was, index_now;
  for (std::size_t i = 0; i < was.nodes.size(); ++i) index_was[was.nodes[i].get()] = i, index_now[now.nodes[i].get()] = i;
  for (std::size_t i = 0; i < now.nodes.size(); ++i) {
    const GraphNode& a = *was.nodes[i];
    const GraphNode& b = *now.nodes[i];
    if (a.deps.size() != b.deps.size()) return {cudaGraphExecUpdateErrorTopologyChanged, &b, nullptr};
    for (std::size_t k = 0; k < b.deps.size(); ++k)
      if (index_was.at(a.deps[k]) != index_now.at(b.deps[k])) return {cudaGraphExecUpdateErrorTopologyChanged, &b, nullptr};
  }
  return compare_nodes(was, now);
}

// Gives `target`'s nodes the work of `source`'s, paired by creation order (their edges and enabled states kept). A
// conditional node takes a copy of the new bodies and the new graph's handle, whose flags and default value come
// with it ("Conditional handle flags and default values are updated as part of the graph update").
void take_work(Graph& target, const Graph& source) {
  for (std::size_t i = 0; i < target.nodes.size(); ++i) rt::replace_work(*target.nodes[i], rt::copy_node(*source.nodes[i]));
}
std::string result_name(cudaGraphExecUpdateResult r) {
  static const char* const names[] = {"Success",         "Error",         "ErrorTopologyChanged", "ErrorNodeTypeChanged", "ErrorFunctionChanged",
                                      "ErrorParametersChanged", "ErrorNotSupported", "ErrorUnsupportedFunctionChange", "ErrorAttributesChanged"};
  const auto i = static_cast<std::size_t>(r);
  return i < std::size(names) ? std::string("cudaGraphExecUpdate") + names[i] : "cudaGraphExecUpdateResult " + std::to_string(i);
}
cudaGraphNode_t handle(const GraphNode* n) { return reinterpret_cast<cudaGraphNode_t>(const_cast<GraphNode*>(n)); }
}  // namespace

extern "C" {

// "cudaGraphExecUpdate returns cudaSuccess when the updated was performed successfully. It returns
// cudaErrorGraphExecUpdateFailure if the graph update was not performed because it included changes which
// violated constraints specific to instantiated graph update." The reason goes to resultInfo.
cudaError_t cudaGraphExecUpdate(cudaGraphExec_t exec, cudaGraph_t graph, cudaGraphExecUpdateResultInfo* info) {
  if (!exec || !graph || !info) return cudaErrorInvalidValue;
  auto* e = reinterpret_cast<GraphExec*>(exec);
  const Mismatch m = compare(*e->graph, *reinterpret_cast<Graph*>(graph));
  *info = cudaGraphExecUpdateResultInfo{m.result, handle(m.node), handle(m.from)};
  if (m.result != cudaGraphExecUpdateSuccess) {
    Runtime::instance().report("cudaGraphExecUpdate: the update is not performed: " + result_name(m.result) +
                               (m.node ? " at the new graph's " + m.node->what : std::string()));
    return static_cast<cudaError_t>(Runtime::instance().record(cudaErrorGraphExecUpdateFailure));
  }
  take_work(*e->graph, *reinterpret_cast<Graph*>(graph));
  e->conditional_values = rt::make_conditional_values(rt::conditional_handles(*e->graph));  // the new handles, at their defaults
  return cudaSuccess;
}

// cudaGraphExecChildGraphNodeSetParams: "The topology of childGraph, as well as the node insertion order, must
// match that of the graph contained in node", updated recursively as cudaGraphExecUpdate does; a mismatch is
// cudaErrorGraphExecUpdateFailure, as an H200 gives it (tests/hardware/h200/exec.txt, graph_update; the API
// reference lists only cudaErrorInvalidValue).
cudaError_t cudaGraphExecChildGraphNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node, cudaGraph_t child) {
  if (!exec || !node || !child) return cudaErrorInvalidValue;
  GraphNode* target = reinterpret_cast<GraphExec*>(exec)->node_for(reinterpret_cast<GraphNode*>(node));
  const auto* was = target ? std::any_cast<std::shared_ptr<const Graph>>(&target->params) : nullptr;
  if (!was) return static_cast<cudaError_t>(Runtime::instance().record(rt::invalid_value));
  if (compare(**was, *reinterpret_cast<Graph*>(child)).result != cudaGraphExecUpdateSuccess) {
    Runtime::instance().report("cudaGraphExecChildGraphNodeSetParams: the child graph's topology or node types differ from the node's");
    return static_cast<cudaError_t>(Runtime::instance().record(cudaErrorGraphExecUpdateFailure));
  }
  GraphNode made;
  if (int err = rt::make_child_node(*reinterpret_cast<Graph*>(child), made)) return static_cast<cudaError_t>(err);
  rt::replace_work(*target, std::move(made));
  return cudaSuccess;
}

}  // extern "C"

// CUDA runtime API: the events of event record and event wait nodes (Runtime API, "Graph Management":
// cudaGraphEventRecordNodeGetEvent/SetEvent, cudaGraphEventWaitNodeGetEvent/SetEvent, and the instantiated graph's
// cudaGraphExecEventRecordNodeSetEvent/cudaGraphExecEventWaitNodeSetEvent). The nodes themselves are made by
// graph_nodes.cpp (make_event_record_node, make_event_wait_node) for cudaGraphAddEventRecordNode/WaitNode,
// cudaGraphAddNode and stream capture with cudaEventRecordExternal / cudaEventWaitExternal.
#include "semantics/runtime/api_error.hpp"
#include "semantics/runtime/graph_nodes.hpp"
#include "semantics/runtime/runtime.hpp"

#include <any>

using ptx::runtime::GraphExec;
using ptx::runtime::GraphNode;
using ptx::runtime::Runtime;
namespace rt = ptx::runtime;

namespace {
GraphNode* node_of(cudaGraphNode_t n) { return reinterpret_cast<GraphNode*>(n); }

// The event of `node` when it is an event node of `type` (else cudaErrorInvalidValue).
cudaError_t get_event(const GraphNode* node, int type, cudaEvent_t* out) {
  const auto* e = node && node->type == type ? std::any_cast<rt::EventNode>(&node->params) : nullptr;
  if (!e || !out) return invalid();
  *out = e->event;
  return cudaSuccess;
}
// `target`, an event node of `type`, made anew for `event` (its edges kept).
cudaError_t set_event(GraphNode* target, int type, cudaEvent_t event) {
  if (!target || target->type != type) return invalid();
  GraphNode made;
  const int e = type == rt::event_record_node ? rt::make_event_record_node(event, made) : rt::make_event_wait_node(event, made);
  if (e) return static_cast<cudaError_t>(e);
  rt::replace_work(*target, std::move(made));
  return cudaSuccess;
}
// The instantiated graph's own node for `node` of the graph it was made from; null when there is none.
GraphNode* exec_node(cudaGraphExec_t exec, cudaGraphNode_t node) {
  return exec && node ? reinterpret_cast<GraphExec*>(exec)->node_for(node_of(node)) : nullptr;
}
}  // namespace

extern "C" {

cudaError_t cudaGraphEventRecordNodeGetEvent(cudaGraphNode_t node, cudaEvent_t* event_out) {
  return get_event(node_of(node), rt::event_record_node, event_out);
}
cudaError_t cudaGraphEventRecordNodeSetEvent(cudaGraphNode_t node, cudaEvent_t event) {
  return set_event(node_of(node), rt::event_record_node, event);
}
cudaError_t cudaGraphEventWaitNodeGetEvent(cudaGraphNode_t node, cudaEvent_t* event_out) {
  return get_event(node_of(node), rt::event_wait_node, event_out);
}
cudaError_t cudaGraphEventWaitNodeSetEvent(cudaGraphNode_t node, cudaEvent_t event) {
  return set_event(node_of(node), rt::event_wait_node, event);
}

// "The modifications only affect future launches of hGraphExec ... hNode is also not modified by this call."
cudaError_t cudaGraphExecEventRecordNodeSetEvent(cudaGraphExec_t exec, cudaGraphNode_t node, cudaEvent_t event) {
  return set_event(exec_node(exec, node), rt::event_record_node, event);
}
cudaError_t cudaGraphExecEventWaitNodeSetEvent(cudaGraphExec_t exec, cudaGraphNode_t node, cudaEvent_t event) {
  return set_event(exec_node(exec, node), rt::event_wait_node, event);
}

}  // extern "C"

// CUDA runtime API: cudaGraphNodeSetParams and cudaGraphExecNodeSetParams, the generic (cudaGraphNodeParams) forms
// of the per-kind SetParams calls. Each kind goes to its own call (api_graph_update.cpp, api_graph_exec_update.cpp,
// api_graph_events.cpp), so the limits are those calls' limits: cudaGraphExecNodeSetParams's table says "kernel:
// See cudaGraphExecKernelNodeSetParams", "memcpy: ... see cudaGraphExecMemcpyNodeSetParams", and so on. The node
// type in the parameters "must match the type of node" (else cudaErrorInvalidValue); memory allocation and free
// nodes are refused with cudaErrorNotSupported ("Modifying parameters is not supported", "API unsupported");
// conditional nodes, which neither table lists, by name.
#include "semantics/runtime/api_error.hpp"
#include "semantics/runtime/graph_nodes.hpp"
#include "semantics/runtime/runtime.hpp"

#include <cuda_runtime_api.h>

#include <memory>
#include <string>

using ptx::runtime::Graph;
using ptx::runtime::GraphExec;
using ptx::runtime::GraphNode;
using ptx::runtime::Runtime;
namespace rt = ptx::runtime;

namespace {
GraphNode* node_of(cudaGraphNode_t n) { return reinterpret_cast<GraphNode*>(n); }

// What both calls refuse: a type other than the node's, memory nodes, conditional nodes. cudaSuccess otherwise.
cudaError_t check_kind(const char* call, const GraphNode* target, const cudaGraphNodeParams& p) {
  if (static_cast<int>(p.type) != target->type)
    return invalid(std::string(call) + ": nodeParams->type " + std::to_string(static_cast<int>(p.type)) + " is not the node's type " +
                   std::to_string(target->type));
  if (target->type == rt::mem_alloc_node || target->type == rt::mem_free_node) {
    Runtime::instance().report(std::string(call) + ": the parameters of memory allocation and free nodes cannot be changed");
    return as_error(Runtime::instance().record(rt::not_supported));
  }
  if (target->type == rt::conditional_node) return as_error(Runtime::instance().unimplemented(std::string(call) + " of a conditional node"));
  if (target->type == rt::child_graph_node && (!p.graph.graph || p.graph.ownership != cudaGraphChildGraphOwnershipClone))
    return p.graph.graph ? as_error(Runtime::instance().unimplemented(std::string(call) + " of a child graph moved into its parent"))
                         : invalid(std::string(call) + ": no child graph");
  return cudaSuccess;
}

// A graph's child graph node: "the child graph to clone into the node" (cudaChildGraphNodeParams), as
// cudaGraphAddNode makes it.
cudaError_t set_child_graph(GraphNode& target, cudaGraph_t child) {
  GraphNode made;
  if (int e = rt::make_child_node(*reinterpret_cast<const Graph*>(child), made)) return as_error(e);
  rt::replace_work(target, std::move(made));
  return cudaSuccess;
}
}  // namespace

extern "C" {

cudaError_t cudaGraphNodeSetParams(cudaGraphNode_t node, cudaGraphNodeParams* p) {
  if (!node || !p) return invalid("cudaGraphNodeSetParams: no node or no parameters");
  if (cudaError_t e = check_kind("cudaGraphNodeSetParams", node_of(node), *p)) return e;
  switch (p->type) {
    case cudaGraphNodeTypeKernel: {
      const cudaKernelNodeParams k = rt::kernel_params(p->kernel);
      return cudaGraphKernelNodeSetParams(node, &k);
    }
    case cudaGraphNodeTypeMemcpy: return cudaGraphMemcpyNodeSetParams(node, &p->memcpy.copyParams);
    case cudaGraphNodeTypeMemset: {
      const cudaMemsetParams m = rt::memset_params(p->memset);
      return cudaGraphMemsetNodeSetParams(node, &m);
    }
    case cudaGraphNodeTypeHost: {
      const cudaHostNodeParams h{p->host.fn, p->host.userData};
      return cudaGraphHostNodeSetParams(node, &h);
    }
    case cudaGraphNodeTypeGraph: return set_child_graph(*node_of(node), p->graph.graph);
    case cudaGraphNodeTypeEmpty: return cudaSuccess;  // an empty node has no parameters
    case cudaGraphNodeTypeEventRecord: return cudaGraphEventRecordNodeSetEvent(node, p->eventRecord.event);
    case cudaGraphNodeTypeWaitEvent: return cudaGraphEventWaitNodeSetEvent(node, p->eventWait.event);
    default: return as_error(Runtime::instance().unimplemented("cudaGraphNodeSetParams of node type " + std::to_string(static_cast<int>(p->type))));
  }
}

// "The modifications only affect future launches of graphExec ... node is also not modified by this call."
// Empty parameters for an empty node set nothing, and an H200 answers cudaSuccess for them whichever graph the
// node is of (tests/hardware/h200/exec.txt, graph_node_params; a kernel node of another graph is
// cudaErrorInvalidValue there, as here).
cudaError_t cudaGraphExecNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node, cudaGraphNodeParams* p) {
  if (exec && node && p && p->type == cudaGraphNodeTypeEmpty && node_of(node)->type == rt::empty_node) return cudaSuccess;
  GraphNode* target = exec && node ? reinterpret_cast<GraphExec*>(exec)->node_for(node_of(node)) : nullptr;
  if (!target || !p) return invalid("cudaGraphExecNodeSetParams: no parameters, or the node is not one the executable graph was made from");
  if (cudaError_t e = check_kind("cudaGraphExecNodeSetParams", target, *p)) return e;
  switch (p->type) {
    case cudaGraphNodeTypeKernel: {
      const cudaKernelNodeParams k = rt::kernel_params(p->kernel);
      return cudaGraphExecKernelNodeSetParams(exec, node, &k);
    }
    case cudaGraphNodeTypeMemcpy: return cudaGraphExecMemcpyNodeSetParams(exec, node, &p->memcpy.copyParams);
    case cudaGraphNodeTypeMemset: {
      const cudaMemsetParams m = rt::memset_params(p->memset);
      return cudaGraphExecMemsetNodeSetParams(exec, node, &m);
    }
    case cudaGraphNodeTypeHost: {
      const cudaHostNodeParams h{p->host.fn, p->host.userData};
      return cudaGraphExecHostNodeSetParams(exec, node, &h);
    }
    case cudaGraphNodeTypeGraph: return cudaGraphExecChildGraphNodeSetParams(exec, node, p->graph.graph);
    case cudaGraphNodeTypeEmpty: return cudaSuccess;
    case cudaGraphNodeTypeEventRecord: return cudaGraphExecEventRecordNodeSetEvent(exec, node, p->eventRecord.event);
    case cudaGraphNodeTypeWaitEvent: return cudaGraphExecEventWaitNodeSetEvent(exec, node, p->eventWait.event);
    default:
      return as_error(Runtime::instance().unimplemented("cudaGraphExecNodeSetParams of node type " + std::to_string(static_cast<int>(p->type))));
  }
}

}  // extern "C"

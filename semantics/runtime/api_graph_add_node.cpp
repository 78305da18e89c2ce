// CUDA runtime API: cudaGraphAddNode, the generic form of cudaGraphAdd*Node (a cudaGraphNodeParams of any node
// type). Kernel, memcpy, memset, host, child graph, empty, event record, event wait and conditional nodes are made by the same
// makers as their own Add calls (graph_nodes.cpp, graph_conditional.cpp); other types, edge data other than the
// default and child graphs moved into the parent are refused by name.
#include "semantics/runtime/api_error.hpp"
#include "semantics/runtime/graph_conditional.hpp"
#include "semantics/runtime/graph_nodes.hpp"
#include "semantics/runtime/runtime.hpp"

#include <cuda_runtime_api.h>

#include <any>
#include <string>

using ptx::runtime::Graph;
using ptx::runtime::GraphNode;
using ptx::runtime::Runtime;

namespace {

// The node `p` describes, made by its kind's maker (0), or the error (recorded).
int make_node(const Graph& graph, cudaGraphNodeParams& p, GraphNode& node) {
  switch (p.type) {
    case cudaGraphNodeTypeKernel: return ptx::runtime::make_kernel_node(ptx::runtime::kernel_params(p.kernel), node);
    case cudaGraphNodeTypeMemcpy: return ptx::runtime::make_memcpy_node(p.memcpy.copyParams, node);
    case cudaGraphNodeTypeMemset: return ptx::runtime::make_memset_node(ptx::runtime::memset_params(p.memset), node);
    case cudaGraphNodeTypeHost: return ptx::runtime::make_host_node({p.host.fn, p.host.userData}, node);
    case cudaGraphNodeTypeGraph:
      if (!p.graph.graph) return Runtime::instance().record(ptx::runtime::invalid_value);
      if (p.graph.ownership != cudaGraphChildGraphOwnershipClone) return Runtime::instance().unimplemented("cudaGraphAddNode of a child graph moved into its parent");
      return ptx::runtime::make_child_node(*reinterpret_cast<const Graph*>(p.graph.graph), node);
    case cudaGraphNodeTypeEmpty:
      node = {"empty node", [] { return 0; }, ptx::runtime::empty_node, {}};
      return 0;
    case cudaGraphNodeTypeEventRecord: return ptx::runtime::make_event_record_node(p.eventRecord.event, node);
    case cudaGraphNodeTypeWaitEvent: return ptx::runtime::make_event_wait_node(p.eventWait.event, node);
    case cudaGraphNodeTypeConditional: {
      const cudaConditionalNodeParams& c = p.conditional;
      return ptx::runtime::make_conditional_node(graph, c.handle, c.type, c.size, node);
    }
    default: return Runtime::instance().unimplemented("cudaGraphAddNode of node type " + std::to_string(static_cast<int>(p.type)));
  }
}
}  // namespace

extern "C" {

// A conditional node's bodies are returned in nodeParams->conditional.phGraph_out: "CUDA-owned array populated
// with conditional node child graphs during creation of the node. Valid for the lifetime of the conditional node."
cudaError_t cudaGraphAddNode(cudaGraphNode_t* out, cudaGraph_t graph, const cudaGraphNode_t* deps, const cudaGraphEdgeData* edges,
                             size_t count, cudaGraphNodeParams* p) {
  if (!out || !graph || !p) return as_error(Runtime::instance().record(ptx::runtime::invalid_value));
  for (size_t i = 0; edges && i < count; ++i)
    if (edges[i].from_port || edges[i].to_port || edges[i].type)
      return as_error(Runtime::instance().unimplemented("cudaGraphAddNode with edge data other than the default"));
  GraphNode node;
  if (int e = make_node(*reinterpret_cast<const Graph*>(graph), *p, node)) return as_error(e);
  if (cudaError_t e = ptx::runtime::add_graph_node(out, graph, deps, count, std::move(node))) return e;
  const GraphNode* added = reinterpret_cast<const GraphNode*>(*out);
  if (const auto* c = std::any_cast<ptx::runtime::ConditionalParams>(&added->params))
    p->conditional.phGraph_out = reinterpret_cast<cudaGraph_t*>(c->body_handles->data());
  return cudaSuccess;
}

}  // extern "C"

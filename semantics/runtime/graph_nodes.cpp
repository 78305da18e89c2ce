// See graph_nodes.hpp: the node makers shared by cudaGraphAdd*Node (api_graph_nodes.cpp) and the SetParams calls
// (api_graph_update.cpp), and adding a made node to a graph. Each checks its parameters as cudaGraphAdd*Node does.
#include "semantics/runtime/graph_nodes.hpp"

#include "semantics/runtime/api_error.hpp"
#include "semantics/runtime/graph_conditional.hpp"
#include "semantics/runtime/graph_memory.hpp"
#include "semantics/runtime/pitched.hpp"
#include "semantics/runtime/runtime.hpp"

#include <any>
#include <memory>
#include <vector>

namespace ptx::runtime {

namespace {
GraphNode* node_of(cudaGraphNode_t n) { return reinterpret_cast<GraphNode*>(n); }
}  // namespace

cudaError_t add_graph_node(cudaGraphNode_t* out, cudaGraph_t graph, const cudaGraphNode_t* deps, size_t count, GraphNode node) {
  if (!out || !graph || (count && !deps)) return invalid();
  Graph* g = reinterpret_cast<Graph*>(graph);
  for (size_t i = 0; i < count; ++i) {
    if (!g->owns(node_of(deps[i]))) return invalid();
    node.deps.push_back(node_of(deps[i]));
  }
  *out = reinterpret_cast<cudaGraphNode_t>(g->add(std::move(node)));
  return cudaSuccess;
}

int make_kernel_node(const cudaKernelNodeParams& p, GraphNode& node, const LaunchExtras& extras) {
  if (p.extra) return Runtime::instance().unimplemented("a kernel node with arguments in `extra`");
  const Kernel* k = Runtime::instance().kernel(p.func);
  if (!k) return Runtime::instance().record(invalid_device_function);
  LaunchConfig config;
  config.grid = {p.gridDim.x, p.gridDim.y, p.gridDim.z};
  config.block = {p.blockDim.x, p.blockDim.y, p.blockDim.z};
  config.shared_bytes = p.sharedMemBytes;
  KeptLaunch kept;
  if (int e = Runtime::instance().keep_launch(p.func, config, p.kernelParams, extras, kept)) return e;
  node.what = "kernel node " + k->name;
  node.run = [kept] { return Runtime::instance().run_kept(kept); };
  node.type = kernel_node;
  node.params = std::move(kept);
  return success;
}

int make_memcpy_node(const cudaMemcpy3DParms& p, GraphNode& node) {
  node.what = "memcpy node";
  node.run = [p] { return copy_pitched(p); };
  node.type = memcpy_node;
  node.params = p;
  return success;
}
int make_memcpy_node_1d(const Memcpy1D& p, GraphNode& node) {
  node.what = "memcpy node";
  node.run = [p] { return Runtime::instance().copy(p.dst, p.src, p.count, p.kind); };
  node.type = memcpy_node;
  node.params = p;
  return success;
}
bool memcpy_params(const GraphNode& node, cudaMemcpy3DParms& out) {
  if (const auto* p = std::any_cast<cudaMemcpy3DParms>(&node.params)) {
    out = *p;
    return true;
  }
  const auto* p = std::any_cast<Memcpy1D>(&node.params);
  if (!p) return false;
  out = cudaMemcpy3DParms{};
  out.srcPtr = cudaPitchedPtr{const_cast<void*>(p->src), p->count, p->count, 1};
  out.dstPtr = cudaPitchedPtr{p->dst, p->count, p->count, 1};
  out.extent = cudaExtent{p->count, 1, 1};
  out.kind = p->kind;
  return true;
}
bool memcpy_is_1d(const GraphNode& node) {
  if (std::any_cast<Memcpy1D>(&node.params)) return true;
  const auto* p = std::any_cast<cudaMemcpy3DParms>(&node.params);
  return p && !p->srcArray && !p->dstArray && p->extent.height <= 1 && p->extent.depth <= 1;
}

int make_memset_node(const cudaMemsetParams& p, GraphNode& node) {
  if (p.elementSize != 1 && p.elementSize != 2 && p.elementSize != 4) return Runtime::instance().record(invalid_value);
  if (p.height > 1 && p.pitch < p.width * p.elementSize) return Runtime::instance().record(invalid_value);
  node.what = "memset node";
  node.run = [p] { return set_rows(p.dst, p.pitch, p.value, p.elementSize, p.width, p.height); };
  node.type = memset_node;
  node.params = p;
  return success;
}

int make_host_node(const cudaHostNodeParams& p, GraphNode& node) {
  if (!p.fn) return Runtime::instance().record(invalid_value);
  node.what = "host node";
  node.run = [p] {
    p.fn(p.userData);
    return 0;
  };
  node.type = host_node;
  node.params = p;
  return success;
}

// The child graph is copied into the node (CUDA clones it); the node runs the copy's nodes in dependency order.
// A graph with memory or conditional nodes cannot be a child (cudaGraphAddMemAllocNode: only "if the ownership is moved to the
// parent", which cudaGraphAddChildGraphNode does not do).
int make_child_node(const Graph& child, GraphNode& node) {
  if (has_memory_nodes(child) || has_conditional_nodes(child)) {  // conditional: "The graph cannot be used in a child node."
    const bool memory = has_memory_nodes(child);
    Runtime::instance().report(std::string("cudaGraphAddChildGraphNode: a graph with ") + (memory ? "memory" : "conditional") +
                               " nodes cannot be a child graph");
    // (conditional: cudaErrorNotSupported, measured on an H200, tests/hardware/h200/exec.txt, graph_conditional)
    return Runtime::instance().record(memory ? invalid_value : not_supported);
  }
  std::shared_ptr<const Graph> copy = clone_graph(child);
  std::vector<GraphNode> nodes;
  if (!run_order_copy(*copy, nodes)) return Runtime::instance().record(invalid_value);
  node.what = "child graph node";
  node.run = [nodes = std::move(nodes)] { return run_nodes(nodes); };
  node.type = child_graph_node;
  node.params = copy;
  return success;
}

// cudaGraphAddEventRecordNode: "Each launch of the graph will record event to capture execution of the node's
// dependencies": the node records it when it runs, after them (as cudaEventRecord on the legacy stream would: the
// interpreter's instruction count so far, for cudaEventElapsedTime).
int make_event_record_node(cudaEvent_t event, GraphNode& node) {
  if (!event) return Runtime::instance().record(invalid_value);
  node.what = "event record node";
  node.run = [event] { return static_cast<int>(cudaEventRecord(event, nullptr)); };
  node.type = event_record_node;
  node.params = EventNode{event};
  return success;
}
// cudaGraphAddEventWaitNode: "The graph node will wait for all work captured in event". Work here has completed
// when the call that issued it returns (api_stream.cpp), so the event's last record has completed before the node
// runs and its dependents run after it, as they would on a GPU once the wait is satisfied.
int make_event_wait_node(cudaEvent_t event, GraphNode& node) {
  if (!event) return Runtime::instance().record(invalid_value);
  node.what = "event wait node";
  node.run = [] { return 0; };
  node.type = event_wait_node;
  node.params = EventNode{event};
  return success;
}

void replace_work(GraphNode& target, GraphNode made) {
  target.what = std::move(made.what);
  target.run = std::move(made.run);
  target.params = std::move(made.params);
}
cudaKernelNodeParams kernel_params(const cudaKernelNodeParamsV2& k) {
  return {k.func, k.gridDim, k.blockDim, k.sharedMemBytes, k.kernelParams, k.extra};
}
cudaMemsetParams memset_params(const cudaMemsetParamsV2& m) { return {m.dst, m.pitch, m.value, m.elementSize, m.width, m.height}; }

}  // namespace ptx::runtime

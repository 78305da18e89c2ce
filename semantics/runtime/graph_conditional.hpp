// Conditional graph nodes (CUDA 12.3+; driver_types.h cudaConditionalNodeParams, the Programming Guide's
// "Conditional Graph Nodes"): a node that runs one of its body graphs, or one repeatedly, as the value of a
// conditional handle says. Handles belong to a graph (cudaGraphConditionalHandleCreate); kernels set their value
// with the device-side cudaGraphSetConditional (interp::Options::set_conditional). The C API:
// api_graph_conditional.cpp.
#pragma once

#include "semantics/runtime/graph.hpp"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace ptx::runtime {

// cudaGraphConditionalNodeType.
enum ConditionalKind : int { conditional_if = 0, conditional_while = 1, conditional_switch = 2 };

// What a conditional node keeps: its handle, kind and body graphs (owned by the node; `body_handles` is the array
// cudaConditionalNodeParams::phGraph_out points to, valid for the node's life).
struct ConditionalParams {
  std::uint64_t handle = 0;
  int kind = conditional_if;
  std::vector<std::shared_ptr<Graph>> bodies;
  std::shared_ptr<std::vector<Graph*>> body_handles;
};

// A new handle of graph `g` (nonzero). With `assign_default` (cudaGraphCondAssignDefault) its value is set to
// `default_value` at the start of every launch of a graph that uses it; without, the value starts at 0 and the
// default is never applied (measured on an H200, tests/hardware/h200/exec.txt: graph_conditional_exec_values).
std::uint64_t create_conditional_handle(const Graph& g, std::uint32_t default_value, bool assign_default);
// cudaGraphSetConditional from a kernel: false when no such handle exists.
bool set_conditional(std::uint64_t handle, std::uint32_t value);
// Makes a conditional node of `parent` with `size` new empty bodies. 0, or cudaErrorInvalidValue (recorded, the
// reason said) for a kind or size the Runtime API does not allow, or a handle not of `parent` or a graph whose
// body `parent` is ("Creates a conditional handle associated with hGraph ... a conditional node in this graph or
// one of its children"), or a handle that has a node already (one node per handle, as on an H200).
int make_conditional_node(const Graph& parent, std::uint64_t handle, int kind, unsigned size, GraphNode& node);
// A copy of `n` that owns copies of what `n` owns (a conditional node's bodies); other nodes are copied as they are.
GraphNode copy_node(const GraphNode& n);
// Whether `g` has a conditional node (such a graph cannot be cloned, be a child graph, or have two instantiations).
bool has_conditional_nodes(const Graph& g);
// The handles of `g`'s conditional nodes and of those inside their bodies.
std::vector<std::uint64_t> conditional_handles(const Graph& g);
// The values of an executable graph's conditional handles: each executable has its own, which start at 0 (an
// H200 runs no IF body at the first launch of a handle of default 1 without cudaGraphCondAssignDefault: the
// "initial value for the conditional variable" of cudaGraphConditionalHandleCreate is applied only with that flag).
struct ConditionalValues {
  std::map<std::uint64_t, std::uint32_t> value;  // handle -> value
};
std::shared_ptr<ConditionalValues> make_conditional_values(const std::vector<std::uint64_t>& handles);
// While alive, a launch of an executable graph: its conditional nodes read, and cudaGraphSetConditional sets,
// `values` (the default "applied at the beginning of each graph execution if cudaGraphCondAssignDefault is set").
// Outside every launch a kernel's cudaGraphSetConditional sets the handle's own value, which no executable reads.
class ConditionalLaunch {
 public:
  explicit ConditionalLaunch(std::shared_ptr<ConditionalValues> values);
  ~ConditionalLaunch();
  ConditionalLaunch(const ConditionalLaunch&) = delete;
  ConditionalLaunch& operator=(const ConditionalLaunch&) = delete;

 private:
  std::shared_ptr<ConditionalValues> values_;
  ConditionalValues* outer_;
};
// Why `g`'s conditional bodies cannot be instantiated (a cycle, or a node of a kind a body may not hold), or "".
std::string conditional_body_problem(const Graph& g);

}  // namespace ptx::runtime

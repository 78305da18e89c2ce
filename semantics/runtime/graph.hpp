// CUDA graphs (graph.cpp; the C API in api_graph.cpp and api_graph_nodes.cpp; docs/exec.md): a graph is a set of
// nodes with dependency edges, built node by node or by stream capture. While streams capture, the work issued to
// them is recorded as nodes that depend on what each stream issued before (and, through events, on what other
// streams of the same capture issued: fork and join); a launch of the instantiated graph runs every node after
// the nodes it depends on.
#pragma once

#include <any>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace ptx::runtime {

struct Graph;
struct ConditionalValues;  // graph_conditional.hpp

// Node types, numbered as cudaGraphNodeType numbers them (driver_types.h).
enum GraphNodeType : int { kernel_node = 0, memcpy_node = 1, memset_node = 2, host_node = 3, child_graph_node = 4, empty_node = 5,
                           event_wait_node = 6, event_record_node = 7, mem_alloc_node = 10, mem_free_node = 11, conditional_node = 13 };

// One node: what it is (for messages), its cudaGraphNodeType, how to run it (a cudaError_t as int), the nodes
// of its graph it depends on, and the parameters it was made from where the API hands them back or changes them
// (graph_nodes.hpp, graph_memory.hpp).
struct GraphNode {
  std::string what;
  std::function<int()> run;
  int type = 0;
  std::vector<GraphNode*> deps;
  std::any params{};
  bool enabled = true;  // in an instantiated graph (cudaGraphNodeSetEnabled): a disabled node runs as an empty node
};
struct Graph {
  std::vector<std::unique_ptr<GraphNode>> nodes;
  bool invalidated = false;  // a capture error: cudaStreamEndCapture fails (cudaErrorStreamCaptureInvalidated)
  GraphNode* add(GraphNode node);
  bool owns(const GraphNode* n) const;
};

// The nodes in an order that runs each after its dependencies (insertion order where the edges allow); false
// when the edges form a cycle.
bool topological_order(const Graph& g, std::vector<const GraphNode*>& order);
// The nodes of `g` copied, without their edges, in the order they run (topological_order); false on a cycle.
bool run_order_copy(const Graph& g, std::vector<GraphNode>& out);
// Runs `nodes` one after the other as calls outside any capture (a graph launch, a child graph node), stopping at
// the first error (which each node has recorded, as the call it stands for would).
int run_nodes(const std::vector<GraphNode>& nodes);
// A copy of `g` whose nodes depend on each other as g's do (cudaGraphClone, child graphs); what nodes own (a
// conditional node's bodies) is copied too (copy_node, graph_conditional.hpp).
std::unique_ptr<Graph> clone_graph(const Graph& g);

// An instantiated graph: its own copy of the graph's nodes and edges, which the exec's SetParams calls and
// cudaGraphExecUpdate change (the graph may change or go; the executable stays as instantiated), the order they run
// in, and its node for each node of the graph it was made from (the handles those calls name).
struct GraphExec {
  std::unique_ptr<Graph> graph;
  std::vector<GraphNode*> order;
  std::map<const GraphNode*, GraphNode*> from_source;
  bool auto_free = false;              // cudaGraphInstantiateFlagAutoFreeOnLaunch
  const Graph* one_instance = nullptr;  // the graph it was made from, when that may have one instantiation at a time
  // Its own values of the handles of its conditional nodes, at any depth (graph_conditional.hpp).
  std::shared_ptr<ConditionalValues> conditional_values;
  // Its own node for `source`, a node of the graph it was made from (the handle the exec SetParams calls take);
  // null when `source` is not one.
  GraphNode* node_for(const GraphNode* source) const;
};
// Instantiates `g`; null when its edges form a cycle.
std::unique_ptr<GraphExec> instantiate(const Graph& g);
// The nodes of `e` in the order they run, copied (for a launch, or a launch recorded in a capture).
std::vector<GraphNode> exec_nodes(const GraphExec& e);

// --- stream capture. `mode` is a cudaStreamCaptureMode (0 global, 1 thread-local, 2 relaxed).
// Starts a capture on `stream` into a new graph, or into `into` (cudaStreamBeginCaptureToGraph, its first node
// after `deps`, which the caller has checked are nodes of it); false if the stream captures already.
bool begin_capture(const void* stream, int mode, Graph* into = nullptr, std::vector<GraphNode*> deps = {});
// Whether `stream` captures into a graph of the program's (cudaStreamBeginCaptureToGraph), not a new one.
bool captures_into_existing(const void* stream);
// Ends the capture `stream` began: 0 and the graph, or a CUDA error (a new graph is then deleted): illegal state when it does not capture,
// cudaErrorStreamCaptureUnmatched when another stream began it, cudaErrorStreamCaptureUnjoined when a stream the
// capture forked into has work its origin did not join, cudaErrorStreamCaptureInvalidated after a capture error.
int end_capture(const void* stream, Graph*& graph);
// The graph the stream captures into, or null; the nodes its next operation will depend on.
Graph* capture_graph(const void* stream);
bool is_capturing(const void* stream);
const std::vector<GraphNode*>* capture_dependencies(const void* stream);
// If `stream` is capturing, records `node` in its graph after the stream's earlier work and returns true;
// otherwise returns false and the caller runs the operation now.
bool capture_into(const void* stream, GraphNode node);
// The rule of every asynchronous call: when `stream` captures, records `run` as a node (`type`, named `what`) and
// returns 0; otherwise runs it now and returns its error (a cudaError_t as int).
// (stream 0 itself never captures: its work is legacy_stream_work.)
int now_or_captured(const void* stream, const std::string& what, int type, std::function<int()> run, std::any params = {});
// cudaEventRecord on `stream`: inside a capture the event marks the stream's point in it.
void note_event_record(const void* stream, const void* event);
// cudaStreamWaitEvent(stream, event): where the event marks a point of a capture, the stream's later work depends
// on it; a stream that does not capture joins the capture (a fork). 0, or cudaErrorStreamCaptureMerge when the
// stream captures another sequence (both are invalidated).
int wait_event(const void* stream, const void* event);
// A call CUDA forbids while a capture is under way (an allocation, a free or a device sync in the global and
// thread-local modes: "potentially unsafe API calls"): invalidates the captures and returns
// cudaErrorStreamCaptureUnsupported (recorded as the last error) with the reason said on stderr; 0 when allowed
// (no capture, relaxed mode, or while a graph's nodes run).
int capture_forbids(const char* call);
// Work the legacy default stream would run (a synchronous copy or memset, an asynchronous call or a launch on
// stream 0) while a blocking stream (one created without cudaStreamNonBlocking) captures: the legacy stream
// would wait for that stream, an implicit dependency on captured work. Measured on an H200 (CUDA 13.0;
// tests/hardware/h200/exec.txt): cudaErrorStreamCaptureImplicit in every capture mode, the capture invalidated;
// while only non-blocking streams capture, the work runs (cudaSuccess, even in the global mode). Returns that
// error (recorded as the last error, the reason said on stderr), or 0.
int legacy_stream_work(const char* call);
// Whether `stream` was created with cudaStreamNonBlocking (called at its creation, and with false when destroyed).
void note_nonblocking_stream(const void* stream, bool nonblocking);
// A call that necessarily conflicts with the capture of `stream` (cudaStreamSynchronize, cudaStreamQuery on it):
// as above, in every mode.
int capture_conflicts(const void* stream, const char* call);
// cudaThreadExchangeStreamCaptureMode: sets the calling thread's mode, returns the old one. A thread in relaxed
// mode may make potentially unsafe calls during a capture.
int exchange_thread_capture_mode(int mode);
// While alive, the calls a graph's nodes make run as calls outside any capture.
struct ReplayScope {
  ReplayScope();
  ~ReplayScope();
};
// A graph destroyed: events no longer mark points of it.
void forget_graph(const Graph* g);

}  // namespace ptx::runtime

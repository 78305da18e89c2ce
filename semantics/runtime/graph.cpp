// See graph.hpp: graphs as nodes with edges, which streams capture into which graph, and the events recorded
// inside a capture. The capture rules follow the CUDA Runtime API reference (cudaStreamBeginCapture,
// cudaStreamEndCapture, cudaStreamWaitEvent, cudaThreadExchangeStreamCaptureMode) and the Programming Guide's
// "CUDA Graphs" chapter (cross-stream dependencies and events).
#include "semantics/runtime/graph.hpp"

#include "semantics/runtime/graph_conditional.hpp"
#include "semantics/runtime/runtime.hpp"

#include <algorithm>
#include <map>
#include <mutex>
#include <set>

namespace ptx::runtime {

GraphNode* Graph::add(GraphNode node) {
  nodes.push_back(std::make_unique<GraphNode>(std::move(node)));
  return nodes.back().get();
}
bool Graph::owns(const GraphNode* n) const {
  return std::any_of(nodes.begin(), nodes.end(), [n](const auto& m) { return m.get() == n; });
}

// Kahn's algorithm, taking the first ready node in insertion order each time.
bool topological_order(const Graph& g, std::vector<const GraphNode*>& order) {
  std::map<const GraphNode*, std::size_t> waiting;
  for (const auto& n : g.nodes) waiting[n.get()] = n->deps.size();
  std::set<const GraphNode*> done;
  order.clear();
  while (order.size() < g.nodes.size()) {
    const GraphNode* next = nullptr;
    for (const auto& n : g.nodes)
      if (!done.count(n.get()) && std::all_of(n->deps.begin(), n->deps.end(), [&](const GraphNode* d) { return done.count(d) != 0; })) {
        next = n.get();
        break;
      }
    if (!next) return false;  // every node left waits on another: a cycle
    done.insert(next);
    order.push_back(next);
  }
  return true;
}

bool run_order_copy(const Graph& g, std::vector<GraphNode>& out) {
  std::vector<const GraphNode*> order;
  if (!topological_order(g, order)) return false;
  out.clear();
  for (const GraphNode* n : order) out.push_back({n->what, n->run, n->type, {}, n->params, n->enabled});
  return true;
}

int run_nodes(const std::vector<GraphNode>& nodes) {
  ReplayScope replay;  // the nodes' own calls are not calls made during a capture
  for (const GraphNode& n : nodes)
    if (n.enabled)
      if (int err = n.run()) return err;
  return 0;
}

std::unique_ptr<GraphExec> instantiate(const Graph& g) {
  auto e = std::make_unique<GraphExec>();
  e->graph = clone_graph(g);
  std::vector<const GraphNode*> order;
  if (!topological_order(*e->graph, order)) return nullptr;
  for (const GraphNode* n : order) e->order.push_back(const_cast<GraphNode*>(n));
  for (std::size_t i = 0; i < g.nodes.size(); ++i) e->from_source[g.nodes[i].get()] = e->graph->nodes[i].get();
  e->conditional_values = make_conditional_values(conditional_handles(*e->graph));
  return e;
}

GraphNode* GraphExec::node_for(const GraphNode* source) const {
  auto it = from_source.find(source);
  return it == from_source.end() ? nullptr : it->second;
}

std::vector<GraphNode> exec_nodes(const GraphExec& e) {
  std::vector<GraphNode> out;
  for (const GraphNode* n : e.order) out.push_back({n->what, n->run, n->type, {}, n->params, n->enabled});
  return out;
}

std::unique_ptr<Graph> clone_graph(const Graph& g) {
  auto copy = std::make_unique<Graph>();
  std::map<const GraphNode*, GraphNode*> to_copy;
  for (const auto& n : g.nodes) to_copy[n.get()] = copy->add(copy_node(*n));
  for (const auto& n : g.nodes)
    for (GraphNode* d : n->deps) to_copy[n.get()]->deps.push_back(to_copy.at(d));
  copy->invalidated = g.invalidated;
  return copy;
}

namespace {
// One capture sequence: its graph, the stream that began it, its mode, and for each stream taking part the nodes
// that stream's next operation depends on.
struct Capture {
  Graph* graph = nullptr;
  const void* origin = nullptr;
  int mode = 0;
  std::map<const void*, std::vector<GraphNode*>> frontier;
  bool existing_graph = false;  // cudaStreamBeginCaptureToGraph: the program's graph, never deleted here
};
struct EventPoint {
  Capture* capture = nullptr;
  std::vector<GraphNode*> deps;
};
struct Captures {
  std::recursive_mutex mutex;
  std::map<const void*, Capture*> by_stream;  // streams capturing now -> their capture
  std::map<const void*, EventPoint> events;   // events last recorded inside a capture
  int replaying = 0;                          // graph nodes running (ReplayScope)
  std::set<const void*> nonblocking;          // streams created with cudaStreamNonBlocking (note_nonblocking_stream)
};
Captures& captures() {
  static Captures c;
  return c;
}
Capture* capturing(const void* stream) {
  auto it = captures().by_stream.find(stream);
  return it == captures().by_stream.end() ? nullptr : it->second;
}
void forget_events_of(const Capture* c) {
  auto& events = captures().events;
  for (auto it = events.begin(); it != events.end();) it = it->second.capture == c ? events.erase(it) : std::next(it);
}
void add_unique(std::vector<GraphNode*>& to, const std::vector<GraphNode*>& from) {
  for (GraphNode* n : from)
    if (std::find(to.begin(), to.end(), n) == to.end()) to.push_back(n);
}
// The nodes `from` and everything they depend on.
std::set<const GraphNode*> ancestors(const std::vector<GraphNode*>& from) {
  std::set<const GraphNode*> seen;
  std::vector<const GraphNode*> todo(from.begin(), from.end());
  while (!todo.empty()) {
    const GraphNode* n = todo.back();
    todo.pop_back();
    if (!seen.insert(n).second) continue;
    todo.insert(todo.end(), n->deps.begin(), n->deps.end());
  }
  return seen;
}
// Whether every stream the capture forked into has been joined back: its last work is something the origin's
// next operation depends on (CUDA: cudaErrorStreamCaptureUnjoined otherwise).
bool joined(const Capture& c) {
  const auto reached = ancestors(c.frontier.at(c.origin));
  for (const auto& [stream, deps] : c.frontier)
    for (const GraphNode* n : deps)
      if (stream != c.origin && !reached.count(n)) return false;
  return true;
}
// Ends the capture `c`: no stream captures into it any more.
void close(Capture* c) {
  auto& by_stream = captures().by_stream;
  for (auto it = by_stream.begin(); it != by_stream.end();) it = it->second == c ? by_stream.erase(it) : std::next(it);
  forget_events_of(c);
  delete c;
}
}  // namespace

bool begin_capture(const void* stream, int mode, Graph* into, std::vector<GraphNode*> deps) {
  std::lock_guard lock(captures().mutex);
  if (capturing(stream)) return false;
  auto* c = new Capture{into ? into : new Graph(), stream, mode, {}, into != nullptr};
  c->frontier[stream] = std::move(deps);
  captures().by_stream[stream] = c;
  return true;
}
bool captures_into_existing(const void* stream) {
  std::lock_guard lock(captures().mutex);
  Capture* c = capturing(stream);
  return c && c->existing_graph;
}

int end_capture(const void* stream, Graph*& graph) {
  std::lock_guard lock(captures().mutex);
  graph = nullptr;
  Capture* c = capturing(stream);
  if (!c) return illegal_state;
  if (c->origin != stream) {  // the capture must end in the stream that began it; CUDA invalidates it
    c->graph->invalidated = true;
    return stream_capture_unmatched;
  }
  Graph* g = c->graph;
  const bool unjoined = !joined(*c), existing = c->existing_graph;
  close(c);
  if (g->invalidated || unjoined) {
    if (!existing) delete g;
    return unjoined ? stream_capture_unjoined : stream_capture_invalidated;
  }
  graph = g;
  return success;
}

Graph* capture_graph(const void* stream) {
  std::lock_guard lock(captures().mutex);
  Capture* c = capturing(stream);
  return c ? c->graph : nullptr;
}
bool is_capturing(const void* stream) { return capture_graph(stream) != nullptr; }
const std::vector<GraphNode*>* capture_dependencies(const void* stream) {
  std::lock_guard lock(captures().mutex);
  Capture* c = capturing(stream);
  return c ? &c->frontier[stream] : nullptr;
}

bool capture_into(const void* stream, GraphNode node) {
  std::lock_guard lock(captures().mutex);
  Capture* c = capturing(stream);
  if (!c) return false;
  node.deps = c->frontier[stream];
  c->frontier[stream] = {c->graph->add(std::move(node))};
  return true;
}

int now_or_captured(const void* stream, const std::string& what, int type, std::function<int()> run, std::any params) {
  if (capture_into(stream, {what, run, type, {}, std::move(params)})) return success;
  if (!stream)
    if (int e = legacy_stream_work(what.c_str())) return e;
  return run();
}

void note_event_record(const void* stream, const void* event) {
  std::lock_guard lock(captures().mutex);
  if (Capture* c = capturing(stream)) captures().events[event] = {c, c->frontier[stream]};
  else captures().events.erase(event);
}

int wait_event(const void* stream, const void* event) {
  std::lock_guard lock(captures().mutex);
  auto it = captures().events.find(event);
  if (it == captures().events.end()) return success;  // an ordinary event: the work it marks has run
  Capture* c = it->second.capture;
  Capture* mine = capturing(stream);
  if (mine && mine != c) {  // two separate sequences would merge
    mine->graph->invalidated = c->graph->invalidated = true;
    return stream_capture_merge;
  }
  if (!mine) captures().by_stream[stream] = c;  // the fork: the stream now captures into c
  add_unique(c->frontier[stream], it->second.deps);
  return success;
}

namespace {
thread_local int thread_capture_mode = 0;  // cudaStreamCaptureModeGlobal
}
int exchange_thread_capture_mode(int mode) {
  std::swap(mode, thread_capture_mode);
  return mode;
}

int capture_forbids(const char* call) {
  std::lock_guard lock(captures().mutex);
  if (captures().replaying || thread_capture_mode == 2) return success;
  bool forbidden = false;
  for (auto& [stream, c] : captures().by_stream)
    if (c->mode != 2) forbidden = true;  // not cudaStreamCaptureModeRelaxed
  if (!forbidden) return success;
  for (auto& [stream, c] : captures().by_stream) c->graph->invalidated = true;
  Runtime::instance().report(std::string(call) + " during a stream capture is not permitted (a potentially unsafe call in the " +
                             "global and thread-local capture modes); the capture is invalidated");
  return Runtime::instance().record(stream_capture_unsupported);
}

void note_nonblocking_stream(const void* stream, bool nonblocking) {
  std::lock_guard lock(captures().mutex);
  if (nonblocking) captures().nonblocking.insert(stream);
  else captures().nonblocking.erase(stream);
}

int legacy_stream_work(const char* call) {
  std::lock_guard lock(captures().mutex);
  if (captures().replaying) return success;
  bool implicit = false;
  for (auto& [stream, c] : captures().by_stream) {
    if (captures().nonblocking.count(stream)) continue;
    c->graph->invalidated = true;
    implicit = true;
  }
  if (!implicit) return success;
  Runtime::instance().report(std::string(call) + " would make the legacy stream depend on a capturing blocking stream; the capture is invalidated");
  return Runtime::instance().record(stream_capture_implicit);
}

int capture_conflicts(const void* stream, const char* call) {
  std::lock_guard lock(captures().mutex);
  Capture* c = capturing(stream);
  if (!c || captures().replaying) return success;
  c->graph->invalidated = true;
  Runtime::instance().report(std::string(call) + " on a capturing stream is not permitted; the capture is invalidated");
  return Runtime::instance().record(stream_capture_unsupported);
}

ReplayScope::ReplayScope() {
  std::lock_guard lock(captures().mutex);
  ++captures().replaying;
}
ReplayScope::~ReplayScope() {
  std::lock_guard lock(captures().mutex);
  --captures().replaying;
}

void forget_graph(const Graph* g) {
  std::lock_guard lock(captures().mutex);
  auto& events = captures().events;
  for (auto it = events.begin(); it != events.end();) it = it->second.capture->graph == g ? events.erase(it) : std::next(it);
}

}  // namespace ptx::runtime

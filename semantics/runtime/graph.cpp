// See graph.hpp: which streams capture, into which graph, and the events recorded inside a capture.
#include "semantics/runtime/graph.hpp"

#include <map>
#include <mutex>

namespace ptx::runtime {
namespace {
struct Captures {
  std::mutex mutex;
  std::map<const void*, Graph*> by_stream;  // streams capturing now -> the graph being built
  std::map<const void*, Graph*> events;     // events last recorded inside a capture -> its graph
};
Captures& captures() {
  static Captures c;
  return c;
}
Graph* capturing(const void* stream) {
  auto it = captures().by_stream.find(stream);
  return it == captures().by_stream.end() ? nullptr : it->second;
}
void forget_events_of(const Graph* g) {
  auto& events = captures().events;
  for (auto it = events.begin(); it != events.end();) it = it->second == g ? events.erase(it) : std::next(it);
}
}  // namespace

bool begin_capture(const void* stream) {
  std::lock_guard lock(captures().mutex);
  if (capturing(stream)) return false;
  captures().by_stream[stream] = new Graph();
  return true;
}
Graph* end_capture(const void* stream) {
  std::lock_guard lock(captures().mutex);
  Graph* g = capturing(stream);
  if (!g) return nullptr;
  captures().by_stream.erase(stream);
  forget_events_of(g);  // the capture's points are gone with it
  return g;
}
Graph* capture_graph(const void* stream) {
  std::lock_guard lock(captures().mutex);
  return capturing(stream);
}
bool is_capturing(const void* stream) { return capture_graph(stream) != nullptr; }
bool capture_into(const void* stream, GraphNode node) {
  std::lock_guard lock(captures().mutex);
  Graph* g = capturing(stream);
  if (!g) return false;
  g->nodes.push_back(std::make_unique<GraphNode>(std::move(node)));
  return true;
}
void note_event_record(const void* stream, const void* event) {
  std::lock_guard lock(captures().mutex);
  if (Graph* g = capturing(stream)) captures().events[event] = g;
  else captures().events.erase(event);
}
bool joins_capture(const void* stream, const void* event) {
  std::lock_guard lock(captures().mutex);
  auto it = captures().events.find(event);
  if (it == captures().events.end() || capturing(stream) == it->second) return false;
  it->second->invalidated = true;
  return true;
}
void forget_graph(const Graph* g) {
  std::lock_guard lock(captures().mutex);
  forget_events_of(g);
}

}  // namespace ptx::runtime

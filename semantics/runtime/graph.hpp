// CUDA graphs by stream capture (graph.cpp, the C API in api_graph.cpp; docs/exec.md): while a stream captures,
// the work issued to it is recorded as the nodes of a graph instead of running; a launch of the instantiated
// graph runs them in capture order.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace ptx::runtime {

// One recorded operation: what it is (for messages) and how to run it (a cudaError_t as int).
struct GraphNode {
  std::string what;
  std::function<int()> run;
};
struct Graph {
  std::vector<std::unique_ptr<GraphNode>> nodes;
  bool invalidated = false;  // a capture error: cudaStreamEndCapture fails (cudaErrorStreamCaptureInvalidated)
};

// Starts a capture on `stream` into a new graph; false if it captures already.
bool begin_capture(const void* stream);
// Ends the stream's capture and hands over its graph (null when it was not capturing).
Graph* end_capture(const void* stream);
// The graph the stream captures into, or null.
Graph* capture_graph(const void* stream);
bool is_capturing(const void* stream);
// If `stream` is capturing, records `node` in its graph and returns true; otherwise returns false and the caller
// runs the operation now.
bool capture_into(const void* stream, GraphNode node);
// cudaEventRecord on `stream`: whether the event now marks a point of a capture.
void note_event_record(const void* stream, const void* event);
// cudaStreamWaitEvent(stream, event) where the event marks a point of another capture: that would join `stream` to
// the capture (a fork), which is not modelled; the capture is invalidated and the call must fail.
bool joins_capture(const void* stream, const void* event);
// A graph destroyed: events no longer mark points of it.
void forget_graph(const Graph* g);

}  // namespace ptx::runtime

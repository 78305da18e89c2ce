// CUDA runtime API: streams, events and errors. Every operation has completed when its call returns, so a
// stream or event is always complete; event times come from the interpreter's instruction count (docs/exec.md).
#include "semantics/runtime/graph.hpp"
#include "semantics/runtime/graph_nodes.hpp"
#include "semantics/runtime/mempool.hpp"
#include "semantics/runtime/runtime.hpp"

#include <cuda_runtime_api.h>

using ptx::runtime::Runtime;

namespace {
struct Event {
  std::uint64_t warp_instructions = 0;
  bool recorded = false;
};
struct Stream {
  int priority = 0;
  unsigned flags = 0;
  unsigned long long id = 0;
};
unsigned long long next_stream_id = 1;  // 0: the legacy stream
// The sticky error of the device the stream or event belongs to (a default stream: the current device's).
cudaError_t sticky(const void* handle) { return static_cast<cudaError_t>(Runtime::instance().sticky_of(handle)); }

// Milliseconds for a count of warp instructions: one per SM clock on every SM of the device (132 SMs at
// 1.755 GHz), a documented model, not a measurement.
float milliseconds(std::uint64_t warp_instructions) { return static_cast<float>(warp_instructions / (132.0 * 1.755e6)); }
}  // namespace

extern "C" {

cudaError_t cudaStreamCreateWithPriority(cudaStream_t* stream, unsigned int flags, int priority) {
  if (!stream) return cudaErrorInvalidValue;
  *stream = reinterpret_cast<cudaStream_t>(new Stream{priority, flags, next_stream_id++});
  ptx::runtime::note_nonblocking_stream(*stream, flags & cudaStreamNonBlocking);  // (legacy_stream_work)
  Runtime::instance().note_handle(*stream, Runtime::instance().current_device());  // the device current at creation
  return cudaSuccess;
}
cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned int flags) { return cudaStreamCreateWithPriority(stream, flags, 0); }
cudaError_t cudaStreamCreate(cudaStream_t* stream) { return cudaStreamCreateWithPriority(stream, cudaStreamDefault, 0); }
cudaError_t cudaStreamGetFlags(cudaStream_t stream, unsigned int* flags) {
  if (!flags) return cudaErrorInvalidValue;
  *flags = stream ? reinterpret_cast<Stream*>(stream)->flags : cudaStreamDefault;
  return cudaSuccess;
}
cudaError_t cudaStreamGetId(cudaStream_t stream, unsigned long long* id) {
  if (!id) return cudaErrorInvalidValue;
  *id = stream ? reinterpret_cast<Stream*>(stream)->id : 0;
  return cudaSuccess;
}
cudaError_t cudaStreamGetDevice(cudaStream_t stream, int* device) {
  if (!device) return cudaErrorInvalidValue;
  const int d = Runtime::instance().handle_device(stream);  // a default stream: the current device's
  *device = d >= 0 ? d : Runtime::instance().current_device();
  return cudaSuccess;
}
// A stream callback runs in stream order: now (with the stream's status: the sticky error, if any), or as a host
// node of the capture.
cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback, void* user_data, unsigned int flags) {
  if (!callback || flags != 0) return cudaErrorInvalidValue;
  auto run = [stream, callback, user_data] {
    callback(stream, sticky(stream), user_data);
    return 0;
  };
  return static_cast<cudaError_t>(ptx::runtime::now_or_captured(stream, "cudaStreamAddCallback", ptx::runtime::host_node, run));
}
cudaError_t cudaStreamDestroy(cudaStream_t stream) {
  Runtime::instance().forget_handle(stream);
  ptx::runtime::note_nonblocking_stream(stream, false);
  delete reinterpret_cast<Stream*>(stream);
  return cudaSuccess;
}
// Waiting for a capturing stream conflicts with its capture (graph.hpp: capture_conflicts).
cudaError_t cudaStreamSynchronize(cudaStream_t stream) {
  if (int e = ptx::runtime::capture_conflicts(stream, "cudaStreamSynchronize")) return static_cast<cudaError_t>(e);
  ptx::runtime::pools_synchronized();
  return sticky(stream);
}
cudaError_t cudaStreamQuery(cudaStream_t stream) {
  if (int e = ptx::runtime::capture_conflicts(stream, "cudaStreamQuery")) return static_cast<cudaError_t>(e);
  return sticky(stream);
}
// Work runs when issued, so a wait has nothing to wait for; but a wait on an event recorded inside a capture makes
// the stream's later work depend on that point of the capture (and a stream not capturing joins it: a fork).
// With cudaEventWaitExternal the capture gets an event wait node instead ("captured in the graph as an external
// event node"); the driver API's CU_EVENT_WAIT_EXTERNAL: "This flag is invalid when used outside of capture":
// cudaErrorIllegalState, measured on an H200 (tests/hardware/h200/exec.txt, graph_events).
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags) {
  if (!event) return cudaErrorInvalidResourceHandle;
  if (flags & ~unsigned{cudaEventWaitExternal}) return static_cast<cudaError_t>(Runtime::instance().record(ptx::runtime::invalid_value));
  if (flags & cudaEventWaitExternal) {
    ptx::runtime::GraphNode node;
    if (!ptx::runtime::is_capturing(stream)) return static_cast<cudaError_t>(Runtime::instance().record(ptx::runtime::illegal_state));
    if (ptx::runtime::make_event_wait_node(event, node)) return static_cast<cudaError_t>(Runtime::instance().record(ptx::runtime::invalid_value));
    ptx::runtime::capture_into(stream, std::move(node));
    return cudaSuccess;
  }
  return static_cast<cudaError_t>(Runtime::instance().record(ptx::runtime::wait_event(stream, event)));
}
cudaError_t cudaStreamGetPriority(cudaStream_t stream, int* priority) {
  *priority = stream ? reinterpret_cast<Stream*>(stream)->priority : 0;
  return cudaSuccess;
}

cudaError_t cudaEventCreate(cudaEvent_t* event) {
  *event = reinterpret_cast<cudaEvent_t>(new Event());
  Runtime::instance().note_handle(*event, Runtime::instance().current_device());
  return cudaSuccess;
}
cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned int) { return cudaEventCreate(event); }
cudaError_t cudaEventDestroy(cudaEvent_t event) {
  Runtime::instance().forget_handle(event);
  delete reinterpret_cast<Event*>(event);
  return cudaSuccess;
}
// Inside a capture an event marks the stream's point in it (for cudaStreamWaitEvent: fork and join) and adds no
// node, unless recorded with cudaEventRecordExternal: then it is an event record node, recorded when it runs. The
// driver API's CU_EVENT_RECORD_EXTERNAL: "This flag is invalid when used outside of capture" (cudaErrorIllegalState,
// measured on an H200 as for cudaEventWaitExternal).
cudaError_t cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream, unsigned int flags) {
  if (!event) return cudaErrorInvalidResourceHandle;
  if (ptx::runtime::different_devices(event, stream)) return cudaErrorInvalidResourceHandle;
  const bool capturing = ptx::runtime::is_capturing(stream);
  if (flags & ~unsigned{cudaEventRecordExternal}) return static_cast<cudaError_t>(Runtime::instance().record(ptx::runtime::invalid_value));
  if ((flags & cudaEventRecordExternal) && !capturing) return static_cast<cudaError_t>(Runtime::instance().record(ptx::runtime::illegal_state));
  if (capturing) {
    ptx::runtime::note_event_record(stream, event);
    ptx::runtime::GraphNode node;
    if ((flags & cudaEventRecordExternal) && ptx::runtime::make_event_record_node(event, node) == 0)
      ptx::runtime::capture_into(stream, std::move(node));
    return cudaSuccess;
  }
  ptx::runtime::note_event_record(stream, event);
  auto* e = reinterpret_cast<Event*>(event);
  e->warp_instructions = Runtime::instance().warp_instructions();
  e->recorded = true;
  return cudaSuccess;
}
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream) { return cudaEventRecordWithFlags(event, stream, 0); }
cudaError_t cudaEventSynchronize(cudaEvent_t event) {
  ptx::runtime::pools_synchronized();
  return sticky(event);
}
cudaError_t cudaEventQuery(cudaEvent_t event) { return sticky(event); }
cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end) {
  auto* a = reinterpret_cast<Event*>(start);
  auto* b = reinterpret_cast<Event*>(end);
  if (!a || !b || ptx::runtime::different_devices(start, end)) return cudaErrorInvalidResourceHandle;
  if (!a->recorded || !b->recorded) return cudaErrorInvalidResourceHandle;
  *ms = milliseconds(b->warp_instructions - a->warp_instructions);
  return cudaSuccess;
}

cudaError_t cudaGetLastError() { return static_cast<cudaError_t>(Runtime::instance().take_last_error(true)); }
cudaError_t cudaPeekAtLastError() { return static_cast<cudaError_t>(Runtime::instance().take_last_error(false)); }
const char* cudaGetErrorString(cudaError_t error) { return ptx::runtime::error_string(error); }
const char* cudaGetErrorName(cudaError_t error) { return ptx::runtime::error_name(error); }

}  // extern "C"

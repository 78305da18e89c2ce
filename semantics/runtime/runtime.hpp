// The state behind ptxcheck's replacement CUDA runtime (libcudart.so.13, for `ptxcheck exec`): the modules and
// kernels a program registers, its device memory, the launch configurations nvcc's launch stubs push, and the
// runtime's error state. Kernels run on the interpreter (semantics/interp) when they are launched; every stream
// is therefore complete when a call returns, one of the orders CUDA's stream semantics allow (docs/exec.md).
// The API functions (api_*.cpp) are thin C wrappers over this class.
#pragma once

#include "semantics/interp/launch.hpp"
#include "semantics/interp/memory.hpp"
#include "semantics/interp/texture.hpp"
#include "semantics/ir/ir.hpp"
#include "semantics/runtime/device_limits.hpp"

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace ptx::runtime {

// CUDA runtime error codes used here (driver_types.h, cudaError), spelled without the header so that this file
// stays independent of the toolkit.
enum Error : int {
  success = 0, invalid_value = 1, memory_allocation = 2, invalid_configuration = 9, invalid_symbol = 13,
  invalid_device_pointer = 17, invalid_memcpy_direction = 21, invalid_device_function = 98, invalid_device = 101,
  peer_access_already_enabled = 704, peer_access_not_enabled = 705,
  no_kernel_image = 209, invalid_ptx = 218, invalid_resource_handle = 400, illegal_state = 401, not_ready = 600,
  illegal_address = 700, launch_timeout = 702, assert_failed = 710, host_memory_already_registered = 712,
  host_memory_not_registered = 713, illegal_instruction = 715, misaligned_address = 716,
  launch_failure = 719, not_supported = 801, stream_capture_unsupported = 900, stream_capture_invalidated = 901,
  stream_capture_merge = 902, stream_capture_unmatched = 903, stream_capture_unjoined = 904, stream_capture_implicit = 906,
  graph_exec_update_failure = 910,
  unknown = 999,
};

struct Module {
  std::string name;                  // "module N (compute_XX)"
  std::optional<ir::Module> module;  // absent when the PTX does not load
  std::string error;                 // why a kernel of this module cannot run
  // `__managed__` variables (__cudaRegisterManagedVar): PTX name -> the host's pointer to set to its address.
  std::vector<std::pair<std::string, void**>> managed;
};

struct Kernel {
  Module* module = nullptr;
  std::string name;  // the PTX entry name (mangled)
  // cudaFuncAttributeMaxDynamicSharedMemorySize: a launch asking for more dynamic shared memory is refused with
  // cudaErrorInvalidValue, 48 KiB until cudaFuncSetAttribute raises it (what CUDA 13 does on an H200:
  // tests/hardware/h200/probes.txt, launch_errors).
  std::uint64_t max_dynamic_shared = kSharedPerBlock;
};

struct Variable {
  Module* module = nullptr;
  std::string name;
  std::uint64_t size = 0;
};

struct LaunchConfig {
  interp::Dims grid{1, 1, 1}, block{1, 1, 1};
  std::uint64_t shared_bytes = 0;
  void* stream = nullptr;
};

// How a launch is to run, beyond what the program says (cudaLaunchKernelEx attributes).
struct LaunchExtras {
  std::optional<interp::Dims> cluster;
  bool cooperative = false;
};

// Runs a program's launches in place of interp::run when a check is asked for (ptxcheck exec --racecheck:
// checker/race's dynamic engine, installed by the runtime library; the core does not depend on the checkers).
class LaunchMonitor {
 public:
  virtual ~LaunchMonitor() = default;
  virtual interp::RunResult run(const ir::Module& module, const interp::Launch& launch, const interp::Options& options) = 0;
  // Said once the program ends (a summary), empty for nothing.
  virtual std::string summary() { return {}; }
  // What the program does to device memory outside kernels (--memcheck tracks which bytes hold values).
  // (`name` names an allocation that is not a cudaMalloc one in messages: a graph allocation)
  virtual void allocated(std::uint64_t, std::uint64_t, const std::string& = {}) {}
  virtual void device_written(std::uint64_t, std::uint64_t) {}
  virtual void freed(std::uint64_t) {}
  // Whether freed allocations stay in device memory, marked, so that a later access is seen (--memcheck).
  virtual bool keep_freed() const { return false; }
};

// A launch kept to run later (a graph's kernel node): the kernel, its configuration and its argument bytes, copied
// when the node is made or captured, as CUDA copies them; `pointers` point at each argument's bytes (the node's own
// copy, which cudaGraphKernelNodeGetParams returns).
struct KeptLaunch {
  const void* host_function = nullptr;
  LaunchConfig config;
  LaunchExtras extras;
  std::shared_ptr<const std::vector<std::vector<std::uint8_t>>> bytes;
  std::vector<void*> pointers;
  int device = 0;  // the device current when the node was made: it runs there
};

class Runtime {
 public:
  static Runtime& instance();

  // --- registration (nvcc's host stubs, at program start)
  void** register_fatbin(const void* wrapper);
  void register_function(void** handle, const void* host_function, const char* device_name);
  void register_variable(void** handle, const void* host_variable, const char* device_name, std::uint64_t size);
  // A `__managed__` variable: nvcc's host code reads it through `*host_pointer`, set by init_module.
  void register_managed_variable(void** handle, void** host_pointer, const char* device_name);
  // __cudaInitModule: places the module's variables and maps its managed ones into the process; false when the
  // module does not load or a managed variable's address is taken in this process.
  bool init_module(void** handle);

  // --- errors: `record` sets the last error (and returns it); a kernel fault is sticky, as in CUDA.
  int record(int error);
  int take_last_error(bool reset);
  int sticky();  // the current device's (each device's context has its own, devices.cpp)
  int sticky_of(const void* stream_or_event);  // the device's the handle belongs to (unknown: the current one)

  // --- devices (devices.cpp; `ptxcheck exec --devices N`, environment PTXCHECK_EXEC_DEVICES): N devices of the
  // same properties over one interpreter memory. Unified addressing makes every pointer name one allocation, whose
  // owner is the device current when it was made. Each device has its own module variables, sticky error, default
  // stream and memory accounting; the current device is per host thread (cudaSetDevice).
  int device_count() const { return device_count_; }
  bool valid_device(int d) const { return d >= 0 && d < device_count_; }
  int current_device() const;
  int set_device(int d);  // cudaErrorInvalidDevice for an ordinal out of range
  int device_of(const void* address);  // the device owning the allocation holding `address`; -1 for none
  int enable_peer(int peer);  // from the current device (cudaDeviceEnablePeerAccess)
  int disable_peer(int peer);
  bool peer_enabled(int device, int peer);
  std::uint64_t device_total() const;  // the global window shared out equally
  std::uint64_t device_used(int d);    // cudaMalloc'd bytes live on device d
  void reset_device();  // cudaDeviceReset: the current device's sticky error and peer mappings
  // Streams and events belong to the device current at their creation (api_stream.cpp): -1 for an unknown handle.
  void note_handle(const void* handle, int device);
  void forget_handle(const void* handle);
  int handle_device(const void* handle);

  // --- memory: device addresses are the interpreter's global addresses.
  int allocate(void** pointer, std::uint64_t size);
  int release(const void* pointer);  // cudaFree: also of a live graph allocation (graph_free)
  // Graph memory (api_graph_memory.cpp): an address reserved when an allocation node is made, kept for the
  // program's life; its bytes are allocated (live, uninitialized) when the node runs and freed by a free node,
  // cudaFreeAsync or cudaFree. Outside its life it is as freed memory. graph_allocate / graph_free fail with
  // cudaErrorInvalidValue when the allocation is live / not live already.
  int reserve_graph_memory(void** pointer, std::uint64_t size);
  bool is_graph_memory(const void* pointer);
  bool graph_memory_live(const void* pointer);
  int graph_allocate(const void* pointer);
  int graph_free(const void* pointer);
  // Managed memory (cudaMallocManaged): one address for host and device. The device region is mapped in the
  // process at its own address; the host's bytes are the program's view between launches and are copied into
  // the interpreter's region before each launch and back after it (kernels run while the host waits).
  // Pinned host memory (cudaMallocHost, cudaHostAlloc) is the same kind of region, named `what`: under unified
  // addressing a kernel may dereference it (zero-copy).
  int allocate_managed(void** pointer, std::uint64_t size, const char* what = "cudaMallocManaged");
  bool is_managed(const void* base) const { return managed_.count(reinterpret_cast<std::uint64_t>(base)) != 0; }
  // Registered host memory (host_register.cpp; cudaHostRegister): the host range gets a device region of its own
  // address (not the host's), whose bytes are the host's, copied in before each launch and back after it (not
  // back for read-only registrations, whose region faults on a store). register_host answers the Runtime API's
  // errors (cudaErrorInvalidValue, cudaErrorHostMemoryAlreadyRegistered); unregister_host takes the base address
  // registered (else cudaErrorHostMemoryNotRegistered). The pointer lookups give null outside every registration.
  int register_host(void* host, std::uint64_t size, unsigned flags);
  int unregister_host(void* host);
  void* registered_device_pointer(const void* host);
  void* registered_host_pointer(const void* device);
  // What `address` lies in, numbered as cudaMemoryType: 0 none of the runtime's, 1 pinned host memory (also
  // registered memory, by either of its pointers), 2 device memory, 3 managed memory.
  int memory_type(const void* address);
  // The bytes [address, address + size) of one allocation, or null.
  std::uint8_t* device_bytes(const void* address, std::uint64_t size);
  bool is_device_pointer(const void* address) { return device_bytes(address, 1) != nullptr; }
  int copy(void* dst, const void* src, std::uint64_t size, int kind);  // kind: cudaMemcpyKind
  int set(void* dst, int value, std::uint64_t size);
  // The device address and size of a registered variable (cudaGetSymbolAddress/Size, Memcpy{To,From}Symbol).
  int symbol(const void* host_variable, std::uint64_t& address, std::uint64_t& size);

  // --- launches
  void push_config(const LaunchConfig& c) { configs_.push_back(c); }
  bool pop_config(LaunchConfig& c);
  int launch(const void* host_function, const LaunchConfig& config, void** args, const LaunchExtras& extras = {});
  // A launch to run later (a graph's kernel node): the argument bytes are copied now, as CUDA copies them when
  // the node is created or captured. 0, or the error (recorded) when the launch cannot be made.
  int keep_launch(const void* host_function, const LaunchConfig& config, void** args, const LaunchExtras& extras, KeptLaunch& out);
  // Runs a kept launch (on the legacy stream: a graph's nodes run when the graph does).
  int run_kept(const KeptLaunch& k);
  const Kernel* kernel(const void* host_function);
  // The registered kernel's PTX function (for cudaFuncGetAttributes), or null.
  const ir::Function* kernel_function(const void* host_function);

  // The PTX target of the kernel's module as a number (sm_90 -> 90), and its static shared memory in bytes.
  int kernel_target(const void* host_function);
  std::uint64_t kernel_static_shared(const void* host_function);
  // cudaFuncSetAttribute(cudaFuncAttributeMaxDynamicSharedMemorySize): 0, or the error when `bytes` is negative or
  // above `limit` (the device's sharedMemPerBlockOptin).
  int set_max_dynamic_shared(const void* host_function, int bytes, std::uint64_t limit);
  // A runtime call (or a case of one) ptxcheck does not implement: said on stderr with its name, counted, and
  // answered with `error` (cudaErrorNotSupported unless the case has a code of its own).
  int unimplemented(const std::string& what, int error = not_supported);
  void report(const std::string& message);  // to stderr, prefixed "ptxcheck exec: "

  void set_monitor(std::unique_ptr<LaunchMonitor> m) { monitor_ = std::move(m); }
  LaunchMonitor* monitor() { return monitor_.get(); }

  // Device properties the user changed (--device-props FILE, environment PTXCHECK_EXEC_DEVICE_PROPS): an integer
  // per cudaDeviceProp field name ("major", "minor", "multiProcessorCount", ...); see device_property_names().
  const std::map<std::string, long long>& device_overrides() const { return device_overrides_; }

  // --- textures and surfaces (api_texture.cpp): CUDA arrays, texture and surface objects (interp/texture.hpp),
  // guarded by mutex().
  interp::TextureRegistry& textures() { return textures_; }
  std::recursive_mutex& mutex() { return mutex_; }

  std::uint64_t warp_instructions() const { return warp_instructions_; }  // every launch so far (event timing)

 private:
  int capture_launch(const void* host_function, const LaunchConfig& config, void** args, const LaunchExtras& extras);
  Runtime();
  Module* module_of(void** handle);
  bool place_globals(Module& m);
  bool map_managed(std::uint64_t address, std::uint64_t bytes, const std::string& what);
  bool place_globals_here(Module& m);
  void init_devices();  // from PTXCHECK_EXEC_DEVICES
  void activate(int device);  // makes device_.module_globals the device's copy of the module variables
  void note_allocation(std::uint64_t base, std::uint64_t size, bool counted);
  void forget_allocation(std::uint64_t base);

  std::recursive_mutex mutex_;
  std::vector<std::unique_ptr<Module>> modules_;
  std::map<const void*, Kernel> kernels_;
  std::map<const void*, Variable> variables_;
  interp::DeviceMemory device_;
  interp::TextureRegistry textures_;
  std::vector<LaunchConfig> configs_;
  std::unique_ptr<LaunchMonitor> monitor_;
  std::set<std::uint64_t> freed_;
  std::map<std::uint64_t, std::uint64_t> graph_memory_;  // graph allocations: base -> bytes
  std::map<std::uint64_t, std::uint64_t> managed_;  // base -> mapped bytes
  std::map<std::string, long long> device_overrides_;
  void sync_managed(bool to_device);
  void sync_registered(bool to_device);
  struct Registered {
    std::uint8_t* host = nullptr;
    std::uint64_t size = 0;
    bool read_only = false;
  };
  std::map<std::uint64_t, Registered> registered_;  // device base -> the host range it stands for
  std::uint64_t registered_count_ = 0;  // allocations freed but kept (LaunchMonitor::keep_freed)
  int last_ = success;
  // devices.cpp: per device the sticky error, the module variables while another device is active, bytes in use.
  int device_count_ = 1, active_ = 0;
  std::vector<int> sticky_{success};
  std::vector<std::map<const void*, std::vector<std::uint64_t>>> parked_globals_{{}};
  std::vector<std::uint64_t> used_{0};
  struct Owner {
    int device = 0;
    std::uint64_t size = 0;
    bool counted = false;
  };
  std::map<std::uint64_t, Owner> owners_;  // allocation base -> owner
  std::set<std::pair<int, int>> peers_;    // (device, peer): device may access peer's memory
  std::map<const void*, int> handles_;     // stream or event -> device
  std::uint64_t seed_ = 0, warp_instructions_ = 0, launches_ = 0, mallocs_ = 0;
  friend struct RuntimeAccess;
};

// Whether two streams or events belong to different devices (a default stream: the current device's), devices.cpp.
bool different_devices(const void* a, const void* b);

// The cudaDeviceProp fields --device-props may set (integers), and the reading of such a file: empty error when
// it is a JSON object of those fields.
const std::vector<std::string>& device_property_names();
std::string read_device_props(const std::string& path, std::map<std::string, long long>& out);

// The message of a runtime error code (cudaGetErrorString) and its name (cudaGetErrorName).
const char* error_string(int error);
const char* error_name(int error);

}  // namespace ptx::runtime

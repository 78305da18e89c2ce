// See runtime.hpp: registration, device memory and launches of the replacement CUDA runtime.
#include "semantics/runtime/runtime.hpp"

#include "semantics/ir/build.hpp"
#include "semantics/runtime/graph.hpp"
#include "semantics/runtime/graph_conditional.hpp"
#include "semantics/runtime/fatbin.hpp"
#include "semantics/runtime/findings.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>

#include <nlohmann/json.hpp>

namespace ptx::runtime {
namespace {

// cudaMemcpyKind (driver_types.h).
enum CopyKind { host_to_host = 0, host_to_device = 1, device_to_host = 2, device_to_device = 3, copy_default = 4 };

int error_of(interp::Problem::Kind k) {
  using K = interp::Problem::Kind;
  switch (k) {
    case K::none: return success;
    case K::out_of_bounds: return illegal_address;
    case K::misaligned: return misaligned_address;
    case K::trap: return launch_failure;
    case K::illegal: return illegal_instruction;
    case K::deadlock: case K::step_limit: return launch_timeout;
    // A bad launch shape (block or grid dimensions, shared memory) is cudaErrorInvalidValue on CUDA 13 (measured
    // on an H200: tests/hardware/h200/probes.txt), not the cudaErrorInvalidConfiguration older documentation names.
    case K::bad_launch: return invalid_value;
    case K::unsupported: return not_supported;
  }
  return unknown;
}

bool sticky_error(int e) {
  return e == illegal_address || e == misaligned_address || e == launch_failure || e == illegal_instruction || e == launch_timeout ||
         e == assert_failed;
}

std::string dims_text(const interp::Dims& d) { return std::to_string(d[0]) + "," + std::to_string(d[1]) + "," + std::to_string(d[2]); }

// " (block B, thread T, PTX line N, CUDA line FILE:L)" for the first thread a problem names; empty for none.
std::string fault_position(const ir::Module& m, const interp::Problem& p) {
  if (p.threads.empty()) return {};
  const auto& t = p.threads.front();
  std::string where = " (block " + dims_text(t.ctaid) + ", thread " + dims_text(t.tid) + ", PTX line " + std::to_string(t.ptx_line);
  if (t.source.line) {
    auto file = m.source_files.find(t.source.file);
    where += ", CUDA line " + std::to_string(t.source.line) + (file != m.source_files.end() ? " of " + file->second : "");
  }
  return where + ")";
}

// The fault as a finding for --report (findings.hpp), at the CUDA line of the first thread it names.
void note_fault(const ir::Module& m, const std::string& kernel, const interp::Problem& p) {
  Finding f{p.kind == interp::Problem::Kind::unsupported ? "ptxcheck.exec.unsupported" : "ptxcheck.exec.fault",
            p.kind == interp::Problem::Kind::unsupported ? "warning" : "error",
            std::string(interp::problem_kind_name(p.kind)) + ": " + p.message, kernel, "", 0};
  if (!p.threads.empty() && p.threads.front().source.line) {
    auto file = m.source_files.find(p.threads.front().source.file);
    if (file != m.source_files.end()) f.file = file->second;
    f.line = p.threads.front().source.line;
  }
  add_finding(std::move(f));
}
}  // namespace

Runtime& Runtime::instance() {
  static Runtime* runtime = new Runtime();  // never destroyed: programs call the runtime from atexit handlers
  return *runtime;
}

Runtime::Runtime() {
  if (const char* s = std::getenv("PTXCHECK_EXEC_SEED")) seed_ = std::strtoull(s, nullptr, 0);
  init_devices();
  if (const char* p = std::getenv("PTXCHECK_EXEC_DEVICE_PROPS"))
    if (auto error = read_device_props(p, device_overrides_); !error.empty()) report(error);  // ptxcheck exec checked it first
}

const std::vector<std::string>& device_property_names() {
  static const std::vector<std::string> names{"major", "minor", "multiProcessorCount", "maxThreadsPerBlock", "sharedMemPerBlock",
                                              "sharedMemPerBlockOptin", "sharedMemPerMultiprocessor", "maxThreadsPerMultiProcessor",
                                              "maxBlocksPerMultiProcessor", "l2CacheSize", "regsPerBlock", "regsPerMultiprocessor",
                                              "totalConstMem", "clusterLaunch", "cooperativeLaunch"};
  return names;
}

std::string read_device_props(const std::string& path, std::map<std::string, long long>& out) {
  std::ifstream in(path);
  if (!in) return path + ": error: cannot read the device properties file";
  const nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return path + ": error: not a JSON object of device properties";
  const auto& names = device_property_names();
  for (const auto& [key, value] : j.items()) {
    if (std::find(names.begin(), names.end(), key) == names.end()) {
      std::string known;
      for (const auto& n : names) known += (known.empty() ? "" : ", ") + n;
      return path + ": error: unknown device property '" + key + "' (known: " + known + ")";
    }
    if (!value.is_number_integer()) return path + ": error: device property '" + key + "' must be an integer";
    out[key] = value.get<long long>();
  }
  return {};
}

void Runtime::report(const std::string& message) { std::cerr << "ptxcheck exec: " << message << "\n" << std::flush; }

int Runtime::record(int error) {
  std::lock_guard lock(mutex_);
  if (error != success) last_ = error;
  if (sticky_error(error)) sticky_[static_cast<std::size_t>(current_device())] = error;
  return error;
}

int Runtime::take_last_error(bool reset) {
  std::lock_guard lock(mutex_);
  const int e = sticky() != success ? sticky() : last_;
  if (reset) last_ = success;
  return e;
}

// ------------------------------------------------------------------------------------------- registration
void** Runtime::register_fatbin(const void* wrapper) {
  std::lock_guard lock(mutex_);
  auto m = std::make_unique<Module>();
  m->name = "module " + std::to_string(modules_.size() + 1);
  FatbinContents contents = read_registered_fatbin(wrapper);
  if (!contents.error.empty()) {
    m->error = contents.error;
  } else if (contents.ptx.empty()) {
    std::string archs;
    for (unsigned sm : contents.elf_sm) archs += (archs.empty() ? "" : ", ") + std::string("sm_") + std::to_string(sm);
    m->error = "the program carries no PTX, only machine code (" + (archs.empty() ? std::string("none") : archs) +
               "), which ptxcheck cannot run; rebuild it with -arch=sm_XX or -gencode arch=compute_XX,code=compute_XX to embed PTX";
  } else {
    const PtxImage* best = newest_ptx(contents);
    m->name += " (compute_" + std::to_string(best->sm) + ")";
    auto built = ir::load_ptx(best->text, m->name + ".ptx");
    if (built) m->module = std::move(*built.module);
    else m->error = "its PTX does not load: " + (built.errors.empty() ? std::string("unknown error") : built.errors.front().render());
  }
  modules_.push_back(std::move(m));
  // The handle is the module itself: nvcc's stubs only pass it back to the registration calls.
  return reinterpret_cast<void**>(modules_.back().get());
}

Module* Runtime::module_of(void** handle) {
  for (auto& m : modules_)
    if (reinterpret_cast<void**>(m.get()) == handle) return m.get();
  return nullptr;
}

void Runtime::register_function(void** handle, const void* host_function, const char* device_name) {
  std::lock_guard lock(mutex_);
  if (Module* m = module_of(handle)) kernels_[host_function] = {m, device_name ? device_name : ""};
}

void Runtime::register_variable(void** handle, const void* host_variable, const char* device_name, std::uint64_t size) {
  std::lock_guard lock(mutex_);
  if (Module* m = module_of(handle)) variables_[host_variable] = {m, device_name ? device_name : "", size};
}

void Runtime::register_managed_variable(void** handle, void** host_pointer, const char* device_name) {
  std::lock_guard lock(mutex_);
  if (Module* m = module_of(handle); m && host_pointer) m->managed.emplace_back(device_name ? device_name : "", host_pointer);
}

bool Runtime::init_module(void** handle) {
  std::lock_guard lock(mutex_);
  Module* m = module_of(handle);
  if (!m || !m->module) {
    report(std::string("__managed__ variables of ") + (m ? m->name + ": " + m->error : "an unknown module"));
    return false;
  }
  return place_globals(*m);
}

// Places the module's global variables once (ISA 5.4.4); managed ones (their own pages, interp::kManagedPage) are
// mapped into the process at their device address, holding their initial values, and their host pointers set.
// Each device has its own copy of the variables (the module is loaded into each device's context); `__managed__`
// ones are one object for all (the Programming Guide's unified memory), device 0's.
bool Runtime::place_globals(Module& m) {
  const int d = current_device();
  const bool managed = std::any_of(m.module->globals.begin(), m.module->globals.end(), [](const ir::Variable& v) { return v.is_managed; });
  if (d != 0 && managed) {
    activate(0);
    const bool ok = place_globals_here(m);
    activate(d);
    if (!ok) return false;
  }
  activate(d);
  return place_globals_here(m);
}

bool Runtime::place_globals_here(Module& m) {
  auto [it, first] = device_.module_globals.try_emplace(&*m.module);
  if (!first) return true;
  if (!interp::place_module_globals(device_.memory, *m.module, it->second)) return false;
  if (active_ != 0) {  // device 0's managed variables (placed first by place_globals)
    const auto& first_device = parked_globals_[0][&*m.module];
    for (std::size_t g = 0; g < m.module->globals.size() && g < first_device.size(); ++g)
      if (m.module->globals[g].is_managed) it->second[g] = first_device[g];
    return true;
  }
  bool ok = true;
  for (const auto& [name, host_pointer] : m.managed) {
    const ir::Variable* v = m.module->find_global(name);
    if (!v || !v->is_managed) {
      report("__managed__ variable " + name + ": " + (v ? "its PTX declaration lacks .attribute(.managed)" : "not in the module's PTX"));
      ok = false;
      continue;
    }
    const std::uint64_t a = it->second[static_cast<std::size_t>(v - m.module->globals.data())];
    if (!map_managed(a, interp::managed_bytes(*v), "__managed__ variable " + name)) {
      ok = false;
      continue;
    }
    *host_pointer = reinterpret_cast<void*>(a);
    // cudaMemcpyToSymbol(counter, ...) names a managed variable by the object the host sees, at this address.
    variables_[*host_pointer] = {&m, name, v->size_bytes()};
  }
  return ok;
}

// Maps [address, address + bytes) of device memory into the process with the region's current contents.
bool Runtime::map_managed(std::uint64_t address, std::uint64_t bytes, const std::string& what) {
  void* mapped = mmap(reinterpret_cast<void*>(address), bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
  if (mapped != reinterpret_cast<void*>(address)) {
    if (mapped != MAP_FAILED) munmap(mapped, bytes);
    report(what + ": the address the interpreter gives it is taken in this process");
    return false;
  }
  // (The region's backing is these whole pages; an access reaches only its size: find by its first byte.)
  if (auto* r = device_.memory.find(address, 0)) std::memcpy(mapped, r->bytes.data(), std::min<std::size_t>(bytes, r->bytes.size()));
  managed_[address] = bytes;
  return true;
}

// ------------------------------------------------------------------------------------------------ memory
int Runtime::allocate(void** pointer, std::uint64_t size) {
  std::lock_guard lock(mutex_);
  if (int e = sticky()) return e;
  if (!pointer) return record(invalid_value);
  const int d = current_device();
  const bool fits = size <= device_total() - device_used(d);
  const std::uint64_t a = fits ? device_.memory.allocate("cudaMalloc #" + std::to_string(mallocs_ + 1), size, 256) : 0;
  if (!a) {
    *pointer = nullptr;
    return record(memory_allocation);
  }
  *pointer = reinterpret_cast<void*>(a);
  ++mallocs_;
  note_allocation(a, size, true);
  if (monitor_) monitor_->allocated(a, size);
  return success;
}

int Runtime::allocate_managed(void** pointer, std::uint64_t size, const char* what) {
  std::lock_guard lock(mutex_);
  if (int e = sticky()) return e;
  if (!pointer) return record(invalid_value);
  const std::uint64_t page = interp::kManagedPage, bytes = (std::max<std::uint64_t>(size, 1) + page - 1) / page * page;
  const std::uint64_t a = device_.memory.allocate(std::string(what) + " #" + std::to_string(mallocs_ + 1), size, page, false, bytes);
  if (!a || !map_managed(a, bytes, std::string(what) + " of " + std::to_string(size) + " bytes")) {
    if (a) device_.memory.release(a);
    *pointer = nullptr;
    return record(memory_allocation);
  }
  *pointer = reinterpret_cast<void*>(a);
  ++mallocs_;
  note_allocation(a, size, false);
  if (monitor_) {
    monitor_->allocated(a, size);
    monitor_->device_written(a, size);  // the host may write it at any time: never "uninitialized"
  }
  return success;
}

void Runtime::sync_managed(bool to_device) {
  for (const auto& [base, bytes] : managed_) {
    auto* r = device_.memory.find(base, 0);
    if (!r) continue;
    auto* host = reinterpret_cast<std::uint8_t*>(base);
    const std::size_t n = std::min<std::size_t>(bytes, r->bytes.size());
    if (to_device) std::memcpy(r->bytes.data(), host, n);
    else std::memcpy(host, r->bytes.data(), n);
  }
}

int Runtime::release(const void* pointer) {
  std::lock_guard lock(mutex_);
  if (!pointer) return success;  // cudaFree(nullptr) does nothing
  const auto base = reinterpret_cast<std::uint64_t>(pointer);
  if (graph_memory_.count(base)) return graph_free(pointer);
  if (registered_.count(base)) return record(invalid_value);  // cudaHostUnregister's to end
  if (auto m = managed_.find(base); m != managed_.end()) {
    munmap(reinterpret_cast<void*>(base), m->second);
    managed_.erase(m);
    device_.memory.release(base);
    forget_allocation(base);
    return success;
  }
  if (monitor_ && monitor_->keep_freed()) {
    auto* r = device_.memory.find(base, 1);
    if (!r || r->base != base || !freed_.insert(base).second) return record(invalid_value);
    monitor_->freed(base);
    forget_allocation(base);
    return success;
  }
  if (!device_.memory.release(base)) return record(invalid_value);
  forget_allocation(base);
  return success;
}

int Runtime::reserve_graph_memory(void** pointer, std::uint64_t size) {
  std::lock_guard lock(mutex_);
  const std::string name = "graph allocation #" + std::to_string(graph_memory_.size() + 1);
  const std::uint64_t a = device_.memory.allocate(name, size, 256);
  if (!a) return record(memory_allocation);
  graph_memory_[a] = size;
  freed_.insert(a);  // not allocated until its node runs
  if (monitor_) {
    monitor_->allocated(a, size, name);
    monitor_->freed(a);
  }
  *pointer = reinterpret_cast<void*>(a);
  return success;
}
bool Runtime::is_graph_memory(const void* pointer) {
  std::lock_guard lock(mutex_);
  return graph_memory_.count(reinterpret_cast<std::uint64_t>(pointer)) != 0;
}
bool Runtime::graph_memory_live(const void* pointer) {
  std::lock_guard lock(mutex_);
  return is_graph_memory(pointer) && !freed_.count(reinterpret_cast<std::uint64_t>(pointer));
}
int Runtime::graph_allocate(const void* pointer) {
  std::lock_guard lock(mutex_);
  const auto a = reinterpret_cast<std::uint64_t>(pointer);
  if (!graph_memory_.count(a) || !freed_.erase(a)) return record(invalid_value);
  if (monitor_) monitor_->allocated(a, graph_memory_[a], device_.memory.find(a, 1)->name);  // recreated: no values yet
  return success;
}
int Runtime::graph_free(const void* pointer) {
  std::lock_guard lock(mutex_);
  const auto a = reinterpret_cast<std::uint64_t>(pointer);
  if (!graph_memory_.count(a) || !freed_.insert(a).second) return record(invalid_value);
  if (monitor_) monitor_->freed(a);
  return success;
}

std::uint8_t* Runtime::device_bytes(const void* address, std::uint64_t size) {
  std::lock_guard lock(mutex_);
  const auto a = reinterpret_cast<std::uint64_t>(address);
  if (auto m = managed_.upper_bound(a); m != managed_.begin() && a - std::prev(m)->first < std::prev(m)->second)
    return a - std::prev(m)->first + size <= std::prev(m)->second ? reinterpret_cast<std::uint8_t*>(a) : nullptr;  // the host's view
  if (auto g = registered_.upper_bound(a); g != registered_.begin() && a - std::prev(g)->first < std::prev(g)->second.size)  // the host's bytes
    return a - std::prev(g)->first + size <= std::prev(g)->second.size ? std::prev(g)->second.host + (a - std::prev(g)->first) : nullptr;
  auto* r = device_.memory.find(a, size ? size : 1);
  if (!r || a - r->base + size > r->size || freed_.count(r->base)) return nullptr;
  return r->bytes.data() + (a - r->base);
}

int Runtime::memory_type(const void* address) {
  std::lock_guard lock(mutex_);
  if (registered_device_pointer(address) || registered_host_pointer(address)) return 1;
  if (!device_bytes(address, 1)) return 0;
  const auto a = reinterpret_cast<std::uint64_t>(address);
  const auto* r = device_.memory.find(a, 1);
  if (!r || !managed_.count(r->base)) return 2;
  return r->name.rfind("cudaMallocHost", 0) == 0 ? 1 : 3;  // (allocate_managed's names; __managed__ variables: theirs)
}

int Runtime::copy(void* dst, const void* src, std::uint64_t size, int kind) {
  std::lock_guard lock(mutex_);
  if (int e = sticky()) return e;
  if (size == 0) return success;
  if (kind < host_to_host || kind > copy_default) return record(invalid_memcpy_direction);
  const bool dst_device = kind == copy_default ? is_device_pointer(dst) : kind == host_to_device || kind == device_to_device;
  const bool src_device = kind == copy_default ? is_device_pointer(src) : kind == device_to_host || kind == device_to_device;
  std::uint8_t* to = dst_device ? device_bytes(dst, size) : static_cast<std::uint8_t*>(dst);
  const std::uint8_t* from = src_device ? device_bytes(src, size) : static_cast<const std::uint8_t*>(src);
  if (!to || !from) {
    report("cudaMemcpy of " + std::to_string(size) + " bytes: the " + (!to ? "destination" : "source") +
           " is not inside one device allocation");
    return record(invalid_value);
  }
  std::memmove(to, from, size);
  if (dst_device && monitor_) monitor_->device_written(reinterpret_cast<std::uint64_t>(dst), size);
  return success;
}

int Runtime::set(void* dst, int value, std::uint64_t size) {
  std::lock_guard lock(mutex_);
  if (int e = sticky()) return e;
  std::uint8_t* to = device_bytes(dst, size);
  if (!to) return record(invalid_value);
  std::memset(to, value, size);
  if (monitor_) monitor_->device_written(reinterpret_cast<std::uint64_t>(dst), size);
  return success;
}

int Runtime::symbol(const void* host_variable, std::uint64_t& address, std::uint64_t& size) {
  std::lock_guard lock(mutex_);
  auto it = variables_.find(host_variable);
  if (it == variables_.end()) return record(invalid_symbol);
  Module& m = *it->second.module;
  if (!m.module) {
    report("variable " + it->second.name + ": " + m.error);
    return record(invalid_symbol);
  }
  if (!place_globals(m)) return record(memory_allocation);  // the current device's copy
  const ir::Variable* v = m.module->find_global(it->second.name);
  if (!v) return record(invalid_symbol);
  address = device_.module_globals[&*m.module][static_cast<std::size_t>(v - m.module->globals.data())];
  size = v->size_bytes();
  return success;
}

// ---------------------------------------------------------------------------------------------- launches
bool Runtime::pop_config(LaunchConfig& c) {
  std::lock_guard lock(mutex_);
  if (configs_.empty()) return false;
  c = configs_.back();
  configs_.pop_back();
  return true;
}

const Kernel* Runtime::kernel(const void* host_function) {
  std::lock_guard lock(mutex_);
  auto it = kernels_.find(host_function);
  return it == kernels_.end() ? nullptr : &it->second;
}

const ir::Function* Runtime::kernel_function(const void* host_function) {
  const Kernel* k = kernel(host_function);
  if (!k || !k->module->module) return nullptr;
  const auto found = k->module->module->kernels_named(k->name);
  return found.size() == 1 ? found[0] : nullptr;
}

int Runtime::kernel_target(const void* host_function) {
  const Kernel* k = kernel(host_function);
  if (!k || !k->module->module) return 0;
  for (const auto& t : k->module->module->targets)
    if (t.rfind("sm_", 0) == 0) return std::atoi(t.c_str() + 3);
  return 0;
}

std::uint64_t Runtime::kernel_static_shared(const void* host_function) {
  const Kernel* k = kernel(host_function);
  if (!k || !k->module->module) return 0;
  std::uint64_t bytes = 0;
  for (const auto& v : k->module->module->globals)
    if (v.space == ir::StateSpace::shared && !v.is_extern) bytes += v.size_bytes();
  return bytes;
}

int Runtime::set_max_dynamic_shared(const void* host_function, int bytes, std::uint64_t limit) {
  std::lock_guard lock(mutex_);
  auto it = kernels_.find(host_function);
  if (it == kernels_.end()) return record(invalid_device_function);
  if (bytes < 0 || static_cast<std::uint64_t>(bytes) > limit) return record(invalid_value);
  it->second.max_dynamic_shared = static_cast<std::uint64_t>(bytes);
  return success;
}

int Runtime::unimplemented(const std::string& what, int error) {
  add_finding({"ptxcheck.exec.unimplemented", "warning", what + " is not implemented by ptxcheck", "", "", 0});
  report("the CUDA runtime call " + what + " is not implemented by ptxcheck; it returns " + error_name(error));
  return record(error);
}

int Runtime::launch(const void* host_function, const LaunchConfig& config, void** args, const LaunchExtras& extras) {
  std::lock_guard lock(mutex_);
  if (int e = sticky()) return e;  // after a kernel fault every call fails, as in CUDA
  const Kernel* k = kernel(host_function);
  if (!k) return record(invalid_device_function);
  if (!k->module->module) {
    report("cannot launch " + k->name + ": " + k->module->error);
    return record(no_kernel_image);
  }
  const ir::Function* fn = kernel_function(host_function);
  if (!fn) return record(invalid_device_function);
  if (config.shared_bytes > k->max_dynamic_shared) {
    report("kernel " + ir::kernel_title(k->name) + ": " + std::to_string(config.shared_bytes) + " bytes of dynamic shared memory, more than " +
           std::to_string(k->max_dynamic_shared) + " (raise cudaFuncAttributeMaxDynamicSharedMemorySize with cudaFuncSetAttribute)");
    return record(invalid_value);
  }
  // "A kernel launch will fail if it is issued to a stream that is not associated to the current device"
  // (CUDA Programming Guide, multi-device system: stream and event behavior).
  if (const int d = handle_device(config.stream); d >= 0 && d != current_device()) {
    report("kernel " + ir::kernel_title(k->name) + ": launched into a stream of device " + std::to_string(d) + " while device " +
           std::to_string(current_device()) + " is current");
    return record(invalid_resource_handle);
  }
  if (is_capturing(config.stream)) return capture_launch(host_function, config, args, extras);
  if (!config.stream)
    if (int e = legacy_stream_work(("launch of " + ir::kernel_title(k->name)).c_str())) return e;
  interp::Launch launch;
  launch.kernel = k->name;
  launch.grid = config.grid;
  launch.block = config.block;
  launch.cluster = extras.cluster;
  launch.cooperative = extras.cooperative;
  launch.dynamic_shared_bytes = static_cast<std::uint32_t>(config.shared_bytes);
  for (std::size_t p = 0; p < fn->params.size(); ++p) {
    interp::ParamValue v;
    const auto* bytes = static_cast<const std::uint8_t*>(args ? args[p] : nullptr);
    if (!bytes) return record(invalid_value);
    v.bytes.assign(bytes, bytes + fn->params[p].size_bytes());
    launch.params.push_back(std::move(v));
  }
  if (!place_globals(*k->module)) return record(memory_allocation);
  interp::Options options;
  options.device = &device_;
  options.textures = &textures_;
  options.seed = seed_ ? seed_ + launches_ : 0;
  options.printf_sink = [](const std::string& text) { std::fwrite(text.data(), 1, text.size(), stdout); };
  options.set_conditional = set_conditional;  // graph_conditional.hpp
  ++launches_;
  sync_managed(true);
  sync_registered(true);
  const interp::RunResult result = monitor_ ? monitor_->run(*k->module->module, launch, options) : interp::run(*k->module->module, launch, options);
  sync_managed(false);
  sync_registered(false);
  std::fflush(stdout);
  warp_instructions_ += result.stats.warp_instructions;
  if (result.ok()) return success;
  report("kernel " + ir::kernel_title(k->name) + " <<<(" + dims_text(config.grid) + "), (" + dims_text(config.block) + ")>>>: " +
         interp::problem_kind_name(result.problem.kind) + ": " + result.problem.message + fault_position(*k->module->module, result.problem));
  note_fault(*k->module->module, ir::kernel_title(k->name), result.problem);
  const int e = result.problem.message.find("assertion failed") != std::string::npos ? assert_failed : error_of(result.problem.kind);
  return record(e);
}

// A launch into a capturing stream (api_graph.cpp): recorded as a node of the capture.
int Runtime::capture_launch(const void* host_function, const LaunchConfig& config, void** args, const LaunchExtras& extras) {
  KeptLaunch kept;
  if (int e = keep_launch(host_function, config, args, extras, kept)) return e;
  auto run = [kept] { return Runtime::instance().run_kept(kept); };
  capture_into(config.stream, {"launch of " + kernel(host_function)->name, std::move(run), kernel_node, {}, std::move(kept)});
  return success;
}

// The node launches with the copied argument bytes on the legacy stream when the graph runs.
int Runtime::keep_launch(const void* host_function, const LaunchConfig& config, void** args, const LaunchExtras& extras, KeptLaunch& out) {
  const ir::Function* fn = kernel_function(host_function);
  if (!fn) return record(invalid_device_function);
  auto bytes = std::make_shared<std::vector<std::vector<std::uint8_t>>>();
  for (std::size_t p = 0; p < fn->params.size(); ++p) {
    const auto* b = static_cast<const std::uint8_t*>(args ? args[p] : nullptr);
    if (!b) return record(invalid_value);
    bytes->emplace_back(b, b + fn->params[p].size_bytes());
  }
  out = KeptLaunch{host_function, config, extras, bytes, {}, current_device()};  // runs on the device it was made on
  out.config.stream = nullptr;
  for (auto& b : *bytes) out.pointers.push_back(b.data());
  return success;
}

int Runtime::run_kept(const KeptLaunch& k) {
  std::vector<void*> pointers = k.pointers;
  const int caller = current_device();
  set_device(k.device);
  const int e = launch(k.host_function, k.config, pointers.data(), k.extras);
  set_device(caller);
  return e;
}

}  // namespace ptx::runtime

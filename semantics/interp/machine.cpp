// The interpreter's machine: launch setup (memory layout, parameters), CTA-by-CTA execution, the warp
// scheduler over converged lane groups (ISA 3.2 independent thread scheduling: each thread has its own pc;
// a group of lanes at the same pc executes one decoded instruction together), barriers (ISA 9.7.13.1-2) with
// deadlock detection, warp rendezvous over membermask (9.7.9.6 shfl.sync, 9.7.13.8-11 vote/match/redux/elect
// .sync, bar.warp.sync), and calls per the PTX ABI (ISA 7, ptx-interoperability chapter 2 .param passing).
#include "semantics/interp/machine.hpp"
#include "semantics/interp/printf.hpp"
#include "semantics/support/resource_guard.hpp"
#include "semantics/ops/atomic.hpp"
#include "semantics/ops/effect.hpp"
#include "semantics/ops/warp.hpp"

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstring>
#include <memory>

namespace ptx::interp {

const char* problem_kind_name(Problem::Kind k) {
  switch (k) {
    case Problem::Kind::none: return "none";
    case Problem::Kind::out_of_bounds: return "out_of_bounds";
    case Problem::Kind::deadlock: return "deadlock";
    case Problem::Kind::trap: return "trap";
    case Problem::Kind::unsupported: return "unsupported";
    case Problem::Kind::bad_launch: return "bad_launch";
    case Problem::Kind::step_limit: return "step_limit";
    case Problem::Kind::misaligned: return "misaligned";
    case Problem::Kind::illegal: return "illegal";
  }
  return "?";
}

namespace {
// The lanes of `mask` whose rank (position among the lanes of `mask`) is set in `ranks`.
std::uint32_t ranks_to_lanes(std::uint32_t ranks, std::uint32_t mask) {
  if ((mask & (mask + 1)) == 0) return ranks;  // lanes 0..n-1: rank k is lane k
  std::uint32_t lanes = 0, k = 0;
  for (std::uint32_t m = mask; m; m &= m - 1, ++k)
    if ((ranks >> k) & 1) lanes |= m & (0u - m);
  return lanes;
}
// The instructions whose rendezvous is the warpgroup's (try_warpgroup_sync): wgmma.mma_async (9.7.15.5.2).
// (setmaxnreg's .sync waits for the warp only, 9.7.19.5: setmaxnreg.cpp.)
bool warpgroup_rendezvous(ir::Opcode op) { return op == ir::Opcode::wgmma_; }
std::uint64_t align_up(std::uint64_t x, std::uint64_t a) { return a ? (x + a - 1) / a * a : x; }
std::uint64_t var_align(const ir::Variable& v) { return variable_alignment(v); }
}  // namespace

// ---------------------------------------------------------------------------------------------- problems
ThreadPos Machine::position(Thread& t) {
  ThreadPos p;
  if (cta_) p.ctaid = cta_->ctaid;
  p.tid = t.tid;
  if (!t.frames.empty()) {
    const Frame& f = t.frames.back();
    const ir::Function& fn = mod_.functions[f.fn];
    p.function = fn.name;
    std::uint32_t pc = std::min<std::uint32_t>(f.pc, fn.body.empty() ? 0 : static_cast<std::uint32_t>(fn.body.size() - 1));
    if (!fn.body.empty()) {
      p.ptx_line = fn.body[pc].loc.ptx_line;
      p.source = fn.body[pc].loc.pos;
    }
  }
  return p;
}

void Machine::fail(Problem::Kind k, std::string message, std::vector<Thread*> threads) {
  if (stop_) return;
  stop_ = true;
  result_.problem.kind = k;
  result_.problem.message = std::move(message);
  for (Thread* t : threads) result_.problem.threads.push_back(position(*t));
}

// ---------------------------------------------------------------------------------------------- setup
void layout_registers(const ir::Function& f, FnInfo& fi) {
  for (const auto& r : f.registers) {
    fi.slot.push_back(fi.nslots);
    fi.vec.push_back(r.type.vector);
    for (unsigned k = 0; k < r.type.vector; ++k) fi.init.push_back(CV{0, ir::scalar_bits(r.type.scalar)});
    fi.nslots += r.type.vector;
  }
}

void decode_instruction(const FnInfo& fi, const Instruction& ins, bool fast, Decoded& d) {
  ops::set_form(d, ins);
  d.space = ins.q.space.value_or(StateSpace::generic);
  d.red = ins.q.has(ir::Flag::red);
  d.arrive = ins.q.has(ir::Flag::arrive);
  if (ins.guard >= 0) d.guard_slot = static_cast<std::int32_t>(fi.slot[static_cast<std::size_t>(ins.guard)]);
  if (fast) d.fast = plan_fast(fi, ins, d);
}

const Decoded& Machine::decode_first(std::uint32_t fn, std::uint32_t pc) {
  Decoded& d = fns_[fn].decoded[pc];
  decode_instruction(fns_[fn], mod_.functions[fn].body[pc], opt_.fast_path && !opt_.observer, d);
  d.ready = true;
  return d;
}

bool Machine::setup() {
  // Functions: register slots and frame layouts (ISA 5.1.5 .local, 5.1.6 .param: per call, per thread).
  fns_.resize(mod_.functions.size());
  for (std::uint32_t i = 0; i < mod_.functions.size(); ++i) {
    const ir::Function& f = mod_.functions[i];
    FnInfo& fi = fns_[i];
    fi.fn = &f;
    layout_registers(f, fi);
    std::uint64_t off = 0;
    auto place = [&](const ir::Variable& v) {
      off = align_up(off, var_align(v));
      std::uint64_t at = off;
      off += std::max<std::uint64_t>(v.size_bytes(), 1);
      return at;
    };
    // Legacy `.reg` parameters are the function's first registers, parameters then returns (ir/build.cpp).
    std::int32_t next_reg = 0;
    for (const auto& p : f.params) {
      fi.param_off.push_back(place(p));
      fi.param_reg.push_back(p.space == StateSpace::reg ? next_reg++ : -1);
    }
    for (const auto& p : f.returns) {
      fi.ret_off.push_back(place(p));
      fi.ret_reg.push_back(p.space == StateSpace::reg ? next_reg++ : -1);
    }
    for (std::uint32_t k = 0; k < f.locals.size(); ++k) {
      const auto& v = f.locals[k];
      if (v.space == StateSpace::shared) {
        fi.local_off.push_back(0);
        continue;
      }
      fi.local_off.push_back(place(v));
    }
    fi.frame_bytes = align_up(off, 16);
    fi.decoded.resize(f.body.size());
  }
  // Static shared memory: module-scope .shared variables, then those declared inside functions; every
  // `.extern .shared` array starts at the dynamic area after them (ISA 5.1.4, CUDA's extern __shared__).
  std::uint64_t shared = 0;
  global_addr_.assign(mod_.globals.size(), 0);
  std::vector<std::uint32_t> extern_shared;
  for (std::uint32_t g = 0; g < mod_.globals.size(); ++g) {
    const auto& v = mod_.globals[g];
    if (v.space != StateSpace::shared) continue;
    if (v.is_extern || v.count == 0) { extern_shared.push_back(g); continue; }
    shared = align_up(shared, var_align(v));
    global_addr_[g] = shared;
    shared += v.size_bytes();
  }
  for (std::uint32_t i = 0; i < mod_.functions.size(); ++i)
    for (std::uint32_t k = 0; k < mod_.functions[i].locals.size(); ++k) {
      const auto& v = mod_.functions[i].locals[k];
      if (v.space != StateSpace::shared) continue;
      shared = align_up(shared, var_align(v));
      local_shared_[{i, k}] = shared;
      shared += v.size_bytes();
    }
  static_shared_ = shared;
  // The dynamic shared memory starts where every extern declaration's .align holds (ISA 5.4.5), 16 at least.
  std::uint64_t dynamic_align = 16;
  for (auto g : extern_shared) dynamic_align = std::max(dynamic_align, var_align(mod_.globals[g]));
  dynamic_shared_base_ = align_up(shared, dynamic_align);
  for (auto g : extern_shared) global_addr_[g] = dynamic_shared_base_;
  if (opt_.observer) {
    for (std::uint32_t g = 0; g < mod_.globals.size(); ++g)
      if (mod_.globals[g].space == StateSpace::shared) {
        bool dyn = mod_.globals[g].is_extern || mod_.globals[g].count == 0;
        opt_.observer->allocation(mod_.globals[g].name, StateSpace::shared, global_addr_[g],
                                  dyn ? launch_.dynamic_shared_bytes : mod_.globals[g].size_bytes());
      }
    for (const auto& [key, off] : local_shared_) {
      const auto& v = mod_.functions[key.first].locals[key.second];
      opt_.observer->allocation(v.name, StateSpace::shared, off, v.size_bytes());
    }
  }
  // Global and const variables with their initializers (ISA 5.4.4): placed once per device memory.
  global_.set_slack(opt_.gpu_slack_bytes);
  if (opt_.device) {
    auto [it, first] = opt_.device->module_globals.try_emplace(&mod_);
    if (first && !place_module_globals(global_, mod_, it->second)) return false;
    for (std::uint32_t g = 0; g < mod_.globals.size(); ++g)
      if (mod_.globals[g].space == StateSpace::global || mod_.globals[g].space == StateSpace::const_) global_addr_[g] = it->second[g];
  } else if (!place_module_globals(global_, mod_, global_addr_)) {
    return false;
  }
  if (opt_.observer) {
    for (std::uint32_t g = 0; g < mod_.globals.size(); ++g)
      if (const auto& v = mod_.globals[g]; v.space == StateSpace::global || v.space == StateSpace::const_)
        opt_.observer->allocation(v.name, v.space, global_addr_[g], v.size_bytes());
    if (opt_.device)  // the program's own allocations (cudaMalloc), so that reports can name them
      for (const auto& r : global_.regions())
        if (std::find(global_addr_.begin(), global_addr_.end(), r.base) == global_addr_.end())
          opt_.observer->allocation(r.name, StateSpace::global, r.base, r.size);
  }
  return true;
}

std::uint64_t Machine::to_generic(StateSpace s, std::uint64_t a) { return generic_address(s, a); }

void Machine::push_frame(Thread& t, std::uint32_t fn, const Instruction* call, Thread*) {
  const FnInfo& fi = fns_[fn];
  Frame f;
  f.fn = fn;
  f.pc = 0;
  f.call = call;
  f.reg_base = static_cast<std::uint32_t>(t.regs.size());
  f.stack_base = align_up(t.stack.size(), 16);
  f.entry_sp = t.sp;
  t.regs.insert(t.regs.end(), fi.init.begin(), fi.init.end());
  t.stack.resize(f.stack_base + fi.frame_bytes, 0);
  t.peak_stack = std::max<std::uint64_t>(t.peak_stack, t.stack.size() + t.regs.size() * sizeof(CV));
  t.frames.push_back(f);
  sync_top(t);
}

void Machine::setup_cta(Cta& cta, std::array<std::uint32_t, 3> ctaid) {
  cta.ctaid = ctaid;
  const auto& b = launch_.block;
  std::uint32_t n = b[0] * b[1] * b[2];
  cta.threads.clear();
  cta.arena.release();
  cta.threads.reserve(n);
  cta.shared.assign(dynamic_shared_base_ + launch_.dynamic_shared_bytes, 0);
  cta.barriers = {};
  cta.mbarriers.clear();
  cta.tmem.clear();
  cta.tmem_allocations.clear();
  cta.tmem_relinquished = false;
  cta.exited = 0;
  cta.arrivals = 0;
  cta.warps.assign((n + 31) / 32, Warp{});
  for (auto& w : cta.warps) w.lanes.reserve(32);
  for (std::uint32_t i = 0; i < n; ++i) {
    Thread& t = cta.threads.emplace_back(&cta.arena);
    t.linear = i;
    t.tid = {i % b[0], (i / b[0]) % b[1], i / (b[0] * b[1])};
    t.warp = i / 32;
    t.lane = i % 32;
    cta.warps[t.warp].lanes.push_back(i);
    push_frame(t, kernel_, nullptr, nullptr);
    std::memcpy(t.stack.data() + t.top->stack_base, kernel_frame_.data(), kernel_frame_.size());
  }
}

// ---------------------------------------------------------------------------------------------- run
RunResult Machine::run() {
  auto start = std::chrono::steady_clock::now();
  const auto candidates = launch_.kernel.empty() ? mod_.kernels() : mod_.kernels_named(launch_.kernel);
  if (candidates.size() != 1) {
    result_.problem = {Problem::Kind::bad_launch,
                       launch_.kernel.empty() ? "the module has " + std::to_string(candidates.size()) + " kernels; name one"
                                              : mod_.no_single_kernel_named(launch_.kernel), {}};
    return result_;
  }
  const ir::Function* kernel = candidates[0];
  if (auto why = opt_.gpu_launch_limits ? launch_shape_error(launch_.block, launch_.grid, kernel) : std::string(); !why.empty()) {
    result_.problem = {Problem::Kind::bad_launch, why, {}};
    return result_;
  }
  // Checked even without gpu_launch_limits: a grid that is not a whole number of clusters has no cluster layout.
  if (auto why = cluster_shape_error(launch_.grid, launch_.cluster, kernel); !why.empty()) {
    result_.problem = {Problem::Kind::bad_launch, why, {}};
    return result_;
  }
  cluster_ = cluster_shape(launch_.cluster, kernel);
  if (launch_.params.size() != kernel->params.size()) {
    result_.problem = {Problem::Kind::bad_launch,
                       "kernel '" + ir::kernel_title(kernel->name) + "' takes " + std::to_string(kernel->params.size()) + " parameters, the launch gives " +
                           std::to_string(launch_.params.size()), {}};
    return result_;
  }
  result_.unsupported = find_unsupported(mod_, *kernel);
  if (!result_.unsupported.empty()) {
    result_.problem.kind = Problem::Kind::unsupported;
    result_.problem.message = "unsupported instruction '" + result_.unsupported[0].instruction + "' at line " +
                              std::to_string(result_.unsupported[0].ptx_line);
    return result_;
  }
  if (!setup()) {
    result_.problem = {Problem::Kind::bad_launch, "out of device memory placing the module's variables", {}};
    return result_;
  }
  if (auto why = cluster_refusal(*kernel); !why.empty()) {
    result_.problem = {Problem::Kind::unsupported, why, {}};
    return result_;
  }
  const std::size_t first_buffer_region = global_.regions().size();
  for (const auto& [name, bytes] : launch_.buffers) {
    buffer_base_.push_back(global_.allocate(name, bytes.size(), 256));
    if (!buffer_base_.back()) {
      result_.problem = {Problem::Kind::bad_launch, "out of device memory for buffer '" + name + "'", {}};
      return result_;
    }
    if (opt_.observer) opt_.observer->allocation(name, StateSpace::global, buffer_base_.back(), bytes.size());
    auto& r = global_.region(global_.regions().size() - 1);
    std::copy(bytes.begin(), bytes.end(), r.bytes.begin());
  }
  for (const auto& ptr : launch_.pointers) {
    const std::ptrdiff_t from = launch_.buffer_index(ptr.buffer), to = launch_.buffer_index(ptr.target);
    if (from < 0 || to < 0 || ptr.at + 8 > launch_.buffers[from].second.size()) {
      result_.problem = {Problem::Kind::bad_launch, "pointer at byte " + std::to_string(ptr.at) + " of buffer '" + ptr.buffer + "' to buffer '" +
                                                        ptr.target + "': no such buffer, or not 8 bytes inside it", {}};
      return result_;
    }
    const std::uint64_t address = buffer_base_[to] + ptr.offset;
    for (int k = 0; k < 8; ++k) global_.region(first_buffer_region + from).bytes[ptr.at + k] = static_cast<std::uint8_t>(address >> (8 * k));
  }
  if (!write_tensor_maps(first_buffer_region)) return result_;  // bulk_copy.cpp
  if (launch_.cooperative) {
    // The grid workspace (cooperative_groups/details/driver_abi.h `grid_workspace`): {wsSize, barrier}, barrier 0.
    grid_workspace_ = global_.allocate("grid workspace", 8, 256);
    if (opt_.observer) opt_.observer->allocation("grid workspace", StateSpace::global, grid_workspace_, 8);
    std::uint32_t ws_size = 8;
    std::memcpy(global_.region(global_.regions().size() - 1).bytes.data(), &ws_size, 4);
  }
  // Kernel parameters (ISA 5.1.6.1): every thread's param space starts with the launch's values.
  kernel_ = static_cast<std::uint32_t>(kernel - mod_.functions.data());
  const FnInfo& ki = fns_[kernel_];
  kernel_frame_.assign(ki.frame_bytes, 0);
  for (std::size_t p = 0; p < kernel->params.size(); ++p) {
    const ParamValue& pv = launch_.params[p];
    if (!pv.bytes.empty()) {
      if (pv.bytes.size() != kernel->params[p].size_bytes()) {
        result_.problem = {Problem::Kind::bad_launch, "parameter " + std::to_string(p) + " of kernel '" + kernel->name + "' is " +
                                                          std::to_string(kernel->params[p].size_bytes()) + " bytes, the launch gives " +
                                                          std::to_string(pv.bytes.size()), {}};
        return result_;
      }
      std::memcpy(kernel_frame_.data() + ki.param_off[p], pv.bytes.data(), pv.bytes.size());
      continue;
    }
    std::uint64_t value = pv.bits;
    if (!pv.buffer.empty())
      if (const std::ptrdiff_t k = launch_.buffer_index(pv.buffer); k >= 0) value = buffer_base_[static_cast<std::size_t>(k)];
    std::memcpy(kernel_frame_.data() + ki.param_off[p], &value, std::min<std::uint64_t>(kernel->params[p].size_bytes(), 8));
  }
  const auto& b = launch_.block;
  const std::size_t cta_bytes = (sizeof(Frame) + ki.nslots * sizeof(CV) + ki.frame_bytes + 64) * b[0] * b[1] * b[2] + 64;  // 64: alignment
  run_grid(cta_bytes);
  if (!stop_) bulk_flush_all();
  cta_ = nullptr;
  for (std::size_t k = 0; k < launch_.buffers.size(); ++k) {
    auto* r = global_.find(buffer_base_[k], launch_.buffers[k].second.size());
    std::vector<std::uint8_t> bytes;
    if (r) bytes.assign(r->bytes.begin(), r->bytes.begin() + static_cast<std::ptrdiff_t>(r->size));
    result_.buffers.push_back({launch_.buffers[k].first, std::move(bytes)});
  }
  result_.stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result_;
}

// Up to `resident_ctas` CTAs are resident at once and run interleaved (so that a CTA waiting for another
// resident one makes progress, as on a GPU with that many CTAs in flight); the unit of residency is a cluster,
// all of whose CTAs run together (ISA 2.2.2), and a finished cluster makes room for the next in grid order.
void Machine::run_grid(std::size_t cta_bytes) {
  cluster_queue_ = cluster_order();
  const auto& pending = cluster_queue_;  // clusterlaunchcontrol.try_cancel may remove those not yet started
  std::size_t& next = cluster_next_;
  std::size_t resident_ctas = 0;
  std::vector<std::unique_ptr<Cluster>> resident;
  std::vector<std::unique_ptr<Cta>> spare;
  std::vector<std::unique_ptr<Cta>> owned;  // the resident CTAs' storage
  const std::size_t limit = launch_.cooperative ? ~std::size_t(0) : std::max<std::uint32_t>(1, opt_.resident_ctas);
  while (!stop_ && (next < pending.size() || !resident.empty())) {
    while (next < pending.size() && (resident.empty() || resident_ctas + pending[next].size() <= limit)) {
      auto& cl = *resident.emplace_back(std::make_unique<Cluster>());
      const auto& ids = pending[next++];
      for (std::uint32_t r = 0; r < ids.size(); ++r) {
        if (spare.empty()) spare.push_back(std::make_unique<Cta>(cta_bytes));
        owned.push_back(std::move(spare.back()));
        spare.pop_back();
        cta_ = owned.back().get();
        setup_cta(*cta_, ids[r]);
        cta_->cluster = &cl;
        cta_->rank = r;
        cl.ctas.push_back(cta_);
        result_.stats.threads += cta_->threads.size();
        result_.stats.warps += cta_->warps.size();
        result_.stats.ctas += 1;
      }
      for (int i = 0; i < 3; ++i) cl.id[i] = ids[0][i] / cluster_.dims[i];
      resident_ctas += ids.size();
    }
    bool progress = false;
    std::size_t live = 0;
    for (const auto& c : owned) live += c->exited != c->threads.size();
    // With a seed, the CTAs of clusters run in a random order each round, so that accesses of one CTA to another's
    // shared memory interleave differently from run to run (1-CTA clusters keep grid order, as before clusters).
    if (opt_.seed && cluster_.ctas() > 1) std::shuffle(owned.begin(), owned.end(), *rng_);
    for (std::size_t i = 0; i < owned.size() && !stop_; ++i) {
      cta_ = owned[i].get();
      if (cta_->exited != cta_->threads.size()) progress |= run_cta(*cta_, live == 1);
    }
    for (std::size_t k = 0; k < resident.size() && !stop_;) {
      if (!resident[k]->done()) { ++k; continue; }
      bulk_flush_cluster(*resident[k]);  // its copies land before its shared memory goes
      for (Cta* c : resident[k]->ctas) {
        if (opt_.observer) opt_.observer->cta_retired(cta_linear(*c));
        for (auto& t : c->threads)
          result_.stats.bytes_per_thread = std::max<std::uint64_t>(result_.stats.bytes_per_thread, t.peak_stack + sizeof(Thread));
        auto it = std::find_if(owned.begin(), owned.end(), [&](const auto& p) { return p.get() == c; });
        spare.push_back(std::move(*it));
        owned.erase(it);
      }
      resident_ctas -= resident[k]->ctas.size();
      resident.erase(resident.begin() + static_cast<std::ptrdiff_t>(k));
      progress = true;
    }
    // Every live CTA is blocked, some at a barrier.cluster that no other CTA can complete any more.
    if (!progress && !stop_)
      for (const auto& c : owned)
        if (c->exited != c->threads.size()) { report_deadlock(*c); break; }
    // Every live thread blocked or spinning on an mbarrier wait that nothing can complete (bulk_copy.cpp).
    if (progress && !stop_ && std::all_of(owned.begin(), owned.end(), [&](const auto& c) { return c->exited == c->threads.size() || spinning_forever(*c); }))
      for (const auto& c : owned)
        if (c->exited != c->threads.size()) { report_spin_deadlock(*c); break; }
  }
}

// Runs one CTA for a round (every warp one quantum), or to completion when `to_end` (no other CTA live).
// Returns whether it made progress. A CTA that cannot, but has threads waiting at barrier.cluster that another
// CTA of its cluster may complete, is left for Machine::run to judge.
bool Machine::run_cta(Cta& cta, bool to_end) {
  bool any = false;
  const std::uint32_t quantum = 256;
  std::vector<std::uint32_t> order(cta.warps.size());
  for (std::uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  for (bool first = true; !stop_ && (first || to_end); first = false) {
    bool progress = false;
    if (opt_.seed) std::shuffle(order.begin(), order.end(), *rng_);
    for (std::uint32_t w : order) {
      if (stop_) break;
      bulk_tick();  // a scheduling point: seeded runs may complete bulk copies here
      tcgen05_tick();
      progress |= step_warp(cta.warps[w], quantum) > 0;
    }
    any |= progress;
    if (cta.exited == cta.threads.size()) break;
    if (stop_) break;
    if (to_end && spinning_forever(cta)) {
      report_spin_deadlock(cta);
      break;
    }
    if (!progress) {
      const bool cluster_wait = std::any_of(cta.threads.begin(), cta.threads.end(), [](const Thread& t) { return t.status == Status::at_cluster_wait; });
      if (!cluster_wait || cluster_.ctas() == 1) report_deadlock(cta);
      break;
    }
  }
  return any;
}

// Nothing can run: every live thread waits at a barrier or a warp rendezvous that cannot complete.
void Machine::report_deadlock(Cta& cta) {
  cta_ = &cta;
  std::vector<Thread*> stuck;
  std::string what;
  for (auto& t : cta.threads)
    if (t.status == Status::at_barrier || t.status == Status::at_warp_sync || t.status == Status::at_cluster_wait) {
      if (stuck.size() < 8) stuck.push_back(&t);
    }
  for (std::uint32_t b = 0; b < 16; ++b)
    if (cta.barriers[b].arrived)
      what += " barrier " + std::to_string(b) + ": " + std::to_string(cta.barriers[b].arrived) + " of " +
              std::to_string(cta.barriers[b].expected ? cta.barriers[b].expected : cta.threads.size() - cta.exited) + " arrived;";
  if (cta.cluster->arrived)
    what += " barrier.cluster: " + std::to_string(cta.cluster->arrived) + " of " + std::to_string(cluster_live_threads(*cta.cluster)) + " arrived;";
  fail(Problem::Kind::deadlock, "deadlock: no thread can make progress;" + what, stuck);
}

std::uint32_t Machine::step_warp(Warp& w, std::uint32_t quantum) {
  std::uint32_t executed = 0;
  auto key_of = [](const Thread& t) {
    const Frame& f = t.frames.back();
    return (std::uint64_t(0xffff - std::min<std::size_t>(t.frames.size(), 0xffff)) << 48) | (std::uint64_t(f.fn) << 32) | f.pc;
  };
  while (executed < quantum && !stop_) {
    // Choose a converged group: the lanes at the same (frame depth, function, pc). Deterministic mode takes
    // the deepest frame and lowest pc first, so that divergent paths meet again at their join point; lanes
    // that looped back while the warp was diverged yield to the other groups first, so that no group can
    // starve another (ISA 3.2: a thread spinning on a flag must not block the thread that sets it). Seeded
    // mode picks a random runnable lane's position.
    std::uint32_t running = 0;
    std::array<std::uint64_t, 32> key;  // of the running lanes
    for (std::uint32_t i = 0; i < w.lanes.size(); ++i) {
      const Thread& t = cta_->threads[w.lanes[i]];
      if (t.status != Status::running) continue;
      running |= 1u << i;
      key[i] = key_of(t);
    }
    if (!running) break;
    std::uint32_t eligible = running & ~w.yielded;
    if (!eligible) {
      w.yielded = 0;
      eligible = running;
    }
    std::uint64_t best_key = ~std::uint64_t(0);
    if (opt_.seed && std::popcount(running) > 1) {
      std::uint32_t pick = static_cast<std::uint32_t>((*rng_)() % static_cast<std::uint32_t>(std::popcount(eligible)));
      for (std::uint32_t m = eligible; m; m &= m - 1)
        if (pick-- == 0) { best_key = key[static_cast<unsigned>(std::countr_zero(m))]; break; }
    } else {
      for (std::uint32_t m = eligible; m; m &= m - 1) best_key = std::min(best_key, key[static_cast<unsigned>(std::countr_zero(m))]);
    }
    std::uint32_t mask = 0;
    for (std::uint32_t m = running; m; m &= m - 1)
      if (key[static_cast<unsigned>(std::countr_zero(m))] == best_key) mask |= m & (0u - m);
    w.yielded &= ~mask;
    w.diverged = mask != running;
    Group g;  // entries [0, size) of thread and regs are set
    g.mask = mask;
    g.size = 0;
    for (std::uint32_t m = mask; m; m &= m - 1, ++g.size) {
      Thread& t = cta_->threads[w.lanes[static_cast<unsigned>(std::countr_zero(m))]];
      g.thread[g.size] = &t;
      g.regs[g.size] = t.rbase;
    }
    const Frame& top = *g.thread[0]->top;
    g.fn = top.fn;
    g.pc = top.pc;
    bool same = true;
    while (same && executed < quantum && !stop_) {
      if (++steps_ > opt_.max_steps) {
        fail(Problem::Kind::step_limit, "step limit of " + std::to_string(opt_.max_steps) + " warp instructions reached");
        break;
      }
      if ((steps_ & 4095) == 0) {  // the observer's stop, and a caller's budget (a race check's replay)
        std::string why = opt_.observer ? opt_.observer->stop_reason() : std::string();
        if (const ptxcheck::ResourceGuard* guard = ptxcheck::ResourceGuard::current(); why.empty() && guard)
          why = guard->exhausted().value_or("");
        if (!why.empty()) {
          fail(Problem::Kind::step_limit, why);
          break;
        }
      }
      same = exec_group(w, g);
      ++executed;
    }
    sync_pc(g);
  }
  return executed;
}

void Machine::sync_pc(Group& g) {
  if (!g.pc_ahead) return;
  for (std::uint32_t k = 0; k < g.size; ++k) g.thread[k]->top->pc = g.pc;
  g.pc_ahead = false;
}

// ---------------------------------------------------------------------------------------------- group step
bool Machine::exec_group(Warp& w, Group& g) {
  const std::uint32_t mask = g.mask, fn = g.fn, pc = g.pc;
  const ir::Function& func = *fns_[fn].fn;
  if (pc >= func.body.size()) {  // falling off the end of a body is a return (ISA 9.7.12.4)
    sync_pc(g);
    for (std::uint32_t k = 0; k < g.size; ++k) do_return(*g.thread[k]);
    return false;
  }
  const Instruction& ins = func.body[pc];
  const Decoded& d = decode(fn, pc);
  ++result_.stats.warp_instructions;
  result_.stats.lane_instructions += g.size;
  ++clock_;
  std::uint32_t active = mask;
  if (d.guard_slot >= 0) {
    const auto slot = static_cast<std::uint32_t>(d.guard_slot);
    std::uint32_t set = 0;  // bit k: the predicate of the group's k-th lane
    for (std::uint32_t k = 0; k < g.size; ++k) set |= static_cast<std::uint32_t>(g.regs[k][slot].v != 0) << k;
    active = ranks_to_lanes(set, mask);
    if (ins.guard_negated) active = mask & ~active;
  }
  if (d.fast.kind != FastKind::none) {
    run_fast(g, active, d.fast);
    g.pc = pc + 1;
    g.pc_ahead = true;
    return !stop_;
  }
  if (ins.op == ir::Opcode::bra_) {
    const std::uint32_t target = static_cast<std::uint32_t>(ins.operands[0].target);
    const bool diverged = active != 0 && active != mask;
    if (!diverged && !(w.diverged && active)) {  // the whole group goes one way and stays together
      g.pc = active ? target : pc + 1;
      g.pc_ahead = true;
      return true;
    }
    g.each(mask, [&](std::uint32_t k, unsigned lane) { g.thread[k]->top->pc = (active >> lane) & 1 ? target : pc + 1; });
    g.pc_ahead = false;
    if (diverged) ++result_.stats.divergent_branches;
    // A split warp chooses again, so that a group behind this one can catch up and reconverge, and a group
    // looping back yields to the others.
    if (w.diverged && target <= pc) w.yielded |= active;
    return false;
  }
  if (ins.op == ir::Opcode::brx_) return exec_brx(w, g, ins, active);
  return exec_other(w, g, ins, d, active);
}

// The instructions that work on the lanes' own pcs: calls, returns, rendezvous, and everything through
// semantics/ops.
bool Machine::exec_other(Warp& w, Group& g, const Instruction& ins, const Decoded& d, std::uint32_t active) {
  const std::uint32_t mask = g.mask, pc = g.pc;
  sync_pc(g);
  Thread& first = *g.thread[0];
  auto each = [&](std::uint32_t set, auto&& body) {
    g.each(set, [&](std::uint32_t k, unsigned lane) { body(*g.thread[k], lane); });
  };
  auto skip_inactive = [&]() { each(mask & ~active, [&](Thread& t, unsigned) { t.frames.back().pc++; }); };
  using ir::Opcode;
  // By kind (semantics/ops/effect.hpp): what runs per warp here; the rest per lane (exec_lane).
  switch (ops::effect_of(ins.op)) {
    case ops::Effect::control:  // (bra and brx above)
      if (ins.op == Opcode::trap_) {
        if (active) {
          std::vector<Thread*> ts;
          each(active, [&](Thread& t, unsigned) { if (ts.size() < 4) ts.push_back(&t); });
          fail(Problem::Kind::trap, "trap executed", ts);
        }
      } else {
        each(active, [&](Thread& t, unsigned) {
          if (ins.op == Opcode::call_) do_call(t, ins);
          else if (ins.op == Opcode::ret_) do_return(t);
          else thread_exit(t);
        });
      }
      skip_inactive();
      return false;
    case ops::Effect::barrier:
      if (ir::is_cluster_barrier(ins)) {
        each(active, [&](Thread& t, unsigned) { cluster_barrier(t, ins); });
        skip_inactive();
        return false;
      }
      if (ins.q.has(ir::Flag::warp)) {  // bar.warp.sync membermask (ISA 9.7.13.2)
        Thread* outside_mask = nullptr;
        each(active, [&](Thread& t, unsigned lane) {
          t.sync_ins = &ins;
          t.sync_mask = static_cast<std::uint32_t>(read(t, ins.operands[0], 32).v);
          if (!((t.sync_mask >> lane) & 1) && !outside_mask) outside_mask = &t;
          t.status = Status::at_warp_sync;
        ++w.syncing;
          t.frames.back().pc++;
        });
        skip_inactive();
        if (outside_mask) return report_outside_membermask(*outside_mask, ins), false;
        try_warp_sync(w);
        return false;
      }
      each(active, [&](Thread& t, unsigned) { arrive_barrier(t, ins, d); });
      skip_inactive();
      check_barriers();
      ++result_.stats.barriers;
      return false;
    case ops::Effect::warp:
      if (ins.op != Opcode::activemask_) return exec_collective(w, g, ins, d, active);
      // ISA 9.7.13.11: the threads currently executing this instruction together (predicated-off ones: 0).
      each(active, [&](Thread& t, unsigned) {
        write(t, ins.operands[0], domain::Concrete::lit(32, active));
        t.frames.back().pc++;
      });
      skip_inactive();
      g.pc = pc + 1;
      return true;
    case ops::Effect::matrix:
      // wgmma's fence, commit_group, wait_group and tcgen05's mma, commit, fence, wait run per lane (exec_lane).
      if (ins.op == Opcode::wgmma_ ? ins.q.has_word("mma_async") : ins.op != Opcode::tcgen05_ || tcgen05_collective(ins))
        return exec_collective(w, g, ins, d, active);
      break;
    case ops::Effect::hint:
      if (ins.op == Opcode::setmaxnreg_) return exec_collective(w, g, ins, d, active);  // 9.7.19.5: the warp's .sync
      break;
    default:
      break;
  }
  bool ok = true;
  each(active, [&](Thread& t, unsigned) {
    if (!ok || stop_) return;
    if (!exec_lane(t, ins, d)) ok = false;
    t.frames.back().pc++;
  });
  if (!ok && !stop_) {
    fail(Problem::Kind::unsupported, "unsupported instruction '" + ir::opcode_text(ins) + "'", {&first});
  }
  skip_inactive();
  g.pc = pc + 1;
  return !stop_;
}

// The warp-collective instructions: each active lane records its operands and waits at the rendezvous, which
// runs the instruction once the lanes it names have arrived (try_warp_sync).
bool Machine::exec_collective(Warp& w, Group& g, const Instruction& ins, const Decoded& d, std::uint32_t active) {
  using ir::Opcode;
  std::uint32_t live = 0;  // the warp's lanes that have not exited
  for (std::uint32_t i = 0; i < w.lanes.size(); ++i)
    if (cta_->threads[w.lanes[i]].status != Status::exited) live |= 1u << i;
  const auto& ops = ins.operands;
  Thread* outside_mask = nullptr;  // a lane that executes the instruction but is not in its own membermask
  g.each(active, [&](std::uint32_t k, unsigned lane) {
    Thread& t = *g.thread[k];
    t.sync_ins = &ins;
    switch (ins.op) {
      case Opcode::ldmatrix_:
        // ISA 9.7.14.5.15 ldmatrix.sync.aligned: every lane gives one row address; the rendezvous is over the
        // whole warp (.aligned: all threads execute the same ldmatrix).
        t.sync_a = domain::Concrete::lit(64, address(t, ops[1]));
        t.sync_mask = live;
        break;
      case Opcode::stmatrix_:
        // ISA 9.7.14.5.16 stmatrix.sync.aligned: as ldmatrix, one row (.trans: column) address a lane.
        t.sync_a = domain::Concrete::lit(64, address(t, ops[0]));
        t.sync_mask = live;
        break;
      case Opcode::movmatrix_:
        // ISA 9.7.14.5.17: each lane's register a is read by warp_movmatrix once all have arrived.
        t.sync_mask = live;
        break;
      case Opcode::wmma_:
        // ISA 9.7.14.4.3-5 (.sync .aligned, the whole warp): load/store give the address p (sync_a) and the optional
        // stride (sync_b), which every lane must give alike; mma's fragments are read by warp_wmma (wmma.cpp).
        if (!ins.q.has_word("mma")) {
          const bool load = ins.q.has_word("load");
          t.sync_a = domain::Concrete::lit(64, address(t, ops[load ? 1 : 0]));
          if (ops.size() > 2) t.sync_b = read(t, ops[2], 32);
        }
        t.sync_mask = live;
        break;
      case Opcode::mma_:
        // ISA 9.7.14.5.14 mma.sync.aligned: each lane contributes its fragments of A, B, C, which warp_mma
        // (mma_sync.cpp) reads from the lanes' registers once all have arrived.
        t.sync_mask = live;
        break;
      case Opcode::wgmma_:
        // ISA 9.7.15.5.2: a warpgroup collective; it runs when every live lane of the four warps has arrived (wgmma.cpp).
      case Opcode::setmaxnreg_:
        // ISA 9.7.19.5 .sync: the thread waits for every thread of its warp (setmaxnreg.cpp checks the warpgroup).
        t.sync_mask = live;
        break;
      case Opcode::tcgen05_:
        // ISA 9.7.16.7.1, 9.7.16.8.3-4 (.sync.aligned): the whole warp executes the instruction (tcgen05.cpp).
        t.sync_mask = live;
        break;
      default: {  // shfl, vote, match, redux, elect: the membermask is the last operand (none: the legacy forms)
        if (ins.op == Opcode::shfl_) {
          t.sync_a = read(t, ops[1], 32);
          t.sync_b = read(t, ops[2], 32);
          t.sync_c = read(t, ops[3], 32);
        } else if (ins.op == Opcode::vote_) {
          t.sync_a = read(t, ops[1], 1);
        } else if (ins.op == Opcode::match_ || ins.op == Opcode::redux_) {
          t.sync_a = read(t, ops[1], d.w0 == 1 ? 32 : d.w0);
        }
        const bool legacy = !ins.q.has(ir::Flag::sync) || (ins.op == Opcode::shfl_ && ops.size() < 5) ||
                            (ins.op == Opcode::vote_ && ops.size() < 3);
        t.sync_mask = legacy ? active : static_cast<std::uint32_t>(read(t, ops[ops.size() - 1], 32).v);
        if (!legacy && !((t.sync_mask >> lane) & 1) && !outside_mask) outside_mask = &t;
      }
    }
    t.status = Status::at_warp_sync;
    ++w.syncing;
    t.frames.back().pc++;
  });
  g.each(g.mask & ~active, [&](std::uint32_t k, unsigned) { g.thread[k]->frames.back().pc++; });
  ++result_.stats.warp_syncs;
  if (outside_mask) return report_outside_membermask(*outside_mask, ins), false;
  try_warp_sync(w);
  return false;
}

// shfl.sync, bar.warp.sync, vote.sync, match.sync, redux.sync and elect.sync each say "The behavior of ... is
// undefined if the executing thread is not in the membermask" (ISA 9.7.9.6, 9.7.13.2, 9.7.13.9, 9.7.13.10,
// 9.7.13.12, 9.7.13.14). No result is defined for the lane, so the run stops there with the behaviour named,
// as the interpreter does for other undefined behaviour.
void Machine::report_outside_membermask(Thread& t, const ir::Instruction& ins) {
  using ir::Opcode;
  const char* section = ins.op == Opcode::shfl_    ? "9.7.9.6"
                        : ins.op == Opcode::vote_  ? "9.7.13.9"
                        : ins.op == Opcode::match_ ? "9.7.13.10"
                        : ins.op == Opcode::redux_ ? "9.7.13.12"
                        : ins.op == Opcode::elect_ ? "9.7.13.14"
                                                   : "9.7.13.2";
  char mask[16];
  std::snprintf(mask, sizeof mask, "0x%08x", t.sync_mask);
  fail(Problem::Kind::illegal, ir::opcode_text(ins) + ": the executing thread (lane " + std::to_string(t.lane) +
       ") is not in membermask " + mask + " (undefined, ISA " + section + ")", {&t});
}

// ---------------------------------------------------------------------------------------------- threads
void Machine::thread_exit(Thread& t) {
  if (t.status == Status::exited) return;
  t.status = Status::exited;
  cta_->exited++;
  if (cta_->exited == cta_->threads.size()) {  // before the CTA's threads go
    tcgen05_tick();
    check_setmaxnreg_at_exit();
  }
  if (cta_->exited == cta_->threads.size() && !cta_->tmem_allocations.empty())  // ISA 9.7.16.7.1
    fail(Problem::Kind::illegal, "the CTA exits with Tensor Memory still allocated (" + std::to_string(cta_->tmem_allocations.begin()->second) +
         " columns at column " + std::to_string(cta_->tmem_allocations.begin()->first) + "): tcgen05.dealloc must free every allocation before the kernel exits (ISA 9.7.16.7.1)", {&t});
  check_barriers();
  complete_cluster_phase();
  for (auto [j, end] = cta_->warpgroup_of(t.warp); j < end; ++j)
    if (j == t.warp || cta_->warps[j].syncing) try_warp_sync(cta_->warps[j]);
}

// ISA 9.7.13.1 bar / barrier: bar{.cta}.sync a{, b}; bar.arrive a, b; bar.red.{popc.u32,and.pred,or.pred}
// d, a{, b}, {!}c. Without b every thread of the CTA participates. Counts are in threads.
void Machine::arrive_barrier(Thread& t, const Instruction& ins, const Decoded& d) {
  const auto& ops = ins.operands;
  const bool red = d.red, arrive = d.arrive;
  const auto where = *ir::cta_barrier_operands(ins);  // (not bar.warp.sync or barrier.cluster: exec_other)
  const auto id = static_cast<std::uint32_t>(read(t, ops[where.name], 32).v);
  const std::uint32_t count = where.count < 0 ? 0 : static_cast<std::uint32_t>(read(t, ops[static_cast<std::size_t>(where.count)], 32).v);
  if (id >= 16) {
    fail(Problem::Kind::illegal, "barrier number " + std::to_string(id) + " out of range 0..15", {&t});
    return;
  }
  Barrier& b = cta_->barriers[id];
  if (b.arrived == 0) { b.expected = count; b.popc = 0; b.all = true; b.any = false; }
  else if (count && b.expected != count) {
    fail(Problem::Kind::illegal, "barrier " + std::to_string(id) + " used with different thread counts", {&t});
    return;
  }
  b.arrived++;
  cta_->arrivals++;
  if (opt_.observer) opt_.observer->barrier_arrive(thread_ref(t), id, ins, count);
  if (red) {
    bool p = read(t, ops.back(), 1).v != 0;
    b.popc += p;
    b.all = b.all && p;
    b.any = b.any || p;
  }
  t.frames.back().pc++;
  if (!arrive) {
    t.status = Status::at_barrier;
    t.barrier_id = id;
    t.barrier_red = red;
    t.sync_ins = &ins;
    b.waiting.push_back(t.linear);
  }
}

void Machine::check_barriers() {
  if (cta_->arrivals == 0) return;
  for (std::uint32_t id = 0; id < 16; ++id) {
    Barrier& b = cta_->barriers[id];
    if (b.arrived == 0) continue;
    std::uint32_t expected = b.expected ? b.expected : static_cast<std::uint32_t>(cta_->threads.size() - cta_->exited);
    if (b.arrived < expected) continue;
    if (opt_.observer) {
      std::vector<ThreadRef> released;
      for (std::uint32_t ti : b.waiting) released.push_back(thread_ref(cta_->threads[ti]));
      opt_.observer->barrier_complete(thread_ref(cta_->threads[0]).cta, id, released);
    }
    for (std::uint32_t ti : b.waiting) {
      Thread& t = cta_->threads[ti];
      t.status = Status::running;
      const Instruction& ins = *t.sync_ins;
      if (t.barrier_red) {
        CV v;
        if (ins.q.has(ir::Flag::popc)) v = domain::Concrete::lit(32, b.popc);
        else if (ins.q.atom_op == ir::AtomOp::and_) v = domain::Concrete::boolean(b.all);
        else v = domain::Concrete::boolean(b.any);
        write(t, ins.operands[0], v);
      }
    }
    cta_->arrivals -= b.arrived;
    b.arrived = 0;  // the next first arrival sets the rest
    b.waiting.clear();
  }
}

// A rendezvous completes when every non-exited lane named in a waiting lane's membermask waits at an
// instruction with the same opcode and qualifiers and the same membermask (ISA 9.7.9.6, 9.7.13.8-11).
void Machine::try_warp_sync(Warp& w) {
  if (w.syncing == 0) return;
  bool again = true;
  while (again && !stop_) {
    again = false;
    for (std::uint32_t i = 0; i < w.lanes.size(); ++i) {
      Thread& t = cta_->threads[w.lanes[i]];
      if (t.status != Status::at_warp_sync) continue;
      if (warpgroup_rendezvous(t.sync_ins->op)) {
        if (!try_warpgroup_sync(w)) break;
        again = true;
        break;
      }
      std::uint32_t need = t.sync_mask, group = 0;
      bool complete = true;
      for (std::uint32_t j = 0; j < w.lanes.size(); ++j) {
        if (!((need >> j) & 1)) continue;
        Thread& u = cta_->threads[w.lanes[j]];
        if (u.status == Status::exited) continue;
        if (u.status != Status::at_warp_sync || u.sync_mask != need || u.sync_ins->op != t.sync_ins->op ||
            u.sync_ins->q.words != t.sync_ins->q.words) {
          complete = false;
          break;
        }
        group |= 1u << j;
      }
      if (!complete) continue;
      complete_warp_sync(w, group, *t.sync_ins);
      again = true;
      break;
    }
  }
}

// The warpgroup rendezvous (9.7.15.1: four contiguous warps). wgmma.mma_async is a warpgroup operation: its product
// starts when all four warps have issued it, so no warp runs past it (and on to overwrite its shared-memory operands)
// before the others have arrived, as on the hardware. Lanes that exited do not count; every other lane must wait at
// the same instruction.
bool Machine::try_warpgroup_sync(Warp& w) {
  const auto [first, last] = cta_->warpgroup_of(static_cast<std::size_t>(&w - cta_->warps.data()));
  const Instruction* ins = nullptr;
  for (std::size_t j = first; j < last; ++j)
    for (std::uint32_t lane : cta_->warps[j].lanes) {
      const Thread& u = cta_->threads[lane];
      if (u.status == Status::exited) continue;
      if (u.status != Status::at_warp_sync || (ins && u.sync_ins != ins) || !warpgroup_rendezvous(u.sync_ins->op)) return false;
      ins = u.sync_ins;
    }
  if (!ins) return false;
  wgmma_issuers_.clear();  // an observer's view: the warpgroup's threads issue each warp's part (warp_wgmma)
  if (opt_.observer && ins->op == ir::Opcode::wgmma_)
    for (std::size_t j = first; j < last; ++j)
      for (std::uint32_t lane : cta_->warps[j].lanes)
        if (cta_->threads[lane].status == Status::at_warp_sync) wgmma_issuers_.push_back(thread_ref(cta_->threads[lane]));
  for (std::size_t j = first; j < last && !stop_; ++j) {
    Warp& v = cta_->warps[j];
    std::uint32_t group = 0;
    for (std::uint32_t i = 0; i < v.lanes.size(); ++i)
      if (cta_->threads[v.lanes[i]].status == Status::at_warp_sync) group |= 1u << i;
    if (group) complete_warp_sync(v, group, *ins);
  }
  return true;
}

void Machine::complete_warp_sync(Warp& w, std::uint32_t group, const Instruction& ins) {
  using ir::Opcode;
  auto lane_thread = [&](unsigned j) -> Thread& { return cta_->threads[w.lanes[j]]; };
  auto each = [&](auto&& body) {
    for (std::uint32_t m = group; m; m &= m - 1) body(lane_thread(static_cast<unsigned>(std::countr_zero(m))), static_cast<unsigned>(std::countr_zero(m)));
  };
  const auto& ops = ins.operands;
  if (opt_.observer && (ins.op == Opcode::bar_ || ins.op == Opcode::barrier_)) {  // bar.warp.sync
    std::vector<ThreadRef> members;
    each([&](Thread& t, unsigned) { members.push_back(thread_ref(t)); });
    opt_.observer->warp_sync(members);
  }
  auto write_pair = [&](Thread& t, const Operand& o, CV v, bool p) {
    if (o.kind == Operand::Kind::PredPair) {
      if (o.reg >= 0) reg(t, o.reg) = v;  // (-1: the sink `_`)
      if (o.reg2 >= 0) reg(t, o.reg2) = domain::Concrete::boolean(p);
    } else {
      write(t, o, v);
    }
  };
  switch (ins.op) {
    case Opcode::shfl_: {
      const ops::ShflMode mode = ops::shfl_mode(ins.q);
      std::vector<CV> src(32);
      each([&](Thread& t, unsigned lane) { src[lane] = t.sync_a; });
      each([&](Thread& t, unsigned lane) {
        const domain::Concrete c;
        const auto [source, in_range] = ops::shfl_source(c, mode, c.lit(32, lane), t.sync_b, t.sync_c);
        const auto j = static_cast<std::int64_t>(source.v);
        const bool p = in_range.v != 0;
        // Sourcing from a lane outside the group is undefined (ISA 9.7.9.6); we give the lane's own value.
        CV v = (j >= 0 && j < 32 && ((group >> j) & 1)) ? src[static_cast<unsigned>(j)] : t.sync_a;
        write_pair(t, ops[0], v, p);
      });
      break;
    }
    case Opcode::vote_: {
      std::uint32_t ballot = 0;
      each([&](Thread& t, unsigned lane) { if (t.sync_a.v) ballot |= 1u << lane; });
      const domain::Concrete c;
      const CV result = ops::vote_result(c, ops::vote_mode(ins.q), c.lit(32, ballot), c.lit(32, group));
      each([&](Thread& t, unsigned) { write(t, ops[0], result); });
      break;
    }
    case Opcode::match_: {
      const bool all = ins.q.has(ir::Flag::all);
      each([&](Thread& t, unsigned) {
        std::uint32_t same = 0;
        bool all_equal = true;
        for (std::uint32_t m = group; m; m &= m - 1) {
          unsigned j = static_cast<unsigned>(std::countr_zero(m));
          if (lane_thread(j).sync_a.v == t.sync_a.v) same |= 1u << j;
          else all_equal = false;
        }
        if (all) write_pair(t, ops[0], domain::Concrete::lit(32, all_equal ? group : 0), all_equal);
        else write(t, ops[0], domain::Concrete::lit(32, same));
      });
      break;
    }
    case Opcode::redux_: {  // the lanes' values in lane order (9.7.13.12)
      const domain::Concrete c;
      const ops::ReduxForm form = ops::redux_form(ins);
      std::optional<CV> acc;
      each([&](Thread& t, unsigned) { acc = acc ? ops::redux_step(c, form, *acc, t.sync_a) : ops::redux_first(c, form, t.sync_a); });
      each([&](Thread& t, unsigned) { write(t, ops[0], *acc); });
      break;
    }
    case Opcode::elect_: {
      const domain::Concrete c;
      const CV leader = c.lit(32, static_cast<unsigned>(std::countr_zero(group)));  // the lowest lane taking part
      each([&](Thread& t, unsigned lane) {
        const auto elected = ops::elect_result(c, leader, c.lit(32, lane));
        write_pair(t, ops[0], elected.leader, elected.is_leader.v != 0);
      });
      break;
    }
    case Opcode::ldmatrix_: warp_ldmatrix(w, group, ins); break;
    case Opcode::stmatrix_: warp_stmatrix(w, group, ins); break;
    case Opcode::movmatrix_: warp_movmatrix(w, group, ins); break;
    case Opcode::wmma_: warp_wmma(w, group, ins); break;
    case Opcode::mma_: warp_mma(w, group, ins); break;
    case Opcode::wgmma_: warp_wgmma(w, group, ins); break;
    case Opcode::tcgen05_: warp_tcgen05(w, group, ins); break;
    case Opcode::setmaxnreg_: record_setmaxnreg(w, ins); break;
    default:
      break;  // bar.warp.sync: only the rendezvous
  }
  each([&](Thread& t, unsigned) {
    t.status = Status::running;
    t.sync_ins = nullptr;
    --w.syncing;
  });
}

// ---------------------------------------------------------------------------------------------- calls
// vprintf(format, args): both arguments are 64-bit generic addresses in the call's argument list.
std::uint64_t Machine::call_argument(Thread& t, const Operand* arguments, std::size_t k, unsigned bytes) {
  if (!arguments || arguments->kind != Operand::Kind::List || k >= arguments->elements.size()) return 0;
  const Operand& o = arguments->elements[k];
  if (o.kind != Operand::Kind::Variable) return read(t, o, bytes * 8).u64();
  auto [space, addr] = variable_address(t, o.var);
  std::uint64_t v = 0;
  if (auto* p = locate(t, space, addr, bytes, false)) std::memcpy(&v, p, bytes);  // little-endian: the low bytes
  return v;
}

void Machine::device_printf(Thread& t, const Operand* arguments) {
  const std::uint64_t format_address = call_argument(t, arguments, 0, 8), buffer = call_argument(t, arguments, 1, 8);
  auto read_string = [&](std::uint64_t a, std::string& text) {
    for (std::uint64_t k = 0; k < 4096; ++k) {
      const std::uint8_t* p = locate(t, StateSpace::generic, a + k, 1, false);
      if (!p) return false;
      if (!*p) return true;
      text += static_cast<char>(*p);
    }
    return true;
  };
  std::string format;
  if (!read_string(format_address, format)) return;  // locate() has reported the bad address
  PrintfArguments args;
  args.read = [&](std::uint64_t offset, unsigned size, std::uint64_t& v) {
    const std::uint8_t* p = buffer ? locate(t, StateSpace::generic, buffer + offset, size, false) : nullptr;
    if (!p) return false;
    v = 0;
    std::memcpy(&v, p, size);
    return true;
  };
  args.read_string = read_string;
  opt_.printf_sink(format_device_printf(format, args));
}

// cudaGraphSetConditional(handle, value): a 64-bit handle and a 32-bit value (cuda_device_runtime_api.h), no result.
void Machine::set_graph_conditional(Thread& t, const Operand* arguments) {
  const std::uint64_t handle = call_argument(t, arguments, 0, 8);
  const auto value = static_cast<std::uint32_t>(call_argument(t, arguments, 1, 4));
  if (!opt_.set_conditional) {
    fail(Problem::Kind::unsupported, "call to 'cudaGraphSetConditional' outside ptxcheck exec (no CUDA graphs here)", {&t});
    return;
  }
  if (!opt_.set_conditional(handle, value))  // an illegal address on an H200 (tests/hardware/h200/exec.txt)
    fail(Problem::Kind::out_of_bounds, "cudaGraphSetConditional with handle " + std::to_string(handle) + ", which no cudaGraphConditionalHandleCreate gave", {&t});
}

// call (ret), f, (args): the arguments are copied into the callee's .param variables and the return
// .param variables are copied back on `ret` (ISA 7.1, ptx-interoperability 2.x: parameters by value).
void Machine::do_call(Thread& t, const Instruction& ins) {
  const auto& ops = ins.operands;
  std::size_t fi = 0;
  while (fi < ops.size() && ops[fi].kind != Operand::Kind::Function) ++fi;
  std::uint32_t callee = 0;
  if (fi < ops.size()) {
    callee = static_cast<std::uint32_t>(ops[fi].target);
  } else {
    // Indirect call `call (r), %fptr, (args), prototype;` (ISA 9.7.12.3): the register holds a function
    // address as `mov.u64 %fptr, f` produced it.
    fi = !ops.empty() && ops[0].kind == Operand::Kind::List ? 1 : 0;
    std::uint64_t v = fi < ops.size() ? read(t, ops[fi], 64).u64() : 0;
    if (v < kFunctionBase || v - kFunctionBase >= mod_.functions.size()) {
      fail(Problem::Kind::illegal, "indirect call through a value that is not a function address", {&t});
      return;
    }
    callee = static_cast<std::uint32_t>(v - kFunctionBase);
  }
  const ir::Function& cf = mod_.functions[callee];
  if (!cf.has_body && cf.name == "vprintf") {
    // CUDA's printf (ptx-interoperability: vprintf(format, args) returns an int): counted in the statistics,
    // printed to Options::printf_sink when there is one (printf.cpp); the call returns 0.
    ++result_.stats.vprintf_calls;
    if (opt_.printf_sink) device_printf(t, fi + 1 < ops.size() ? &ops[fi + 1] : nullptr);
    t.frames.back().pc++;
    if (!ops.empty() && ops[0].kind == Operand::Kind::List && !ops[0].elements.empty()) {
      const Operand& r = ops[0].elements[0];
      if (r.kind == Operand::Kind::Variable) {
        auto [space, addr] = variable_address(t, r.var);
        if (auto* p = locate(t, space, addr, 4, true)) std::memset(p, 0, 4);
      } else {
        write(t, r, domain::Concrete::lit(32, 0));
      }
    }
    return;
  }
  if (!cf.has_body && cf.name == "cudaGraphSetConditional") {
    set_graph_conditional(t, fi + 1 < ops.size() ? &ops[fi + 1] : nullptr);
    t.frames.back().pc++;
    return;
  }
  if (!cf.has_body && cf.name == "__assertfail") {
    // CUDA's assert() failing: __assertfail(message, file, line, function, charSize) stops the kernel.
    fail(Problem::Kind::trap, "assertion failed (__assertfail called)", {&t});
    return;
  }
  if (!cf.has_body) {
    fail(Problem::Kind::unsupported, "call to '" + cf.name + "', which has no body in this module", {&t});
    return;
  }
  const Operand* args = fi + 1 < ops.size() && ops[fi + 1].kind == Operand::Kind::List ? &ops[fi + 1] : nullptr;
  std::vector<std::vector<std::uint8_t>> bytes;
  std::vector<std::vector<CV>> reg_values;  // for legacy .reg parameters: every element of the value
  const FnInfo& cinfo = fns_[callee];
  if (args) {
    for (std::size_t i = 0; i < args->elements.size() && i < cf.params.size(); ++i) {
      const Operand& a = args->elements[i];
      if (cinfo.param_reg[i] >= 0) {
        reg_values.push_back(operand_elements(t, a, cf.params[i].type));
        bytes.emplace_back();
        continue;
      }
      reg_values.emplace_back();
      std::uint64_t size = cf.params[i].size_bytes();
      std::vector<std::uint8_t> b(size, 0);
      if (a.kind == Operand::Kind::Variable) {
        auto [space, addr] = variable_address(t, a.var);
        if (auto* p = locate(t, space, addr, size, false)) std::memcpy(b.data(), p, size);
      } else {
        CV v = read(t, a, static_cast<unsigned>(std::min<std::uint64_t>(size * 8, 128)));
        for (std::uint64_t k = 0; k < size && k < 16; ++k) b[k] = static_cast<std::uint8_t>(v.v >> (8 * k));
      }
      bytes.push_back(std::move(b));
    }
  }
  t.frames.back().pc++;
  push_frame(t, callee, &ins, nullptr);
  const FnInfo& info = fns_[callee];
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    if (info.param_reg[i] >= 0) {
      for (std::size_t k = 0; k < reg_values[i].size(); ++k) {
        CV& r = reg(t, info.param_reg[i], static_cast<int>(k));
        r = domain::Concrete::lit(r.w, reg_values[i][k].v);
      }
      continue;
    }
    std::memcpy(t.stack.data() + t.frames.back().stack_base + info.param_off[i], bytes[i].data(), bytes[i].size());
  }
}

// The elements of a value passed to or from a legacy `.reg` parameter of type `type` (a vector register
// gives each component; a `{a, b}` list gives each element).
std::vector<CV> Machine::operand_elements(Thread& t, const Operand& a, const ir::Type& type) {
  std::vector<CV> out;
  unsigned ew = ir::scalar_bits(type.scalar);
  if (a.kind == Operand::Kind::Register && a.component < 0) {
    for (unsigned k = 0; k < type.vector; ++k) out.push_back(reg(t, a.reg, static_cast<int>(k)));
  } else if (a.kind == Operand::Kind::Vector) {
    for (const auto& e : a.elements) out.push_back(read(t, e, ew));
  } else {
    out.push_back(read(t, a, ew));
  }
  return out;
}

void Machine::do_return(Thread& t) {
  if (t.frames.size() <= 1) {
    thread_exit(t);
    return;
  }
  Frame callee = t.frames.back();
  const ir::Function& cf = mod_.functions[callee.fn];
  const FnInfo& info = fns_[callee.fn];
  std::vector<std::vector<std::uint8_t>> rets;
  std::vector<std::vector<CV>> ret_values;
  for (std::size_t j = 0; j < cf.returns.size(); ++j) {
    ret_values.emplace_back();
    if (info.ret_reg[j] >= 0)
      for (unsigned k = 0; k < cf.returns[j].type.vector; ++k) ret_values.back().push_back(reg(t, info.ret_reg[j], static_cast<int>(k)));
    std::uint64_t size = cf.returns[j].size_bytes();
    const std::uint8_t* p = t.stack.data() + callee.stack_base + info.ret_off[j];
    rets.emplace_back(p, p + size);
  }
  t.frames.pop_back();
  t.regs.resize(callee.reg_base);
  t.stack.resize(callee.stack_base);
  release_alloca(t, callee.entry_sp);  // ISA 9.7.17.3: "automatically deallocated when the function exits"
  sync_top(t);
  const auto& ops = callee.call->operands;
  if (!ops.empty() && ops[0].kind == Operand::Kind::List) {
    for (std::size_t j = 0; j < ops[0].elements.size() && j < rets.size(); ++j) {
      const Operand& o = ops[0].elements[j];
      const auto& b = rets[j];
      if (!ret_values[j].empty()) {
        if (o.kind == Operand::Kind::Register && o.component < 0) {
          for (std::size_t k = 0; k < ret_values[j].size(); ++k) {
            CV& r = reg(t, o.reg, static_cast<int>(k));
            r = domain::Concrete::lit(r.w, ret_values[j][k].v);
          }
        } else if (o.kind == Operand::Kind::Vector) {
          for (std::size_t k = 0; k < o.elements.size() && k < ret_values[j].size(); ++k) write(t, o.elements[k], ret_values[j][k]);
        } else {
          write(t, o, ret_values[j][0]);
        }
        continue;
      }
      if (o.kind == Operand::Kind::Variable) {
        auto [space, addr] = variable_address(t, o.var);
        if (auto* p = locate(t, space, addr, b.size(), true)) std::memcpy(p, b.data(), b.size());
      } else if (o.kind == Operand::Kind::Register) {
        CV& r = reg(t, o.reg, o.component);
        domain::u128 v = 0;
        for (std::size_t k = 0; k < b.size() && k < 16; ++k) v |= domain::u128(b[k]) << (8 * k);
        r = domain::Concrete::lit(r.w, v);
      }
    }
  }
}

RunResult run(const ir::Module& module, const Launch& launch, const Options& options) {
  Machine m(module, launch, options);
  return m.run();
}

}  // namespace ptx::interp

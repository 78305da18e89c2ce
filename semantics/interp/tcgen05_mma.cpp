// tcgen05.mma (ISA 9.7.16.10.9.1) in the interpreter: D = A * B (+ D) with D in Tensor Memory and A, B in shared
// memory, one thread issuing the whole operation. The instruction descriptor (9.7.16.4.2, Table 44) gives the
// shape and types, the shared-memory descriptors (9.7.16.4.1, Table 42) where A and B are.
#include "semantics/interp/machine.hpp"
#include "semantics/interp/matrix_operand.hpp"

#include <algorithm>
#include <cmath>

namespace ptx::interp {
namespace {
using ST = ir::ScalarType;

// The fields of an instruction descriptor for .kind::tf32, f16, f8f6f4 and i8 (Table 44).
struct InstrDescriptor {
  bool sparse, saturate, negate_a, negate_b, transpose_a, transpose_b;
  unsigned dtype, atype, btype, n, m;
  explicit InstrDescriptor(std::uint32_t d)
      : sparse((d >> 2) & 1), saturate((d >> 3) & 1), negate_a((d >> 13) & 1), negate_b((d >> 14) & 1),
        transpose_a((d >> 15) & 1), transpose_b((d >> 16) & 1), dtype((d >> 4) & 3), atype((d >> 7) & 7),
        btype((d >> 10) & 7), n(((d >> 17) & 63) << 3), m(((d >> 24) & 31) << 4) {}
};

// The element types an instruction descriptor names for a kind (Table 44), or why it is refused: `illegal` for
// what the table does not define, `unsupported` for what the interpreter does not run.
struct Types {
  ST d = ST::f32, a = ST::f16, b = ST::f16;
  std::string illegal, unsupported;
};
Types descriptor_types(const std::string& kind, const InstrDescriptor& id) {
  Types t;
  auto bad = [&](const std::string& why) { t.illegal = why; return t; };
  if (kind == "kind::f16") {  // dtype F16 = 0, F32 = 1; atype/btype F16 = 0, BF16 = 1 (.f16 D: .f16 inputs only)
    if (id.dtype > 1 || id.atype > 1 || id.btype != id.atype || (id.dtype == 0 && id.atype != 0)) return bad("the descriptor's types are not a .kind::f16 combination");
    t.d = id.dtype ? ST::f32 : ST::f16;
    t.a = t.b = id.atype ? ST::bf16 : ST::f16;
  } else if (kind == "kind::tf32") {  // F32 = 1; TF32 = 2
    if (id.dtype != 1 || id.atype != 2 || id.btype != 2) return bad("the descriptor's types are not .kind::tf32's (D F32 = 1, A/B TF32 = 2)");
    t.a = t.b = ST::tf32;
  } else if (kind == "kind::f8f6f4") {  // E4M3 = 0, E5M2 = 1, E2M3 = 3, E3M2 = 4, E2M1 = 5
    auto type = [&](unsigned x) { return x == 0 ? ST::e4m3 : ST::e5m2; };
    if (id.dtype > 1 || id.atype > 5 || id.btype > 5 || id.atype == 2 || id.btype == 2) return bad("the descriptor's types are not .kind::f8f6f4's");
    if (id.atype > 1 || id.btype > 1) t.unsupported = "the 6- and 4-bit types' packing in shared memory (9.7.16.10.4) is not modelled";
    t.d = id.dtype ? ST::f32 : ST::f16;
    t.a = type(id.atype);
    t.b = type(id.btype);
  } else {  // kind::i8: S32 = 2; unsigned 8b = 0, signed 8b = 1
    if (id.dtype != 2 || id.atype > 1 || id.btype > 1 || id.negate_a || id.negate_b) return bad("the descriptor's types are not .kind::i8's (D S32 = 2, A/B U8 = 0 or S8 = 1, no negation)");
    t.d = ST::s32;
    t.a = id.atype ? ST::s8 : ST::u8;
    t.b = id.btype ? ST::s8 : ST::u8;
  }
  return t;
}

// tcgen05.mma.ws (9.7.16.10.9.3): why the interpreter does not run it and whether that is illegal, or empty.
// Table 41: .cta_group::1 only, N in {64, 128, 256}; M = 128 runs (Layout D, as without .ws), M = 32 and 64 are
// Layouts G and E, whose figures are images. Table 44 bits 30-31 (the maximum shift for B reuse) and the optional
// zero-column-mask-desc (9.7.16.4.3) are not modelled.
std::pair<std::string, bool> ws_refusal(const InstrDescriptor& id, std::uint32_t idesc, bool pair, std::size_t operands) {
  if (pair) return {".ws with .cta_group::2 is invalid (ISA 9.7.16.2.1, Table 41)", true};
  if (id.n != 64 && id.n != 128 && id.n != 256) return {"N = " + std::to_string(id.n) + " is not a .ws shape of Table 41 (ISA 9.7.16.2.1)", true};
  if (id.m == 32 || id.m == 64) return {".ws with M = " + std::to_string(id.m) + " (Layouts G and E, 9.7.16.10.5: images in the text) is not modelled", false};
  if (id.m != 128) return {"M = " + std::to_string(id.m) + " is not a .ws shape of Table 41 (ISA 9.7.16.2.1)", true};
  if ((idesc >> 30) & 3) return {"the maximum shift for B reuse in .ws (Table 44, bits 30-31) is not modelled", false};
  if (operands > 5) return {"zero-column-mask-desc (9.7.16.4.3) is not modelled", false};
  return {};
}

// Whether N is a shape Table 41 allows, dense: .cta_group::1 steps of 8 (i8: of 16 above 32), ::2 steps of 16
// (i8: of 32).
bool valid_n(unsigned n, bool i8, bool pair) {
  if (pair) return n >= (i8 ? 32u : 16u) && n <= 256 && n % (i8 ? 32 : 16) == 0;
  if (n < 8 || n > 256 || n % 8) return false;
  return !i8 || n <= 32 || n % 16 == 0;
}

// A shared-memory descriptor's fields the interpreter checks (Table 42): bits 46-48 hold 0b001; bit 52 (absolute
// leading-dimension address, sm_103a) is not modelled; modes 3, 5, 7 are invalid; mode 1 (128B with 32B atomicity)
// has an MN-major swizzle atom only (Table 55: "-" for K), and 9.7.16.10.1 ties it to .kind::tf32's transposes:
// "For .kind::tf32, the transpose operations on matrices A and B are supported only with 128B swizzling mode with
// 32B swizzle-atomicity. For all other MMA-Kinds, the transpose operations ... are not supported on" it.
// Empty when the descriptor is usable for a matrix read MN-major or K-major as `mn_major` says; an illegal one's
// reason names its section.
std::pair<std::string, bool> descriptor_problem(std::uint64_t d, bool mn_major, bool tf32) {  // (why, whether illegal rather than unsupported)
  const unsigned mode = static_cast<unsigned>(d >> 61) & 7;
  auto illegal = [](const std::string& why) { return std::pair<std::string, bool>{why + " (ISA 9.7.16.4.1)", true}; };
  if (((d >> 46) & 7) != 1) return illegal("bits 46-48 of a shared memory descriptor must hold 0b001 (Table 42)");
  if (mode == 3 || mode == 5 || mode == 7) return illegal("swizzling mode " + std::to_string(mode) + " is invalid (Table 42)");
  if (mode == 1 && !mn_major) return illegal("the 128-byte swizzle with 32-byte atomicity (mode 1) has no K-major layout (Table 55)");
  if (mn_major && tf32 != (mode == 1))
    return {tf32 ? ".kind::tf32 with a transposed (MN-major) matrix needs the 128B swizzle with 32B atomicity, mode 1 (ISA 9.7.16.10.1)"
                 : "a transposed (MN-major) matrix with the 128B swizzle with 32B atomicity (mode 1) is .kind::tf32's only (ISA 9.7.16.10.1)",
            true};
  if ((d >> 52) & 1) return {"the absolute leading-dimension address mode (sm_103a) is not modelled", false};
  if (((d >> 49) & 7) && mode) return {"a non-zero matrix base offset with a swizzle is not modelled", false};
  return {};
}
}  // namespace

// The CTAs an MMA reaches: its own, or with .cta_group::2 the even and the odd CTA of its pair (9.7.16.5.1),
// both live. Empty, with the problem reported, when the pair is not there.
std::vector<Cta*> Machine::tcgen05_ctas(Thread& t, const Instruction& ins) {
  if (!ins.q.has_word("cta_group::2")) return {cta_};
  const auto& ctas = cta_->cluster->ctas;
  const std::uint32_t even = cta_->rank & ~1u;
  const std::string name = ir::opcode_text(ins);
  if (even + 1 >= ctas.size()) {
    fail(Problem::Kind::illegal, name + ": .cta_group::2 in a CTA without a peer CTA (cluster rank " + std::to_string(cta_->rank) + " of " +
         std::to_string(ctas.size()) + ", ISA 9.7.16.5)", {&t});
    return {};
  }
  for (Cta* c : {ctas[even], ctas[even + 1]})
    if (c->exited == c->threads.size()) {
      fail(Problem::Kind::illegal, name + ": the peer CTA (rank " + std::to_string(c->rank) + ") has exited (ISA 9.7.16.5, Table 48)", {&t});
      return {};
    }
  return {ctas[even], ctas[even + 1]};
}

// tcgen05.mma.cta_group::{1,2}.kind [d-tmem], a-desc, b-desc, idesc{, {disable-output-lane}}, enable-input-d{, scale-input-d}.
// .cta_group::1, M = 128, Layout D (9.7.16.10.5.4, its figure missing from the text; as for Layout A, row m of D is
// Tensor Memory lane m): element (m, n) at lane m, column d + n, one element per 32-bit cell (9.7.16.10.4.1).
// .cta_group::2, M = 256, Layout A (9.7.16.10.5.1): rows 0-127 in the even CTA's lanes, 128-255 in the odd CTA's.
// Each CTA of the pair holds its rows of A and half of B's columns at the descriptors' addresses (docs/tcgen05.md).
void Machine::tcgen05_mma(Thread& t, const Instruction& ins) {
  const std::string name = ir::opcode_text(ins);
  auto illegal = [&](const std::string& why) { fail(Problem::Kind::illegal, name + ": " + why, {&t}); };
  auto unsupported = [&](const std::string& why) { fail(Problem::Kind::unsupported, name + ": " + why, {&t}); };
  const auto& o = ins.operands;
  const bool a_tmem = o[1].kind == Operand::Kind::Address;  // [a-tmem]: .kind::tf32 only (a_tmem_cell)
  if (a_tmem && !ins.q.has_word("kind::tf32"))
    return unsupported("matrix A in Tensor Memory ([a-tmem]) is modelled for .kind::tf32 only: how 16- and 8-bit elements pack in a 32-bit cell is not in the text");
  const std::vector<Cta*> part = tcgen05_ctas(t, ins);
  if (part.empty()) return;
  tcgen05_apply_results();  // earlier MMAs complete first: 9.7.16.6.2 pipelines mma -> mma on one accumulator
  const bool pair = part.size() == 2, ws = ins.q.has_word("ws");
  std::string kind;
  for (const auto& w : ins.q.words)
    if (w.rfind("kind::", 0) == 0) kind = w;
  const auto idesc = static_cast<std::uint32_t>(read(t, o[3], 32).u64());
  const InstrDescriptor id(idesc);
  if (ws) {
    const auto [why, is_illegal] = ws_refusal(id, idesc, pair, o.size());
    if (!why.empty()) return is_illegal ? illegal(why) : unsupported(why);
  }
  const Types ty = descriptor_types(kind, id);
  if (!ty.illegal.empty()) return illegal(ty.illegal + " (ISA 9.7.16.4.2, Table 44)");
  if (!ty.unsupported.empty()) return unsupported(ty.unsupported);
  if (id.sparse) return illegal("the descriptor sets Sparsity on a dense tcgen05.mma (ISA 9.7.16.4.2)");
  const bool is_int = ty.d == ST::s32;
  if (!ws && !valid_n(id.n, is_int, pair)) return illegal("N = " + std::to_string(id.n) + " is not a shape of Table 41 (ISA 9.7.16.2.1)");
  if (id.m != 128u * part.size()) {
    if (id.m == 64 && !pair) return unsupported("M = 64 (Layout F, 9.7.16.10.5.6: its figure is missing from the spec text) is not modelled");
    if (id.m == 128 && pair) return unsupported("M = 128 with .cta_group::2 (Layouts B and C, 9.7.16.10.5.2-3) is not modelled");
    return illegal("M = " + std::to_string(id.m) + " is not a shape of Table 41 (ISA 9.7.16.2.1)");
  }
  if (a_tmem && id.transpose_a) return unsupported("a transposed A in Tensor Memory is not modelled");
  const std::uint64_t adesc = a_tmem ? 0 : read(t, o[1], 64).u64(), bdesc = read(t, o[2], 64).u64();
  std::vector<std::pair<std::uint64_t, bool>> descs{{bdesc, id.transpose_b}};  // each descriptor and whether it is MN-major
  if (!a_tmem) descs.insert(descs.begin(), {adesc, id.transpose_a});
  for (const auto& [dsc, mn_major] : descs) {
    const auto [why, is_illegal] = descriptor_problem(dsc, mn_major, ty.a == ST::tf32);
    if (!why.empty()) return is_illegal ? illegal(why) : unsupported(why);
  }
  // Operands after idesc: an optional disable-output-lane vector (4 words, 8 with .cta_group::2), enable-input-d,
  // an optional scale-input-d immediate (.kind::f16 and tf32 only, in [0, 15]).
  std::size_t next = 4;
  std::uint32_t disabled[8] = {};
  if (o[next].kind == Operand::Kind::Vector) {
    if (o[next].elements.size() != 4 * part.size())
      return illegal("disable-output-lane has " + std::to_string(o[next].elements.size()) + " elements; .cta_group::" + std::to_string(part.size()) +
                     " takes " + std::to_string(4 * part.size()));
    for (std::size_t i = 0; i < o[next].elements.size(); ++i) disabled[i] = static_cast<std::uint32_t>(read(t, o[next].elements[i], 32).u64());
    ++next;
  }
  if (next >= o.size()) return illegal("enable-input-d is missing");
  const bool enable_d = read(t, o[next], 1).u64() != 0;
  int scale_d = 0;
  if (next + 1 < o.size()) {
    scale_d = static_cast<int>(o[next + 1].imm);
    if (o[next + 1].kind != Operand::Kind::Immediate || scale_d < 0 || scale_d > 15 || (kind != "kind::f16" && kind != "kind::tf32"))
      return illegal("scale-input-d must be an immediate in [0, 15], with .kind::f16 or .kind::tf32 only");
  }
  const std::uint64_t dt = address(t, o[0]);
  const auto d_lane = static_cast<std::uint32_t>(dt >> 16), d_col = static_cast<std::uint32_t>(dt & 0xffff);
  if (d_lane != 0) return illegal("D needs Tensor Memory lane 0 (Layouts A and D); d-tmem names lane " + std::to_string(d_lane) + " (ISA 9.7.16.10.5)");
  for (Cta* c : part) {
    if (!c->tmem_allocated(d_col, id.n))
      return illegal("D's columns " + std::to_string(d_col) + "-" + std::to_string(d_col + id.n - 1) + " are not allocated Tensor Memory" +
                     (pair ? " in CTA rank " + std::to_string(c->rank) : std::string()) + " (ISA 9.7.16.7.1)");
  }

  // A (M x K) and B (K x N), exact values, read now (the source must not change until the MMA completes, 9.7.16.10);
  // D is written when the MMA completes: at the next scheduling point (tcgen05_apply_results).
  const unsigned M = id.m, N = id.n, K = kind == "kind::f16" ? 16 : kind == "kind::tf32" ? 8 : 32, eb = matrix_elem_bytes(ty.a);
  // An observer hears of it as an asynchronous operation: shared-memory reads in the async proxy (9.7.16.6.5), and
  // D's Tensor Memory cells, tracked by the thread's later tcgen05.commit.
  const std::uint64_t op = opt_.observer ? next_async_op_++ : 0;
  if (opt_.observer) opt_.observer->async_op_issue(op, {thread_ref(t)}, Observer::AsyncGroup::tcgen05, ins);
  std::vector<double> A(static_cast<std::size_t>(M) * K), B(static_cast<std::size_t>(K) * N);
  auto load = [&](Cta& c, std::uint64_t desc, unsigned mn, unsigned k, bool mn_major, ST type, bool negate) -> double {
    if (stop_) return 0;
    const std::uint64_t at = MatrixDescriptor::tcgen05(desc).address(mn, k, eb, mn_major);
    if (at + eb > c.shared.size()) {
      fail(Problem::Kind::out_of_bounds, name + ": an element of a matrix at shared offset " + std::to_string(at) + " is outside the " +
           std::to_string(c.shared.size()) + " bytes of shared memory of CTA rank " + std::to_string(c.rank), {&t});
      return 0;
    }
    std::uint32_t bits = 0;
    for (unsigned i = 0; i < eb; ++i) bits |= static_cast<std::uint32_t>(c.shared[at + i]) << (8 * i);
    if (opt_.observer) observe_async(op, t.top->fn, ins, MemoryAccess::Kind::read, StateSpace::shared, at, eb, &c);
    return (negate ? -1 : 1) * matrix_element_value(type, bits);
  };
  const unsigned half_n = N / static_cast<unsigned>(part.size());  // each CTA's columns of B
  if (a_tmem) {
    // A in Tensor Memory (.kind::tf32): row m at lane m % 128 of its CTA (the lanes are A's rows in Layouts A and
    // D, 9.7.16.10.5.1/4, as they are D's), element k at column a + k: a tf32 element fills a 32-bit cell, and
    // 9.7.16.10.4 packs only sub-word types. The address's lane must be 0, as D's.
    const std::uint64_t at = address(t, o[1]);
    const auto a_lane = static_cast<std::uint32_t>(at >> 16), a_col = static_cast<std::uint32_t>(at & 0xffff);
    if (a_lane != 0) return illegal("A needs Tensor Memory lane 0 (Layouts A and D); a-tmem names lane " + std::to_string(a_lane) + " (ISA 9.7.16.10.5)");
    for (Cta* c : part)
      if (!c->tmem_allocated(a_col, K))
        return illegal("A's columns " + std::to_string(a_col) + "-" + std::to_string(a_col + K - 1) + " are not allocated Tensor Memory (ISA 9.7.16.7.1)");
    for (unsigned m = 0; m < M; ++m) {
      Cta& c = *part[m / 128];
      if (c.tmem.empty()) c.tmem.assign(kTmemLanes * kTmemColumns, 0);
      if (opt_.observer) observe_tmem(op, t.top->fn, ins, MemoryAccess::Kind::read, m % 128, a_col, K, c);
      for (unsigned k = 0; k < K; ++k)
        A[m * K + k] = (id.negate_a ? -1 : 1) * matrix_element_value(ty.a, c.tmem[(m % 128) * kTmemColumns + a_col + k]);
    }
  } else {
    for (unsigned m = 0; m < M; ++m)
      for (unsigned k = 0; k < K; ++k) A[m * K + k] = load(*part[m / 128], adesc, m % 128, k, id.transpose_a, ty.a, id.negate_a);
  }
  for (unsigned k = 0; k < K; ++k)
    for (unsigned n = 0; n < N; ++n) B[k * N + n] = load(*part[n / half_n], bdesc, n % half_n, k, id.transpose_b, ty.b, id.negate_b);
  if (stop_ || (ws && !tcgen05_collector(t, ins, B))) return;
  for (unsigned m = 0; m < M; ++m) {
    if ((disabled[m / 32] >> (m % 32)) & 1) continue;  // a disabled output lane keeps its D
    Cta& c = *part[m / 128];
    if (opt_.observer) {
      if (enable_d) observe_tmem(op, t.top->fn, ins, MemoryAccess::Kind::read, m % 128, d_col, N, c);
      observe_tmem(op, t.top->fn, ins, MemoryAccess::Kind::write, m % 128, d_col, N, c);
    }
    if (c.tmem.empty()) c.tmem.assign(128 * kTmemColumns, 0);
    std::uint32_t* row = c.tmem.data() + (m % 128) * kTmemColumns + d_col;
    for (unsigned n = 0; n < N; ++n) {
      if (is_int) {
        std::int64_t acc = enable_d ? static_cast<std::int32_t>(row[n]) : 0;
        for (unsigned k = 0; k < K; ++k) acc += static_cast<std::int64_t>(A[m * K + k]) * static_cast<std::int64_t>(B[k * N + n]);
        if (id.saturate) acc = std::clamp<std::int64_t>(acc, INT32_MIN, INT32_MAX);
        tcgen05_results_.push_back({row + n, static_cast<std::uint32_t>(acc)});
        continue;
      }
      // Exact products summed in f64 (D first, then k = 0..K-1), rounded once: as wgmma (docs/tensor-cores.md).
      const bool f16_d = ty.d == ST::f16;
      double acc = 0;
      if (enable_d) acc = std::ldexp(f16_d ? domain::fp_to_double(domain::FpFormat::f16, row[n] & 0xffff) : domain::bits_to_f32(row[n]), scale_d);
      for (unsigned k = 0; k < K; ++k) acc += A[m * K + k] * B[k * N + n];
      tcgen05_results_.push_back({row + n, round_accumulator(acc, f16_d)});  // 16-bit D: the cell's low half (9.7.16.10.4.1)
    }
  }
}

}  // namespace ptx::interp

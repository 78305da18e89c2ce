// The PTX ISA 9.0 pseudo-code of bfe, bfi, shf and prmt transcribed into Z3 bit-vector terms, as the
// independent side of the instruction identities (the other side is semantics/ops over the z3 domain).
#pragma once

#include <z3++.h>

namespace ptxcheck::proofs::spec {

// ISA 9.7.1.19 bfe: width 32 or 64; `is_signed` for .s32/.s64; b, c are 32-bit.
z3::expr bfe(const z3::expr& a, const z3::expr& b, const z3::expr& c, bool is_signed);
// ISA 9.7.1.20 bfi: f = b with a's low bits inserted at c for d bits; c, d are 32-bit.
z3::expr bfi(const z3::expr& a, const z3::expr& b, const z3::expr& c, const z3::expr& d);
// ISA 9.7.8.7 shf.{l,r}.{clamp,wrap}.b32 (32-bit a, b, c).
z3::expr shf(const z3::expr& a, const z3::expr& b, const z3::expr& c, bool left, bool clamp);
// ISA 9.7.9.7 prmt.b32{.mode}: mode 0 = generic, 1..6 = f4e, b4e, rc8, ecl, ecr, rc16 (table rows).
z3::expr prmt(const z3::expr& a, const z3::expr& b, const z3::expr& c, int mode);

// ISA 9.7.9.6 shfl.sync.{up,down,bfly,idx} (mode 0..3): the lane j a thread copies from and pval, for the thread's
// lane (5-bit) and the 32-bit b and c. Arithmetic on mathematical integers, as the pseudo-code writes it.
struct ShflSource {
  z3::expr j, pval;  // j an Int in 0..31, pval a Bool
};
ShflSource shfl_sync(const z3::expr& lane, const z3::expr& b, const z3::expr& c, int mode);

}  // namespace ptxcheck::proofs::spec

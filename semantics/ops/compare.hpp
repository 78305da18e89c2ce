// Comparison and selection (ISA 9.7.6): setp/set integer and float comparisons, selp, slct, and the boolean
// combination of setp's optional third predicate. Written once over a value domain D; results are 1-bit.
#pragma once

#include "semantics/ir/types.hpp"
#include "semantics/ops/float.hpp"
#include "semantics/ops/integer.hpp"

namespace ptx::ops {

using ir::BoolOp;
using ir::CompareOp;

// 9.7.6.1 integer comparisons: eq ne; lt le gt ge (signed or unsigned per the type); lo ls hi hs (unsigned).
template <class D> Val<D> compare_int(const D& d, CompareOp op, bool is_signed, const Val<D>& a, const Val<D>& b) {
  auto lt = [&](const Val<D>& x, const Val<D>& y) { return is_signed ? d.slt(x, y) : d.ult(x, y); };
  auto le = [&](const Val<D>& x, const Val<D>& y) { return is_signed ? d.sle(x, y) : d.ule(x, y); };
  switch (op) {
    case CompareOp::eq: return d.eq(a, b);
    case CompareOp::ne: return d.ne(a, b);
    case CompareOp::lt: return lt(a, b);
    case CompareOp::le: return le(a, b);
    case CompareOp::gt: return lt(b, a);
    case CompareOp::ge: return le(b, a);
    case CompareOp::lo: return d.ult(a, b);
    case CompareOp::ls: return d.ule(a, b);
    case CompareOp::hi: return d.ult(b, a);
    case CompareOp::hs: return d.ule(b, a);
    default: return d.boolean(false);  // float-only operators are rejected by the caller
  }
}

// 9.7.6.1 float comparisons: ordered ops are false when either operand is NaN; the `u` forms are true then;
// num = both numbers, nan = either NaN.
template <class D> Val<D> compare_float(const D& d, domain::FpFormat f, CompareOp op, const Val<D>& a, const Val<D>& b) {
  Val<D> un = d.bor(d.fisnan(f, a), d.fisnan(f, b));
  Val<D> lt = d.flt(f, a, b), gt = d.flt(f, b, a), eq = d.feq(f, a, b);
  auto ordered = [&](const Val<D>& r) { return d.band(r, d.bnot(un)); };
  switch (op) {
    case CompareOp::eq: return eq;
    case CompareOp::ne: return ordered(d.bnot(eq));
    case CompareOp::lt: return lt;
    case CompareOp::le: return d.bor(lt, eq);
    case CompareOp::gt: return gt;
    case CompareOp::ge: return d.bor(gt, eq);
    case CompareOp::equ: return d.bor(un, eq);
    case CompareOp::neu: return d.bnot(eq);
    case CompareOp::ltu: return d.bor(un, lt);
    case CompareOp::leu: return d.bor(un, d.bor(lt, eq));
    case CompareOp::gtu: return d.bor(un, gt);
    case CompareOp::geu: return d.bor(un, d.bor(gt, eq));
    case CompareOp::num: return d.bnot(un);
    case CompareOp::nan: return un;
    default: return d.boolean(false);
  }
}

// setp's `.bop` with the optional predicate c (ISA 9.7.6.2): p = cmp BOP c, q = !cmp BOP c.
template <class D> Val<D> combine(const D& d, BoolOp op, const Val<D>& x, const Val<D>& c) {
  switch (op) {
    case BoolOp::and_: return d.band(x, c);
    case BoolOp::or_: return d.bor(x, c);
    case BoolOp::xor_: return d.bxor(x, c);
  }
  return x;
}

// 9.7.6.3 selp: d = c ? a : b.  9.7.6.4 slct: d = (c >= 0) ? a : b (c is .s32 or .f32; -0.0 counts as >= 0).
template <class D> Val<D> selp(const D& d, const Val<D>& a, const Val<D>& b, const Val<D>& c) { return d.ite(c, a, b); }
template <class D> Val<D> slct(const D& d, bool c_is_float, bool ftz, const Val<D>& a, const Val<D>& b, const Val<D>& c) {
  if (!c_is_float) return d.ite(d.sle(d.lit(32, 0), c), a, b);
  Val<D> cc = ftz ? flush_subnormal(d, domain::FpFormat::f32, c) : c;
  Val<D> ge = d.bor(d.bnot(d.flt(domain::FpFormat::f32, cc, d.lit(32, 0))), d.fisnan(domain::FpFormat::f32, cc));
  // NaN: the ISA leaves it open; the comparison c >= 0 is false for NaN.
  return d.ite(d.band(ge, d.bnot(d.fisnan(domain::FpFormat::f32, cc))), a, b);
}

}  // namespace ptx::ops

#include "checker/race/difference.hpp"

#include <functional>
#include <map>
#include <string>
#include <unordered_map>

namespace ptxcheck::race {

z3::expr sign_extended_difference(const z3::expr& x, const z3::expr& y, const z3::expr& d, unsigned extra) {
  z3::context& c = x.ctx();
  const unsigned w = x.get_sort().bv_size(), wide = w + extra;
  const z3::expr zero = c.bv_val(0, w);
  // x - y wraps around in w bits exactly when the signs of x and y differ and the result's sign is not x's
  // (ISA 9.7.1.2 sub.s); the true difference is then 2^w more (x >= 0) or less (x < 0) than the wrapped one.
  const z3::expr wraps = (x < zero) != (y < zero) && ((x - y) < zero) != (x < zero);
  const z3::expr wrap = z3::ite(wraps, z3::ite(x < zero, c.bv_val(-1, wide), c.bv_val(1, wide)), c.bv_val(0, wide));
  return z3::sext(d, extra) + z3::shl(wrap, c.bv_val(w, wide));
}
z3::expr zero_extended_difference(const z3::expr& x, const z3::expr& y, const z3::expr& d, unsigned extra) {
  z3::context& c = x.ctx();
  const unsigned w = x.get_sort().bv_size(), wide = w + extra;
  // Unsigned x - y wraps around exactly when x < y, and is then 2^w more than the true difference.
  return z3::zext(d, extra) - z3::ite(z3::ult(x, y), z3::shl(c.bv_val(1, wide), c.bv_val(w, wide)), c.bv_val(0, wide));
}

z3::expr concatenation_difference(const z3::expr& x, const z3::expr& y, const z3::expr& high_difference, const z3::expr& low_difference) {
  const unsigned low = x.arg(1).get_sort().bv_size(), w = x.get_sort().bv_size();
  const z3::expr high = z3::concat(high_difference, x.ctx().bv_val(0, low));
  if (z3::eq(x.arg(1), y.arg(1))) return high;
  return high + zero_extended_difference(x.arg(1), y.arg(1), low_difference, w - low);
}

std::vector<z3::expr> product_facts(const z3::expr& n, const z3::expr& d, const z3::expr& p) {
  z3::context& c = n.ctx();
  const unsigned w = n.get_sort().bv_size();
  const z3::expr zero = c.bv_val(0, w);
  std::vector<z3::expr> facts{z3::implies(d == zero, p == zero)};
  if (w < 8 || w > 64) return facts;
  for (unsigned eighths = 2; eighths <= 6; ++eighths) {
    const unsigned k = w * eighths / 8, m = w - 2 - k;  // n < 2^k and |d| < 2^m: |n * d| < 2^(w - 2)
    const z3::expr n_small = n > zero && z3::ult(n, c.bv_val(std::uint64_t{1} << k, w));
    const z3::expr d_bound = c.bv_val(std::uint64_t{1} << m, w);
    facts.push_back(z3::implies(n_small && d > zero && d < d_bound, p >= n));  // (the order proofs/race.cpp uses)
    facts.push_back(z3::implies(n_small && d < zero && d > -d_bound, p <= -n));
  }
  return facts;
}

namespace {

// A term's shape: its structure with the thread prefixes of symbols dropped, so that one instruction's value in
// two threads has one shape. Only used to pair up the arguments of sums and products; any pairing is exact.
class Shapes {
 public:
  std::size_t of(const z3::expr& e) {
    if (auto it = memo_.find(e.id()); it != memo_.end()) return it->second;
    std::size_t h = 0;
    auto mix = [&h](std::size_t v) { h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2); };
    if (e.is_numeral()) {
      mix(std::hash<std::string>{}(e.to_string()));
    } else if (e.is_const()) {
      std::string name = e.decl().name().str();
      if (name.rfind("t1.", 0) == 0 || name.rfind("t2.", 0) == 0) name.erase(0, 3);
      mix(std::hash<std::string>{}(name));
    } else if (e.is_app()) {
      mix(static_cast<std::size_t>(e.decl().decl_kind()));
      for (unsigned k = 0; k < e.num_args(); ++k) mix(of(e.arg(k)));
    }
    memo_.emplace(e.id(), h);
    return h;
  }

 private:
  std::unordered_map<unsigned, std::size_t> memo_;
};

class Differencer {
 public:
  explicit Differencer(z3::context& c) : c_(c) {}

  z3::expr diff(const z3::expr& x, const z3::expr& y) {
    const unsigned w = x.get_sort().bv_size();
    if (z3::eq(x, y)) return c_.bv_val(0, w);
    if (x.is_app() && y.is_app() && x.decl().decl_kind() == y.decl().decl_kind() && !x.is_const() && !y.is_const()) {
      const Z3_decl_kind kind = x.decl().decl_kind();
      switch (kind) {
        case Z3_OP_BADD: {  // (x1 + x2 + ...) - (y1 + y2 + ...) = (x1 - y1) + (x2 - y2) + ...
          // Two instructions' addresses may differ in their number of terms (`[%rd48+384]` beside `[%rd48]`):
          // the terms without a partner are added or subtracted alone.
          const Pairing p = paired_arguments(x, y);
          z3::expr sum = c_.bv_val(0, w);
          for (const auto& [a, b] : p.pairs) sum = sum + diff(a, b);
          for (const z3::expr& a : p.x_alone) sum = sum + a;
          for (const z3::expr& b : p.y_alone) sum = sum - b;
          return sum;
        }
        case Z3_OP_BMUL: {  // k*x1 - k*y1 = k*(x1 - y1) for the common factors k, when one factor differs
          const Pairing p = paired_arguments(x, y);
          if (!p.x_alone.empty() || !p.y_alone.empty()) break;
          std::optional<z3::expr> common;
          std::optional<std::pair<z3::expr, z3::expr>> differing;
          bool symbolic_common = false, more_than_one = false;
          for (const auto& [a, b] : p.pairs) {
            if (z3::eq(a, b)) {
              common = common ? *common * a : a;
              symbolic_common = symbolic_common || !a.is_numeral();
            } else if (differing) {
              more_than_one = true;
            } else {
              differing.emplace(a, b);
            }
          }
          if (more_than_one || !differing || !common) break;
          const z3::expr d = diff(differing->first, differing->second);
          if (!symbolic_common) return *common * d;
          // The product as a fresh value with what is known of it (product_facts): the solver reasons about
          // it without a multiplier circuit.
          factored_ = true;
          const z3::expr product = fresh("product", w);
          for (const z3::expr& fact : product_facts(*common, d, product)) facts_.push_back(fact);
          return product;
        }
        case Z3_OP_BSHL:  // (x << s) - (y << s) = (x - y) << s
          if (z3::eq(x.arg(1), y.arg(1))) return z3::shl(diff(x.arg(0), y.arg(0)), x.arg(1));
          break;
        case Z3_OP_BNEG: return -diff(x.arg(0), y.arg(0));
        case Z3_OP_EXTRACT:  // the low bits of a difference depend only on the low bits
          if (Z3_get_decl_int_parameter(c_, x.decl(), 1) == 0 && Z3_get_decl_int_parameter(c_, y.decl(), 1) == 0 &&
              x.arg(0).get_sort().bv_size() == y.arg(0).get_sort().bv_size())
            return diff(x.arg(0), y.arg(0)).extract(w - 1, 0);
          break;
        case Z3_OP_SIGN_EXT: case Z3_OP_ZERO_EXT: case Z3_OP_CONCAT: {
          auto ex = extension_of(x), ey = extension_of(y);
          if (ex && ey && ex->is_signed == ey->is_signed && ex->narrow.get_sort().bv_size() == ey->narrow.get_sort().bv_size()) {
            const z3::expr d = diff(ex->narrow, ey->narrow);
            const unsigned extra = w - ex->narrow.get_sort().bv_size();
            return ex->is_signed ? sign_extended_difference(ex->narrow, ey->narrow, d, extra) : zero_extended_difference(ex->narrow, ey->narrow, d, extra);
          }
          // concat(h, l) is h * 2^n + zext(l) (n the width of l): the simplifier's form of a shift left (l = 0).
          if (kind != Z3_OP_CONCAT || x.num_args() != 2 || y.num_args() != 2 || x.arg(1).get_sort().bv_size() != y.arg(1).get_sort().bv_size()) break;
          return concatenation_difference(x, y, diff(x.arg(0), y.arg(0)), diff(x.arg(1), y.arg(1)));
        }
        default: break;
      }
    }
    return x - y;
  }

  std::vector<z3::expr> facts_;
  bool factored_ = false;

 private:
  // The arguments of two applications of one associative-commutative operation paired by shape (the simplifier
  // orders them by term id, which differs between the threads), then by head, then in order (any pairing is
  // exact); where one side has more arguments, its last ones stay alone.
  struct Pairing {
    std::vector<std::pair<z3::expr, z3::expr>> pairs;
    std::vector<z3::expr> x_alone, y_alone;
  };
  Pairing paired_arguments(const z3::expr& x, const z3::expr& y) {
    std::multimap<std::size_t, z3::expr> ys;
    for (unsigned k = 0; k < y.num_args(); ++k) ys.emplace(shapes_.of(y.arg(k)), y.arg(k));
    Pairing p;
    std::vector<z3::expr> unmatched;
    for (unsigned k = 0; k < x.num_args(); ++k) {
      auto it = ys.find(shapes_.of(x.arg(k)));
      if (it == ys.end()) {
        unmatched.push_back(x.arg(k));
        continue;
      }
      p.pairs.emplace_back(x.arg(k), it->second);
      ys.erase(it);
    }
    // Then by head (`4 * sext(row * n + col)` with `4 * sext(row * n + ite(...))`: a common factor to take out).
    std::multimap<std::size_t, z3::expr> y_heads;
    for (const auto& [shape, b] : ys) y_heads.emplace(head_of(b), b);
    std::vector<z3::expr> headless;
    for (const z3::expr& a : unmatched) {
      auto it = y_heads.find(head_of(a));
      if (it == y_heads.end()) {
        headless.push_back(a);
        continue;
      }
      p.pairs.emplace_back(a, it->second);
      y_heads.erase(it);
    }
    auto rest = y_heads.begin();
    for (const z3::expr& a : headless) {
      if (rest == y_heads.end()) p.x_alone.push_back(a);
      else p.pairs.emplace_back(a, (rest++)->second);
    }
    for (; rest != y_heads.end(); ++rest) p.y_alone.push_back(rest->second);
    return p;
  }
  // The operation of a term with its number of arguments and its constant arguments.
  static std::size_t head_of(const z3::expr& e) {
    if (!e.is_app() || e.num_args() == 0) return 0;
    std::size_t h = static_cast<std::size_t>(e.decl().decl_kind()) * 31 + e.num_args();
    for (unsigned k = 0; k < e.num_args(); ++k)
      if (e.arg(k).is_numeral()) h = h * 1000003 + std::hash<std::string>{}(e.arg(k).to_string());
    return h;
  }
  // A sign or zero extension of a narrower value, as Z3 writes them: sign_extend / zero_extend, or a concatenation
  // of copies of the value's top bit, or of a zero, with the value.
  struct Extension {
    z3::expr narrow;
    bool is_signed;
  };
  std::optional<Extension> extension_of(const z3::expr& e) {
    const Z3_decl_kind kind = e.decl().decl_kind();
    if ((kind == Z3_OP_SIGN_EXT || kind == Z3_OP_ZERO_EXT) && Z3_get_decl_int_parameter(c_, e.decl(), 0) > 0)
      return Extension{e.arg(0), kind == Z3_OP_SIGN_EXT};
    if (kind != Z3_OP_CONCAT || e.num_args() < 2) return std::nullopt;
    const z3::expr narrow = e.arg(e.num_args() - 1);
    const unsigned top = narrow.get_sort().bv_size() - 1;
    if (e.num_args() == 2 && z3::eq(e.arg(0), c_.bv_val(0, e.arg(0).get_sort().bv_size()))) return Extension{narrow, false};
    for (unsigned k = 0; k + 1 < e.num_args(); ++k) {
      const z3::expr b = e.arg(k);
      if (!b.is_app() || b.decl().decl_kind() != Z3_OP_EXTRACT || !z3::eq(b.arg(0), narrow) ||
          Z3_get_decl_int_parameter(c_, b.decl(), 0) != static_cast<int>(top) || Z3_get_decl_int_parameter(c_, b.decl(), 1) != static_cast<int>(top))
        return std::nullopt;
    }
    return Extension{narrow, true};
  }
  z3::expr fresh(const char* what, unsigned bits) { return z3::expr(c_, Z3_mk_fresh_const(c_, what, c_.bv_sort(bits))); }

  z3::context& c_;
  Shapes shapes_;
};

}  // namespace

FactoredDifference factored_difference(const z3::expr& a1, const z3::expr& a2) {
  Differencer d(a1.ctx());
  z3::expr value = d.diff(a1, a2);
  return {value, std::move(d.facts_), d.factored_};
}

}  // namespace ptxcheck::race

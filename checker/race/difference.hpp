// The difference of two threads' addresses with their common factors taken out: a1 - a2 for a1 = n*r1 + c1 and
// a2 = n*r2 + c2 (n a kernel argument, r and c thread-dependent) as n*(r1 - r2) + (c1 - c2). Both forms are equal,
// but a bit-blasting solver cannot see that two products of a symbolic n are far apart: `row * n + col` with a
// symbolic n (every row-major matrix kernel) took Z3 over 100M resource units. Factored, the product n*(r1 - r2)
// becomes a fresh value with what is known of it (product_facts) and the query is decided in a second.
// check_kernel states the factored overlap beside the plain one; the fresh values can always take the real ones,
// so verdicts do not change, only the time to reach them.
#pragma once

#include <z3++.h>

#include <optional>
#include <vector>

namespace ptxcheck::race {

struct FactoredDifference {
  // Equal to a1 - a2 for some values of its fresh variables that satisfy `facts`: a product k*d of a common factor
  // is a fresh value with product_facts. A query with the difference added therefore has a model exactly when it
  // had one without (the fresh values take the real products).
  z3::expr value;
  std::vector<z3::expr> facts;
  bool factored = false;  // a product with a common non-constant factor was taken apart
};

// a1 - a2 (same width), factored where the two terms have the same shape (the same instruction's value in two
// threads: the symbols t1.* and t2.* pair up). Always exact; the `factored` flag says whether it differs usefully
// from the plain difference.
FactoredDifference factored_difference(const z3::expr& a1, const z3::expr& a2);

// The extension rules, one definition each (proofs/race.cpp proves them for every x, y): the extension of x minus
// that of y, given d = x - y in the narrow width (factored), adding back the 2^w the narrow subtraction wrapped
// around, which the comparisons of x and y tell without arithmetic beyond a subtraction. `extra` is the number
// of bits added.
z3::expr sign_extended_difference(const z3::expr& x, const z3::expr& y, const z3::expr& d, unsigned extra);
z3::expr zero_extended_difference(const z3::expr& x, const z3::expr& y, const z3::expr& d, unsigned extra);
// concat(h1, l1) - concat(h2, l2), given h1 - h2 and l1 - l2: (h1 - h2) * 2^n plus the zero-extended difference of
// the low parts (n bits wide); the simplifier writes a shift left as a concatenation with zeros.
z3::expr concatenation_difference(const z3::expr& x, const z3::expr& y, const z3::expr& high_difference, const z3::expr& low_difference);

// What holds of p = n * d (signed; each proved in proofs/race.cpp): d = 0 gives p = 0, and at widths w of 8 to 64
// bits, where 0 < n < 2^k and 0 < |d| < 2^(w - 2 - k) (k = w/4, 3w/8, ..., 3w/4), there is no wrap-around, so
// p >= n for a positive d and p <= -n for a negative one: products of a stride are at least a stride apart. The
// list is the zero fact, then per k the positive and the negative case.
std::vector<z3::expr> product_facts(const z3::expr& n, const z3::expr& d, const z3::expr& p);

}  // namespace ptxcheck::race

// Concrete sets and binary relations over the events of one execution graph (bit matrices), with the
// operators of the cat language. Used by the explicit evaluator and to build base relations.
#pragma once

#include <cstdint>
#include <vector>

namespace ptxcheck::mm {

class Set {
 public:
  Set() = default;
  explicit Set(int n) : n_(n), w_((n + 63) / 64, 0) {}
  int size() const { return n_; }
  bool has(int i) const { return (w_[i >> 6] >> (i & 63)) & 1; }
  void add(int i) { w_[i >> 6] |= std::uint64_t{1} << (i & 63); }
  Set& operator|=(const Set& o) { for (std::size_t i = 0; i < w_.size(); ++i) w_[i] |= o.w_[i]; return *this; }
  Set& operator&=(const Set& o) { for (std::size_t i = 0; i < w_.size(); ++i) w_[i] &= o.w_[i]; return *this; }
  Set& minus(const Set& o) { for (std::size_t i = 0; i < w_.size(); ++i) w_[i] &= ~o.w_[i]; return *this; }
  bool empty() const { for (auto x : w_) if (x) return false; return true; }
  static Set all(int n) { Set s(n); for (int i = 0; i < n; ++i) s.add(i); return s; }
  bool operator==(const Set& o) const { return w_ == o.w_; }

 private:
  int n_ = 0;
  std::vector<std::uint64_t> w_;
};

class Rel {
 public:
  Rel() = default;
  explicit Rel(int n) : n_(n), rows_(n, Set(n)) {}
  int size() const { return n_; }
  bool has(int a, int b) const { return rows_[a].has(b); }
  void add(int a, int b) { rows_[a].add(b); }
  const Set& row(int a) const { return rows_[a]; }

  Rel& operator|=(const Rel& o) { for (int i = 0; i < n_; ++i) rows_[i] |= o.rows_[i]; return *this; }
  Rel& operator&=(const Rel& o) { for (int i = 0; i < n_; ++i) rows_[i] &= o.rows_[i]; return *this; }
  Rel& minus(const Rel& o) { for (int i = 0; i < n_; ++i) rows_[i].minus(o.rows_[i]); return *this; }
  bool operator==(const Rel& o) const { return rows_ == o.rows_; }
  bool empty() const { for (auto& r : rows_) if (!r.empty()) return false; return true; }

  static Rel identity(int n) { Rel r(n); for (int i = 0; i < n; ++i) r.add(i, i); return r; }
  static Rel bracket(const Set& s) { Rel r(s.size()); for (int i = 0; i < s.size(); ++i) if (s.has(i)) r.add(i, i); return r; }
  static Rel cartesian(const Set& a, const Set& b) {
    Rel r(a.size());
    for (int i = 0; i < a.size(); ++i) if (a.has(i)) r.rows_[i] = b;
    return r;
  }
  Rel inverse() const { Rel r(n_); for (int a = 0; a < n_; ++a) for (int b = 0; b < n_; ++b) if (has(a, b)) r.add(b, a); return r; }
  Rel seq(const Rel& o) const {
    Rel r(n_);
    for (int a = 0; a < n_; ++a)
      for (int m = 0; m < n_; ++m)
        if (has(a, m)) r.rows_[a] |= o.rows_[m];
    return r;
  }
  Rel plus() const {  // Warshall
    Rel r = *this;
    for (int k = 0; k < n_; ++k)
      for (int a = 0; a < n_; ++a)
        if (r.has(a, k)) r.rows_[a] |= r.rows_[k];
    return r;
  }
  Rel star() const { Rel r = plus(); r |= identity(n_); return r; }
  Rel opt() const { Rel r = *this; r |= identity(n_); return r; }
  Rel complement() const {
    Rel r(n_);
    for (int a = 0; a < n_; ++a) for (int b = 0; b < n_; ++b) if (!has(a, b)) r.add(a, b);
    return r;
  }
  bool irreflexive() const { for (int i = 0; i < n_; ++i) if (has(i, i)) return false; return true; }
  bool acyclic() const { return plus().irreflexive(); }

 private:
  int n_ = 0;
  std::vector<Set> rows_;
};

}  // namespace ptxcheck::mm

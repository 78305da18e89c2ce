#include "litmus/enumerate/trace_selection.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

namespace ptxcheck::litmus {
namespace {
unsigned width_for(std::size_t k) {
  unsigned width = 1;
  while ((std::uint64_t{1} << width) < k) ++width;
  return width;
}
}  // namespace

Selection::Selection(z3::context& ctx, std::vector<const Trace*> traces, std::size_t thread,
                     std::vector<z3::expr>& constraints)
    : ctx_(&ctx), traces_(std::move(traces)) {
  const std::size_t k = traces_.size();
  if (k == 1) return;
  if (factor()) {
    for (std::size_t r = 0; r < reads_.size(); ++r) {
      const unsigned w = width_for(domain_[r].size());
      read_var_.push_back(ctx.bv_const(fmt::format("read!{}!{}", thread, reads_[r]).c_str(), w));
      constraints.push_back(z3::ule(read_var_.back(), ctx.bv_val(static_cast<std::uint64_t>(domain_[r].size() - 1), w)));
    }
    return;
  }
  const unsigned w = width_for(k);
  trace_var_ = ctx.bv_const(fmt::format("trace!{}", thread).c_str(), w);
  constraints.push_back(z3::ule(*trace_var_, ctx.bv_val(static_cast<std::uint64_t>(k - 1), w)));
}

// The traces are every combination of their reads' values exactly when each combination occurs once and
// their number is the product of the numbers of values per read.
bool Selection::factor() {
  const Trace& first = *traces_.front();
  std::vector<int> reads;
  for (std::size_t i = 0; i < first.events.size(); ++i)
    if (first.events[i].kind == EvKind::read &&
        std::any_of(traces_.begin(), traces_.end(), [&](const Trace* t) { return t->events[i].value != first.events[i].value; }))
      reads.push_back(static_cast<int>(i));
  if (reads.empty()) return false;
  std::vector<std::vector<std::int64_t>> domain(reads.size());
  for (std::size_t r = 0; r < reads.size(); ++r) {
    std::set<std::int64_t> vals;
    for (auto* t : traces_) vals.insert(t->events[reads[r]].value);
    domain[r].assign(vals.begin(), vals.end());
  }
  double combinations = 1;
  for (auto& d : domain) combinations *= static_cast<double>(d.size());
  if (combinations != static_cast<double>(traces_.size())) return false;
  std::vector<std::vector<std::uint32_t>> at;
  std::set<std::vector<std::uint32_t>> seen;
  for (auto* t : traces_) {
    std::vector<std::uint32_t> row;
    for (std::size_t r = 0; r < reads.size(); ++r) {
      auto& d = domain[r];
      row.push_back(static_cast<std::uint32_t>(std::lower_bound(d.begin(), d.end(), t->events[reads[r]].value) - d.begin()));
    }
    if (!seen.insert(row).second) return false;  // two traces, same read values: not a function of the reads
    at.push_back(std::move(row));
  }
  reads_ = std::move(reads);
  domain_ = std::move(domain);
  at_ = std::move(at);
  return true;
}

z3::expr Selection::selected(std::size_t j) const {
  if (traces_.size() == 1) return ctx_->bool_val(true);
  if (trace_var_) return *trace_var_ == ctx_->bv_val(static_cast<std::uint64_t>(j), trace_var_->get_sort().bv_size());
  z3::expr_vector all(*ctx_);
  for (std::size_t r = 0; r < reads_.size(); ++r)
    all.push_back(read_var_[r] == ctx_->bv_val(static_cast<std::uint64_t>(at_[j][r]), read_var_[r].get_sort().bv_size()));
  return z3::mk_and(all);
}

std::optional<Selection::Dependence> Selection::depends_on_one_read(const Of& f) const {
  if (!factored()) return std::nullopt;
  for (std::size_t r = 0; r < reads_.size(); ++r) {
    Dependence d{r, std::vector<std::int64_t>(domain_[r].size())};
    std::vector<bool> known(domain_[r].size(), false);
    bool ok = true;
    for (std::size_t j = 0; j < traces_.size() && ok; ++j) {
      const std::uint32_t i = at_[j][r];
      const std::int64_t v = f(*traces_[j]);
      if (!known[i]) known[i] = true, d.f_of[i] = v;
      else ok = d.f_of[i] == v;
    }
    if (ok) return d;
  }
  return std::nullopt;
}

std::set<std::int64_t> Selection::values(const Of& f) const {
  std::set<std::int64_t> out;
  for (auto* t : traces_) out.insert(f(*t));
  return out;
}

std::optional<z3::expr> Selection::is_value(const Of& f, std::int64_t v) const {
  const std::set<std::int64_t> vals = values(f);
  if (!vals.count(v)) return std::nullopt;
  if (vals.size() == 1) return ctx_->bool_val(true);
  z3::expr_vector any(*ctx_);
  if (auto d = depends_on_one_read(f)) {
    const unsigned w = read_var_[d->read].get_sort().bv_size();
    for (std::size_t i = 0; i < d->f_of.size(); ++i)
      if (d->f_of[i] == v) any.push_back(read_var_[d->read] == ctx_->bv_val(static_cast<std::uint64_t>(i), w));
    return z3::mk_or(any);
  }
  for (std::size_t j = 0; j < traces_.size(); ++j)
    if (f(*traces_[j]) == v) any.push_back(selected(j));
  return z3::mk_or(any);
}

z3::expr Selection::pick(const Of& f) const {
  const std::set<std::int64_t> vals = values(f);
  z3::expr out = ctx_->bv_val(static_cast<int64_t>(*vals.rbegin()), 64);
  for (auto it = std::next(vals.rbegin()); it != vals.rend(); ++it)
    out = z3::ite(*is_value(f, *it), ctx_->bv_val(static_cast<int64_t>(*it), 64), out);
  return out;
}

}  // namespace ptxcheck::litmus

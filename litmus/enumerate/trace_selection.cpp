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

std::set<std::int64_t> values_in(const Trace& tr, const Quantity& q) {
  const int k = tr.free.empty() ? -1 : q.free_read(tr);
  if (k < 0) return {q.of(tr)};
  const auto& vals = tr.free[static_cast<std::size_t>(k)].values;
  return {vals.begin(), vals.end()};
}

Selection::Selection(z3::context& ctx, std::vector<const Trace*> traces, std::size_t thread,
                     std::vector<z3::expr>& constraints)
    : ctx_(&ctx), traces_(std::move(traces)) {
  const std::size_t k = traces_.size();
  if (product()) {
    for (auto& f : traces_.front()->free) {
      reads_.push_back(f.event);
      domain_.push_back(f.values);
    }
  }
  if (product() || (k > 1 && factor())) {
    for (std::size_t r = 0; r < reads_.size(); ++r) {
      const unsigned w = width_for(domain_[r].size());
      read_var_.push_back(ctx.bv_const(fmt::format("read!{}!{}", thread, reads_[r]).c_str(), w));
      constraints.push_back(z3::ule(read_var_.back(), ctx.bv_val(static_cast<std::uint64_t>(domain_[r].size() - 1), w)));
    }
    return;
  }
  if (k == 1) return;
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

z3::expr Selection::read_is(std::size_t read, std::size_t index) const {
  return read_var_[read] == ctx_->bv_val(static_cast<std::uint64_t>(index), read_var_[read].get_sort().bv_size());
}

z3::expr Selection::selected(std::size_t j) const {
  if (traces_.size() == 1) return ctx_->bool_val(true);
  if (trace_var_) return *trace_var_ == ctx_->bv_val(static_cast<std::uint64_t>(j), trace_var_->get_sort().bv_size());
  z3::expr_vector all(*ctx_);
  for (std::size_t r = 0; r < reads_.size(); ++r) all.push_back(read_is(r, at_[j][r]));
  return z3::mk_and(all);
}

Trace Selection::chosen(const z3::model& m) const {
  if (!product()) {
    for (std::size_t j = 0; j < traces_.size(); ++j)
      if (m.eval(selected(j), true).is_true()) return *traces_[j];
    return *traces_.front();  // (unreachable: the range constraints select one)
  }
  Trace out = *traces_.front();
  out.free.clear();
  for (std::size_t r = 0; r < reads_.size(); ++r) {
    std::uint64_t index = 0;
    m.eval(read_var_[r], true).is_numeral_u64(index);
    const std::int64_t v = domain_[r][static_cast<std::size_t>(index)];
    out.events[static_cast<std::size_t>(reads_[r])].value = v;
    for (auto& reg : traces_.front()->free[r].regs) out.regs[reg] = v;
  }
  return out;
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

std::set<std::int64_t> Selection::values(const Quantity& q) const {
  std::set<std::int64_t> out;
  for (auto* t : traces_) {
    auto vs = values_in(*t, q);
    out.insert(vs.begin(), vs.end());
  }
  return out;
}

std::optional<z3::expr> Selection::is_value(const Quantity& q, std::int64_t v) const {
  const std::set<std::int64_t> vals = values(q);
  if (!vals.count(v)) return std::nullopt;
  if (vals.size() == 1) return ctx_->bool_val(true);
  if (product()) {  // more than one value: a free read gives it
    const auto r = static_cast<std::size_t>(q.free_read(*traces_.front()));
    const auto& d = domain_[r];
    return read_is(r, static_cast<std::size_t>(std::lower_bound(d.begin(), d.end(), v) - d.begin()));
  }
  z3::expr_vector any(*ctx_);
  if (auto d = depends_on_one_read(q.of)) {
    for (std::size_t i = 0; i < d->f_of.size(); ++i)
      if (d->f_of[i] == v) any.push_back(read_is(d->read, i));
    return z3::mk_or(any);
  }
  for (std::size_t j = 0; j < traces_.size(); ++j)
    if (q.of(*traces_[j]) == v) any.push_back(selected(j));
  return z3::mk_or(any);
}

z3::expr Selection::pick(const Quantity& q) const {
  const std::set<std::int64_t> vals = values(q);
  z3::expr out = ctx_->bv_val(static_cast<int64_t>(*vals.rbegin()), 64);
  for (auto it = std::next(vals.rbegin()); it != vals.rend(); ++it)
    out = z3::ite(*is_value(q, *it), ctx_->bv_val(static_cast<int64_t>(*it), 64), out);
  return out;
}

}  // namespace ptxcheck::litmus

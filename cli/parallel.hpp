// Runs body(0..n-1) on `jobs` threads; each index once. The caller keeps results in slots by index, so the output
// order never depends on which thread finished first.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <thread>
#include <vector>

namespace ptxcheck::cli {

template <typename Body>
void parallel_for(std::size_t n, unsigned jobs, Body body) {
  std::atomic<std::size_t> next{0};
  auto worker = [&]() {
    for (std::size_t i; (i = next.fetch_add(1)) < n;) body(i);
  };
  const std::size_t threads = std::min<std::size_t>(std::max(1u, jobs), n);
  if (threads <= 1) { worker(); return; }
  std::vector<std::thread> pool;
  for (std::size_t t = 0; t < threads; ++t) pool.emplace_back(worker);
  for (auto& t : pool) t.join();
}

}  // namespace ptxcheck::cli

// mbarrier object states as integers, and their transitions (mbarrier_counter.hpp).
#include "litmus/build/mbarrier_counter.hpp"

namespace ptxcheck::litmus {
namespace {
// 9.7.13.15.2: pending arrivals lie in [0, 2^20 - 1], tx-count in [-(2^20 - 1), 2^20 - 1].
constexpr std::int64_t kMaxCount = (1 << 20) - 1;
constexpr std::int64_t kTxUnit = std::int64_t{1} << 32;    // phase * N + arrived stays below 2^31 (checked)
constexpr std::int64_t kFullFlag = std::int64_t{1} << 60;  // above any |base + 2^32 * tx| (< 2^53)

std::int64_t floor_div(std::int64_t a, std::int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }
}  // namespace

std::int64_t encode_mbarrier(const MbarrierState& s, std::int64_t expected) {
  const bool full = s.arrived == expected;
  return s.phase * expected + (full ? 0 : s.arrived) + kTxUnit * s.tx + (full ? kFullFlag : 0);
}

MbarrierState decode_mbarrier(std::int64_t value, std::int64_t expected) {
  const bool full = value >= kFullFlag / 2;
  const std::int64_t rest = value - (full ? kFullFlag : 0);
  MbarrierState s;
  s.tx = floor_div(rest + kTxUnit / 2, kTxUnit);
  const std::int64_t base = rest - kTxUnit * s.tx;
  s.phase = base / expected;
  s.arrived = full ? expected : base % expected;
  return s;
}

std::string describe_mbarrier(std::int64_t value, std::int64_t expected) {
  const MbarrierState s = decode_mbarrier(value, expected);
  if (s.tx == 0 && s.arrived < expected) return std::to_string(value);
  return std::to_string(value) + " (phase " + std::to_string(s.phase) + ", pending " + std::to_string(expected - s.arrived) +
         ", tx-count " + std::to_string(s.tx) + ")";
}

std::optional<std::int64_t> mbarrier_after(std::int64_t value, std::int64_t expected, const MbarrierChange& change,
                                           std::string& why) {
  MbarrierState s = decode_mbarrier(value, expected);
  s.tx += change.expect - change.complete;
  if (s.tx > kMaxCount || s.tx < -kMaxCount)
    return why = "tx-count " + std::to_string(s.tx) + " may leave [-(2^20 - 1), 2^20 - 1] (undefined, ISA 9.7.13.15.2)", std::nullopt;
  s.arrived += change.arrivals;
  if (change.arrivals < 0 || s.arrived > expected)
    return why = "an arrive count of " + std::to_string(change.arrivals) +
                 " may exceed the pending count (undefined, ISA 9.7.13.15.2)", std::nullopt;
  if (s.arrived == expected && s.tx == 0) {
    if (change.arrivals == 0 && change.complete == 0)
      return why = "an expect-tx may bring tx-count to zero with no arrival pending: ISA 9.7.13.15.5.1 gives expect-tx no "
                   "phase-completion step (9.7.13.15.5.2 and .7 give complete-tx and arrive-on one), so whether the phase "
                   "completes is not stated",
             std::nullopt;
    ++s.phase;  // 9.7.13.15.6: the next phase starts with the expected arrival count pending
    s.arrived = 0;
  }
  if (s.phase * expected + expected >= kTxUnit / 2) return why = "too many mbarrier phases for the litmus engine", std::nullopt;
  return encode_mbarrier(s, expected);
}

}  // namespace ptxcheck::litmus

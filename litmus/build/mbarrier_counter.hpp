// The value the litmus engine keeps in an mbarrier object's location (memmodel/models/NOTES.md, "mbarrier"): the
// object's state (ISA 9.7.13.15.2: the current phase, the pending arrival count, the tx-count) as one integer, and
// the state change of each operation on it (9.7.13.15.5-.7), so that every operation is a read, or an RMW pair
// whose written value is a function of the value read.
//
// Encoding, for expected count N: phase * N + arrived + 2^32 * tx + 2^60 * full. `arrived` = N - pending; `full`
// marks a phase whose arrivals are all in (pending 0) but which has not completed because tx-count is not zero
// (9.7.13.15.6), stored with arrived 0 so that it differs from the next phase's start. A program that never
// touches tx-count keeps tx 0 and never sets `full`, so the value is the number of arrivals since the init.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace ptxcheck::litmus {

struct MbarrierState {
  std::int64_t phase = 0;    // the current, incomplete phase (9.7.13.15.4)
  std::int64_t arrived = 0;  // arrivals in it: expected - pending, in [0, N]
  std::int64_t tx = 0;       // tx-count, in [-(2^20 - 1), 2^20 - 1] (9.7.13.15.2)
};

std::int64_t encode_mbarrier(const MbarrierState& s, std::int64_t expected);
MbarrierState decode_mbarrier(std::int64_t value, std::int64_t expected);

// How reports print an object's value: the number itself while it is a plain arrival count (tx-count 0, not
// `full`), else "VALUE (phase P, pending K, tx-count T)".
std::string describe_mbarrier(std::int64_t value, std::int64_t expected);

// What one operation does to the object, in the order 9.7.13.15.13 gives for arrive.expect_tx: expect-tx
// (9.7.13.15.5.1) by `expect`, complete-tx (9.7.13.15.5.2) by `complete`, then an arrive-on (9.7.13.15.7) of
// `arrivals`.
struct MbarrierChange {
  std::int64_t expect = 0, complete = 0, arrivals = 0;
};

// The value after `change` on an object holding `value`; nullopt with `why` (naming the section) when the result
// is undefined (a count out of range, 9.7.13.15.2) or not stated by the spec (an expect-tx alone bringing tx-count
// to zero with no arrival pending: 9.7.13.15.5.1 lists no phase-completion step, unlike complete-tx and arrive-on).
std::optional<std::int64_t> mbarrier_after(std::int64_t value, std::int64_t expected, const MbarrierChange& change,
                                           std::string& why);

}  // namespace ptxcheck::litmus

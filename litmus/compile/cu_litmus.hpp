// A compiled litmus test (`FILE.cu.litmus`): herd-style header, initial values and condition, but each
// thread is a CUDA C++ snippet. parse_cu_litmus is the one entry point (X3 lives in cu_litmus_parse.cpp).
#pragma once

#include "semantics/support/diagnostic.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ptxcheck::litmus_compile {

struct CuThread {
  unsigned index = 0;        // P<index>
  std::string placement;     // `cta 0,gpu 0`, copied to the PTX test as written
  std::string body;          // CUDA statements
  std::uint32_t body_line = 0;  // line of the first body line in the .cu.litmus file
};

struct CuLitmus {
  std::string name, doc;
  std::vector<std::pair<std::string, std::int64_t>> init;  // shared locations, in order
  std::vector<CuThread> threads;
  std::string condition;  // `exists (P1:r0 == 1 /\ P1:r1 == 0)`, as written
};

struct CuLitmusParse {
  std::optional<CuLitmus> test;
  std::optional<Diagnostic> error;
};

// Syntax:
//   CUDA NAME
//   ["doc string"]
//   { x=0; y=0; }
//   P0@cta 0,gpu 0:
//     at<dev>(x).store(1, rlx);      // CUDA statements; `rN = ...` assigns thread register N
//   P1@cta 1,gpu 0:
//     r0 = at<dev>(y).load(acq);
//   exists (P1:r0 == 1)
CuLitmusParse parse_cu_litmus(const std::string& text, const std::string& file);

}  // namespace ptxcheck::litmus_compile

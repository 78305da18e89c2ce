# Instruction semantics (semantics/ops) over both domains: hand-computed values, the differential test of each
# operation, and the dispatcher (ops/execute.hpp) on every ISA 9.7 form of semantics/ir/isa_forms.def; what a
# memory instruction accesses (ops/memory_access.hpp) against the interpreter and the race encoder.
ptxcheck_unit_test(NAME semantics_ops
  SOURCES
    ${CMAKE_CURRENT_SOURCE_DIR}/unit/semantics_ops/test_ops_hand.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/unit/semantics_ops/test_video_hand.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/unit/semantics_ops/test_ops_differential.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/unit/semantics_ops/test_execute_forms.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/unit/semantics_ops/test_memory_access.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/unit/semantics_ops/test_effect.cpp
    ${CMAKE_SOURCE_DIR}/cli/coverage.cpp
  LIBS ptxcheck_domain ptxcheck_semantics ptxcheck_interp ptxcheck_race ptxcheck_litmus)

# Instruction semantics (semantics/ops) over both domains: hand-computed values and the differential test.
ptxcheck_unit_test(NAME semantics_ops
  SOURCES
    ${CMAKE_CURRENT_SOURCE_DIR}/unit/semantics_ops/test_ops_hand.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/unit/semantics_ops/test_ops_differential.cpp
  LIBS ptxcheck_domain ptxcheck_semantics)

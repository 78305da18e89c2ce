# The `.test` reader (NVIDIA's mixed-proxy litmus format) on hand-written snippets: AST, templates, located errors.
ptxcheck_unit_test(NAME litmus_nvtest
  SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/litmus_nvtest/test_nvtest.cpp
  LIBS ptxcheck_litmus)

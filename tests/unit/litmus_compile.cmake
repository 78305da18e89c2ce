ptxcheck_unit_test(NAME litmus_compile
  SOURCES
    ${CMAKE_CURRENT_SOURCE_DIR}/unit/litmus_compile/test_litmus_compile.cpp
  LIBS ptxcheck_litmus_compile)

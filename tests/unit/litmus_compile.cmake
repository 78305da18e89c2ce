ptxcheck_unit_test(NAME litmus_compile
  SOURCES
    ${CMAKE_CURRENT_SOURCE_DIR}/unit/litmus_compile/test_litmus_compile.cpp
  LIBS ptxcheck_litmus_compile)
# Every example of the compiled-litmus suite compiles with nvcc and lifts to a PTX litmus test.
add_test(NAME cli_compile_litmus COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/unit/litmus_compile/cli_compile_litmus.sh $<TARGET_FILE:ptxcheck> ${CMAKE_SOURCE_DIR})

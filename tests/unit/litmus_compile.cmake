ptxcheck_unit_test(NAME litmus_compile
  SOURCES
    ${CMAKE_CURRENT_SOURCE_DIR}/unit/litmus_compile/test_litmus_compile.cpp
  LIBS ptxcheck_litmus_compile)
# Every example of the compiled-litmus suite compiles with nvcc and lifts to a PTX litmus test.
add_test(NAME cli_compile_litmus COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/unit/litmus_compile/cli_compile_litmus.sh $<TARGET_FILE:ptxcheck> ${CMAKE_SOURCE_DIR})
# Outcome inclusion of the compiled suite (litmus_compile::check_compiled): under the project's ptx.cat (the
# default model of `ptxcheck litmus --compile`) and under the Dat3M reference model ptx-v7.5.cat.
if(TARGET ptxcheck_litmus AND EXISTS ${CMAKE_SOURCE_DIR}/litmus/driver.hpp)
  add_executable(compare_compiled ${CMAKE_CURRENT_SOURCE_DIR}/unit/litmus_compile/compare_compiled.cpp)
  target_link_libraries(compare_compiled PRIVATE ptxcheck_litmus_compile)
  target_compile_definitions(compare_compiled PRIVATE PTXCHECK_SOURCE_DIR="${CMAKE_SOURCE_DIR}")
  add_test(NAME compiled_litmus_ptx COMMAND compare_compiled ptx ${CMAKE_BINARY_DIR}/corpus-ptx)
  add_test(NAME compiled_litmus_v7_5 COMMAND compare_compiled
           ${PTXCHECK_CORPUS_DIR}/litmus-ptx/reference-models/ptx-v7.5.cat ${CMAKE_BINARY_DIR}/corpus-ptx)
endif()

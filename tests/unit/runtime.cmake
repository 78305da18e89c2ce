# The replacement CUDA runtime's pieces (semantics/runtime): fat-binary reading, device printf. Whole programs
# under `ptxcheck exec` are tested by tests/exec/exec.sh.
ptxcheck_unit_test(NAME runtime
  SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/runtime/test_fatbin.cpp ${CMAKE_CURRENT_SOURCE_DIR}/unit/runtime/test_printf.cpp
  LIBS ptxcheck_runtime_core)
if(TARGET ptxcheck_cudart)
  add_test(NAME exec_programs COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/exec/exec.sh $<TARGET_FILE:ptxcheck> ${CMAKE_CURRENT_SOURCE_DIR}/exec)
endif()
# The CuTe tutorials (NVIDIA CUTLASS) built and run under ptxcheck exec (tests/cute/cute.sh): N passed, N failed,
# N unsupported, with a floor on passed. nvcc builds each tutorial once per run (20-50 s each).
if(TARGET ptxcheck_cudart)
  add_test(NAME corpus_cute COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cute/cute.sh $<TARGET_FILE:ptxcheck> ${CMAKE_CURRENT_SOURCE_DIR}/cute ${PTXCHECK_CORPUS_DIR})
endif()

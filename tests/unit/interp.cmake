# The interpreter (semantics/interp): rendezvous, barriers, atomics, calls, memory checks, fast path == ops.
ptxcheck_unit_test(NAME interp
  SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/interp/test_interp.cpp
  LIBS ptxcheck_interp)
add_test(NAME cli_run COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/unit/interp/cli_run.sh $<TARGET_FILE:ptxcheck> ${CMAKE_SOURCE_DIR})

# memmodel: the cat front end, the symbolic evaluator against the explicit one, and both engines of the litmus
# enumerator on every litmus test (examples/litmus and the shared corpus).
ptxcheck_unit_test(NAME memmodel
  SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/memmodel/test_cat_parse.cpp
          ${CMAKE_CURRENT_SOURCE_DIR}/unit/memmodel/test_symbolic_eval.cpp
  LIBS ptxcheck_memmodel)
# Both litmus engines on every litmus test under ptx.cat and the two reference models (a few minutes).
ptxcheck_unit_test(NAME memmodel_engines
  SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/memmodel/test_engines_agree.cpp
  LIBS ptxcheck_litmus)
set_tests_properties(unit_memmodel_engines PROPERTIES TIMEOUT 1800)
# Barrier phases of the litmus engines (ISA 9.7.13.1), worked out by hand.
ptxcheck_unit_test(NAME litmus_barriers
  SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/memmodel/test_barrier_phases.cpp
  LIBS ptxcheck_litmus)
# A measuring tool (not a test): engine_times MODEL.cat JOBS symbolic|explicit FILE...
add_executable(engine_times ${CMAKE_CURRENT_SOURCE_DIR}/unit/memmodel/engine_times.cpp)
target_link_libraries(engine_times PRIVATE ptxcheck_litmus)

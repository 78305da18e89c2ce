# memmodel: the cat front end, the symbolic evaluator against the explicit one, and both engines of the litmus
# enumerator on every litmus test (examples/litmus and the shared corpus).
ptxcheck_unit_test(NAME memmodel
  SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/memmodel/test_cat_parse.cpp
          ${CMAKE_CURRENT_SOURCE_DIR}/unit/memmodel/test_symbolic_eval.cpp
          ${CMAKE_CURRENT_SOURCE_DIR}/unit/memmodel/test_scope_includes.cpp
  LIBS ptxcheck_memmodel)
# Both litmus engines on every litmus test under ptx.cat and the two reference models (a few minutes each):
# one CTest test per model, so that they run side by side.
add_executable(tests_memmodel_engines ${CMAKE_CURRENT_SOURCE_DIR}/unit/doctest_main.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/unit/memmodel/test_engines_agree.cpp)
target_link_libraries(tests_memmodel_engines PRIVATE doctest::doctest ptxcheck_litmus)
target_compile_definitions(tests_memmodel_engines PRIVATE
  PTXCHECK_CORPUS_DIR="${PTXCHECK_CORPUS_DIR}" PTXCHECK_SOURCE_DIR="${CMAKE_SOURCE_DIR}")
foreach(model ptx.cat ptx-v7.5.cat ptx-v6.0.cat)
  string(REPLACE ".cat" "" short ${model})
  string(REPLACE "." "_" short ${short})
  add_test(NAME unit_memmodel_engines_${short} COMMAND tests_memmodel_engines "--test-case=*${model}")
  # Exactly one test case runs and passes (a filter matching nothing would pass silently).
  set_tests_properties(unit_memmodel_engines_${short} PROPERTIES TIMEOUT 1200
    PASS_REGULAR_EXPRESSION "test cases: +1 \\| +1 passed \\| +0 failed")
endforeach()
# The litmus engine's mbarrier state value and its changes (ISA 9.7.13.15.5-.7), worked out by hand.
ptxcheck_unit_test(NAME litmus_mbarrier
  SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/memmodel/test_mbarrier_counter.cpp
  LIBS ptxcheck_litmus)
# Barrier phases of the litmus engines (ISA 9.7.13.1), worked out by hand.
ptxcheck_unit_test(NAME litmus_barriers
  SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/memmodel/test_barrier_phases.cpp
  LIBS ptxcheck_litmus)
# A measuring tool (not a test): engine_times MODEL.cat JOBS symbolic|explicit FILE...
add_executable(engine_times ${CMAKE_CURRENT_SOURCE_DIR}/unit/memmodel/engine_times.cpp)
target_link_libraries(engine_times PRIVATE ptxcheck_litmus)
# The litmus trace builder's compact traces (reads left free), against the traces listed one by one; its dialect's
# opcode words against the ISA's text and its refusal of the kinds of effect it does not run.
ptxcheck_unit_test(NAME litmus_traces
  SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/memmodel/test_compact_traces.cpp
          ${CMAKE_CURRENT_SOURCE_DIR}/unit/memmodel/test_dialect_words.cpp
  LIBS ptxcheck_litmus)
# ISA 8.5 scope inclusion against Table 21 by hand, and the litmus engines' reading of it (thread places, incl and
# sr, message passing at each scope); tests/unit/race/test_scope.cpp checks the race checker against the same table.
ptxcheck_unit_test(NAME litmus_scope
  SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/memmodel/test_scope.cpp
  LIBS ptxcheck_litmus)
# The litmus builder's bulk_group copies as operation threads with their issue and completion edges (ISA 8.9.1.1,
# 9.7.9.25.6), worked out by hand.
ptxcheck_unit_test(NAME litmus_bulk_group
  SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/memmodel/test_bulk_group_graph.cpp
  LIBS ptxcheck_litmus)

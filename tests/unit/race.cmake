ptxcheck_unit_test(NAME race
  SOURCES
    ${CMAKE_CURRENT_SOURCE_DIR}/unit/race/test_race.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/unit/race/test_assume.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/unit/race/test_difference.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/unit/race/test_dynamic.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/unit/race/test_dynamic_shadow.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/unit/race/test_dynamic_model.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/unit/race/test_differential.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/unit/race/test_model_rules.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/unit/race/test_flag_model.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/unit/race/test_grid_sync_model.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/unit/race/test_scope.cpp
  LIBS ptxcheck_race)
# The engines against each other on generated kernels (test_differential.cpp), a test of its own.
add_test(NAME race_differential COMMAND tests_race --no-skip "--test-case=differential:*")
add_test(NAME cli_race COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/unit/race/cli_race.sh $<TARGET_FILE:ptxcheck> ${CMAKE_SOURCE_DIR})
# Every budget holds (CPU, memory) on deliberately expensive kernels, measured from outside the process.
add_test(NAME race_budgets COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/unit/race/budgets.sh $<TARGET_FILE:ptxcheck> ${CMAKE_SOURCE_DIR})

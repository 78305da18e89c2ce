ptxcheck_unit_test(NAME race
  SOURCES
    ${CMAKE_CURRENT_SOURCE_DIR}/unit/race/test_race.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/unit/race/test_dynamic.cpp
  LIBS ptxcheck_race)
add_test(NAME cli_race COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/unit/race/cli_race.sh $<TARGET_FILE:ptxcheck> ${CMAKE_SOURCE_DIR})

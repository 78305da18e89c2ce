ptxcheck_unit_test(NAME abi
  SOURCES
    ${CMAKE_CURRENT_SOURCE_DIR}/unit/abi/test_abi.cpp
  LIBS ptxcheck_abi)

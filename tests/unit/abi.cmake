ptxcheck_unit_test(NAME abi
  SOURCES
    ${CMAKE_CURRENT_SOURCE_DIR}/unit/abi/test_abi.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/unit/abi/test_calling.cpp
  LIBS ptxcheck_abi)
ptxcheck_corpus_driver(NAME abi
  SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/abi/corpus_abi.cpp
  LIBS ptxcheck_abi
  ARGS ${PTXCHECK_CORPUS_DIR} ${CMAKE_BINARY_DIR}/corpus-ptx 2)
add_test(NAME cli_abi COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/unit/abi/cli_abi.sh $<TARGET_FILE:ptxcheck> ${CMAKE_SOURCE_DIR})

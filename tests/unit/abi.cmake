ptxcheck_unit_test(NAME abi
  SOURCES
    ${CMAKE_CURRENT_SOURCE_DIR}/unit/abi/test_abi.cpp
  LIBS ptxcheck_abi)
ptxcheck_corpus_driver(NAME abi
  SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/abi/corpus_abi.cpp
  LIBS ptxcheck_abi
  ARGS ${PTXCHECK_CORPUS_DIR} ${CMAKE_BINARY_DIR}/corpus-ptx 2)

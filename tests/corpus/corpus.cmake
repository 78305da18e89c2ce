# Corpus drivers (each prints 'N passed, N failed').
ptxcheck_corpus_driver(NAME parse
  SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/corpus/parse_driver.cpp
  LIBS ptxcheck_semantics
  ARGS ${PTXCHECK_CORPUS_DIR} ${CMAKE_BINARY_DIR}/corpus-ptx 2)
include(${CMAKE_CURRENT_SOURCE_DIR}/corpus/zluda.cmake)
include(${CMAKE_CURRENT_SOURCE_DIR}/corpus/race.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/litmus.cmake)

# Corpus drivers (each prints 'N passed, N failed').
ptxcheck_corpus_driver(NAME parse
  SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/corpus/parse_driver.cpp
  LIBS ptxcheck_semantics
  ARGS ${PTXCHECK_CORPUS_DIR} ${CMAKE_BINARY_DIR}/corpus-ptx 2)
include(${CMAKE_CURRENT_SOURCE_DIR}/corpus/zluda.cmake)
include(${CMAKE_CURRENT_SOURCE_DIR}/corpus/race.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/litmus.cmake)
# The drivers that compile the race corpora share one nvcc cache (corpus-ptx): the parse driver fills it
# first, so nvcc runs once per file in CI.
foreach(_t corpus_race corpus_abi)
  if(TEST ${_t})
    set_tests_properties(${_t} PROPERTIES DEPENDS corpus_parse)
  endif()
endforeach()
# NVIDIA's mixed-proxy `.test` files (litmus/parse/nvtest.hpp): every template instance against MANIFEST.tsv,
# the disputed row by the spec (tests/corpus/mixedproxy.sh). Floor: the measured pass count (128 of 128).
set(MIXEDPROXY_FLOOR 128)
add_test(NAME corpus_mixedproxy COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/corpus/mixedproxy.sh $<TARGET_FILE:ptxcheck>
         ${PTXCHECK_CORPUS_DIR} ${MIXEDPROXY_FLOOR})

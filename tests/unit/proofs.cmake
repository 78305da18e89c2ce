ptxcheck_unit_test(NAME proofs
  SOURCES
    ${CMAKE_CURRENT_SOURCE_DIR}/unit/proofs/test_spec_reference.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/unit/proofs/test_theorems.cpp
  LIBS ptxcheck_proofs)
add_test(NAME cli_prove COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/unit/proofs/cli_prove.sh $<TARGET_FILE:ptxcheck>)

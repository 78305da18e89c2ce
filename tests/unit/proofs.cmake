ptxcheck_unit_test(NAME proofs
  SOURCES
    ${CMAKE_CURRENT_SOURCE_DIR}/unit/proofs/test_spec_reference.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/unit/proofs/test_theorems.cpp
  LIBS ptxcheck_proofs)
# The memory-model theorems (proofs/model.cpp), each family its own test so CTest can run them in parallel.
add_test(NAME proofs_mapping COMMAND tests_proofs --no-skip "--test-case=*mapping theorems*")
add_test(NAME proofs_model COMMAND tests_proofs --no-skip "--test-case=*model theorems*")
add_test(NAME cli_prove COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/unit/proofs/cli_prove.sh $<TARGET_FILE:ptxcheck>)

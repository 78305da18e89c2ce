# ptx.cat on hand-built chapter-8 executions (explicit evaluator): the spec's answers.
ptxcheck_unit_test(NAME memmodel_spec
  SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/memmodel_spec/test_ptx_cat_chapter8.cpp
  LIBS ptxcheck_memmodel)

# memmodel: the cat front end, the symbolic evaluator against the explicit one, and both engines of the litmus
# enumerator on every litmus test (examples/litmus and the shared corpus).
ptxcheck_unit_test(NAME memmodel
  SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/memmodel/test_cat_parse.cpp
  LIBS ptxcheck_memmodel)

# spec_examples (issue 37): the Examples blocks of PTX ISA 9.7, read from the seeds at test time, through the
# parser and checker with a harness that adds the declarations they omit; fails below the recorded floor.
add_executable(spec_examples
  ${CMAKE_CURRENT_SOURCE_DIR}/unit/spec_examples/main.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/unit/spec_examples/extract.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/unit/spec_examples/infer.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/unit/spec_examples/harness.cpp)
target_link_libraries(spec_examples PRIVATE ptxcheck_semantics)
target_include_directories(spec_examples PRIVATE ${CMAKE_SOURCE_DIR})
add_test(NAME spec_examples COMMAND spec_examples ${PTXCHECK_SEEDS_DIR}/ptx-isa-9.0.txt
  ${CMAKE_CURRENT_SOURCE_DIR}/unit/spec_examples/floor.txt)

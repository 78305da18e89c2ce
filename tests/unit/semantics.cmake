ptxcheck_unit_test(NAME semantics
  SOURCES
    ${CMAKE_CURRENT_SOURCE_DIR}/unit/semantics/test_parse.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/unit/semantics/test_ir.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/unit/semantics/test_target_notes.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/unit/semantics/test_rounding_form.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/unit/semantics/test_operation_types.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/unit/semantics/test_mma_form.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/unit/semantics/test_async_forms.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/unit/semantics/test_syntax_forms.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/unit/semantics/test_load.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/unit/semantics/test_install_layout.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/unit/semantics/test_names.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/unit/semantics/test_solver.cpp
  LIBS ptxcheck_semantics)

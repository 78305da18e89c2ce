# The interpreter (semantics/interp): rendezvous, barriers, atomics, calls, memory checks; the fast path against
# semantics/ops on every form it takes (test_fast_path.cpp, the forms from fast_path_forms*.cpp).
ptxcheck_unit_test(NAME interp
  SOURCES
    ${CMAKE_CURRENT_SOURCE_DIR}/unit/interp/test_interp.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/unit/interp/test_warp_collectives.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/unit/interp/test_fast_path.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/unit/interp/fast_path_forms_int.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/unit/interp/fast_path_forms_move.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/unit/interp/fast_path_forms_float.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/unit/interp/fast_path_forms_memory.cpp
    ${CMAKE_SOURCE_DIR}/cli/coverage.cpp
  LIBS ptxcheck_interp ptxcheck_race ptxcheck_litmus)
add_test(NAME cli_run COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/unit/interp/cli_run.sh $<TARGET_FILE:ptxcheck> ${CMAKE_SOURCE_DIR})
# Bulk asynchronous copies (ISA 9.7.9.25.4-6) on data/bulk_copy.ptx.
ptxcheck_unit_test(NAME bulk_copy
  SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/interp/test_bulk_copy.cpp
  LIBS ptxcheck_interp)
# st.async, red.async (ISA 9.7.9.12, 9.7.13.7) and st.bulk (9.7.9.13) on data/async_store.ptx.
ptxcheck_unit_test(NAME async_store
  SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/interp/test_async_store.cpp
  LIBS ptxcheck_interp)
# clusterlaunchcontrol.try_cancel / query_cancel (ISA 9.7.13.17-18) on data/cluster_launch_control.ptx.
ptxcheck_unit_test(NAME cluster_launch_control
  SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/interp/test_cluster_launch_control.cpp
  LIBS ptxcheck_interp)
# wgmma (ISA 9.7.15): one warpgroup's products on hand-built descriptors against a host GEMM.
ptxcheck_unit_test(NAME wgmma
  SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/interp/test_wgmma.cpp
  LIBS ptxcheck_interp ptxcheck_race)
# mma.sync (ISA 9.7.14.5.14): one warp's dense products, fragments placed by the text's formulas, against a host GEMM.
ptxcheck_unit_test(NAME mma_sync
  SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/interp/test_mma_sync.cpp
  LIBS ptxcheck_interp)
# mma.sp (ISA 9.7.14.6): one warp's sparse products, A and metadata placed by the text's figures, against a host GEMM.
ptxcheck_unit_test(NAME mma_sparse
  SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/interp/test_mma_sparse.cpp
  LIBS ptxcheck_interp)
# wmma (ISA 9.7.14.4): whole-matrix products through wmma.load/mma/store against a host GEMM; stmatrix and
# movmatrix (9.7.14.5.16-17) against the text's figures.
ptxcheck_unit_test(NAME wmma
  SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/interp/test_wmma.cpp
  LIBS ptxcheck_interp)
# tcgen05 (ISA 9.7.16): Tensor Memory allocation, ld/st, tcgen05.mma on hand-built descriptors against a host GEMM.
ptxcheck_unit_test(NAME tcgen05
  SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/interp/test_tcgen05.cpp
  LIBS ptxcheck_interp ptxcheck_race)
# Instruction forms run from their sections' text: brx.idx (ISA 9.7.12.4), setmaxnreg (9.7.19.5), alloca /
# stacksave / stackrestore (9.7.17), atom.{cas,exch}.b128 (9.7.13.5), cvt to .tf32 (9.7.9.21).
ptxcheck_unit_test(NAME interp_forms
  SOURCES
    ${CMAKE_CURRENT_SOURCE_DIR}/unit/interp/test_setmaxnreg.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/unit/interp/test_brx.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/unit/interp/test_stack.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/unit/interp/test_atom_b128.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/unit/interp/test_cvt_tf32.cpp
  LIBS ptxcheck_interp)
# Textures and surfaces (ISA 9.7.10-9.7.11): tex / tld4 / txq / istypep / suld / sust / sured / suq on registries
# built by the test, against the Programming Guide's fetch formulas worked out by hand.
ptxcheck_unit_test(NAME texture
  SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/interp/test_texture.cpp
  LIBS ptxcheck_interp)

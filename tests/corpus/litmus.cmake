# litmus-ptx corpus: our ptx.cat against expected_ptx_v7_5, and the two reference models against their columns
# (each test in its own process with a 10 s budget: over it, the test is unknown), plus the front-end coverage
# of every file. Floors are the measured pass counts (see memmodel/models/NOTES.md for the failures).
set(_lm ${PTXCHECK_CORPUS_DIR}/litmus-ptx/reference-models)
include(${CMAKE_CURRENT_LIST_DIR}/litmus_floors.cmake)
foreach(cfg "ptx;ptx;expected_ptx_v7_5;LITMUS_FLOOR_PTX"
            "ref_v75;${_lm}/ptx-v7.5.cat;expected_ptx_v7_5;LITMUS_FLOOR_REF75"
            "ref_v60;${_lm}/ptx-v6.0.cat;expected_ptx_v6_0;LITMUS_FLOOR_REF60")
  list(GET cfg 0 _name)
  list(GET cfg 1 _model)
  list(GET cfg 2 _col)
  list(GET cfg 3 _floorvar)
  ptxcheck_corpus_driver(NAME litmus_${_name}
    SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/corpus/litmus_driver.cpp
    LIBS ptxcheck_litmus
    ARGS ${PTXCHECK_CORPUS_DIR} ${_model} ${_col} ${${_floorvar}} 2 10000)
endforeach()
# Front end: every file of the corpus parses and builds (measured 672 of 672 files).
set(LITMUS_FLOOR_PARSE 672)
add_test(NAME corpus_litmus_parse COMMAND corpus_litmus_ptx ${PTXCHECK_CORPUS_DIR} parse - ${LITMUS_FLOOR_PARSE})
# Liveness (docs/litmus-liveness.md) against the liveness columns: our ptx.cat and the reference models, each
# with its column (floors in litmus_floors.cmake: measured agreements; disagreements are listed).
add_test(NAME corpus_litmus_liveness COMMAND corpus_litmus_ptx ${PTXCHECK_CORPUS_DIR} ptx liveness_ptx_v7_5
         ${LITMUS_FLOOR_LIVE_PTX} 2 10000)
add_test(NAME corpus_litmus_liveness_ref_v75 COMMAND corpus_litmus_ptx ${PTXCHECK_CORPUS_DIR} ${_lm}/ptx-v7.5.cat
         liveness_ptx_v7_5 ${LITMUS_FLOOR_LIVE_REF75} 2 10000)
add_test(NAME corpus_litmus_liveness_ref_v60 COMMAND corpus_litmus_ptx ${PTXCHECK_CORPUS_DIR} ${_lm}/ptx-v6.0.cat
         liveness_ptx_v6_0 ${LITMUS_FLOOR_LIVE_REF60} 2 10000)

# The zluda-ptx execution corpus through the interpreter (ptxcheck run): prints the scoreboard, fails below
# the floor recorded in zluda_floor.txt.
ptxcheck_corpus_driver(NAME zluda
  SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/corpus/zluda_driver.cpp
  LIBS ptxcheck_interp nlohmann_json::nlohmann_json
  ARGS ${PTXCHECK_CORPUS_DIR} ${CMAKE_CURRENT_SOURCE_DIR}/corpus/zluda_floor.txt --seeds 3)

# Corpus driver for `ptxcheck race` (confusion matrices per race corpus; floors in race_floors.txt).
ptxcheck_corpus_driver(NAME race
  SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/corpus/race_driver.cpp
  LIBS ptxcheck_race
  ARGS ${PTXCHECK_CORPUS_DIR} ${CMAKE_BINARY_DIR}/corpus-ptx 2)

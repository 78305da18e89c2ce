# cmake --install: the executable, the replacement CUDA runtime for `ptxcheck exec`, and the data the
# executable reads at run time (semantics/support/install_layout.cpp finds it; docs/install.md):
#   <prefix>/bin/ptxcheck
#   <prefix>/lib/ptxcheck/libcudart.so.13          (when the CUDA headers were there to build it)
#   <prefix>/share/ptxcheck/memmodel/models/*.cat  (ptx.cat, sc.cat, scoped-c11.cat, NOTES.md)
#   <prefix>/share/ptxcheck/proofs/models/*.cat    (ptx-race.cat; its include ../../memmodel/models/ptx.cat holds)
#   <prefix>/share/doc/ptxcheck/                   (README.md, docs/install.md)
# The paths are fixed relative to <prefix> (not GNUInstallDirs' lib64 and the like): the executable finds its
# data and `exec` its runtime relative to bin/.
install(TARGETS ptxcheck RUNTIME DESTINATION bin COMPONENT ptxcheck)
if(TARGET ptxcheck_cudart)
  # Only libcudart.so.13: `exec` preloads it by that name; nothing links against it, so no libcudart.so link.
  install(TARGETS ptxcheck_cudart LIBRARY DESTINATION lib/ptxcheck NAMELINK_SKIP COMPONENT ptxcheck)
endif()
install(DIRECTORY ${CMAKE_SOURCE_DIR}/memmodel/models/ DESTINATION share/ptxcheck/memmodel/models
        COMPONENT ptxcheck FILES_MATCHING PATTERN "*.cat" PATTERN "*.md")
install(DIRECTORY ${CMAKE_SOURCE_DIR}/proofs/models/ DESTINATION share/ptxcheck/proofs/models
        COMPONENT ptxcheck FILES_MATCHING PATTERN "*.cat" PATTERN "*.md")
install(FILES ${CMAKE_SOURCE_DIR}/README.md ${CMAKE_SOURCE_DIR}/docs/install.md DESTINATION share/doc/ptxcheck
        COMPONENT ptxcheck)

# cpack -G DEB (from the build folder): ptxcheck_<version>_<arch>.deb holding what cmake/install.cmake
# installs, under /usr. The Depends line comes from dpkg-shlibdeps (packages dpkg-dev and file, in
# scripts/setup) run over the executable and the runtime library, so it names the Z3, fmt and zstd packages
# of the machine that built it.
set(CPACK_PACKAGE_NAME ptxcheck)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "ptxcheck")
set(CPACK_PACKAGE_CONTACT "ptxcheck maintainers <ptxcheck@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "formal semantics of NVIDIA PTX: parse, run, litmus, race, abi, prove")
set(CPACK_PACKAGE_INSTALL_DIRECTORY ptxcheck)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_GENERATOR DEB)
set(CPACK_DEBIAN_PACKAGE_NAME ptxcheck)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# The default build is RelWithDebInfo: unstripped, the executable and the runtime are 230 MB; stripped 8 MB (a 3.7 MB .deb).
set(CPACK_STRIP_FILES ON)
# lib/ptxcheck/libcudart.so.13 is a private library that `exec` preloads: no ldconfig trigger, no shlibs file.
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS OFF)
set(CPACK_SOURCE_IGNORE_FILES "/build/;/\\\\.git/")
include(CPack)

# cmake --install gives find_package(tensorbuf CONFIG), tensorbuf::tensorbuf and tensorbuf::c
# (the C API alone, no C++20 requirement: src/CMakeLists.txt).
#
# Every file belongs to an install COMPONENT, one per Debian package (cmake/TensorbufCPack.cmake):
# runtime (the shared libtensorbuf.so.*), dev (headers, the libtensorbuf.so link or
# libtensorbuf.a, tensorbuf.pc, the CMake package), mpi / mpi_dev and fortran / fortran_dev
# (the same split for tensorbuf::mpi and tensorbuf::tensorbuf_f), python, tools (the CLI).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(TARGETS tensorbuf tensorbuf_c EXPORT tensorbufTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT dev
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT runtime NAMELINK_COMPONENT dev
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT runtime)
install(DIRECTORY include/tensorbuf DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT dev
        PATTERN dist.hpp EXCLUDE)
install(EXPORT tensorbufTargets NAMESPACE tensorbuf::
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/tensorbuf COMPONENT dev)
# The package component `mpi` (tensorbuf::mpi), in its own export set so that only
# find_package(tensorbuf COMPONENTS mpi) looks for MPI.
if(TENSORBUF_WITH_MPI)
  install(TARGETS tensorbuf_mpi EXPORT tensorbufMpiTargets
          ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT mpi_dev
          LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT mpi NAMELINK_COMPONENT mpi_dev
          RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT mpi)
  install(FILES include/tensorbuf/dist.hpp DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/tensorbuf
          COMPONENT mpi_dev)
  install(EXPORT tensorbufMpiTargets NAMESPACE tensorbuf::
          DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/tensorbuf COMPONENT mpi_dev)
endif()
# Only a static libtensorbuf.a makes the consumer link the CUDA runtime (and so find the
# toolkit); a shared libtensorbuf.so has it inside.
get_target_property(_tensorbuf_install_type tensorbuf TYPE)
if(TENSORBUF_WITH_CUDA AND _tensorbuf_install_type STREQUAL "STATIC_LIBRARY")
  set(TENSORBUF_PACKAGE_WITH_CUDA ON)
else()
  set(TENSORBUF_PACKAGE_WITH_CUDA OFF)
endif()
configure_package_config_file(cmake/tensorbufConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/tensorbufConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/tensorbuf)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/tensorbufConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/tensorbufConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/tensorbufConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/tensorbuf COMPONENT dev)
include(cmake/TensorbufPkgConfig.cmake)

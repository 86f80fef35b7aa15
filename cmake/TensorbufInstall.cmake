# cmake --install gives find_package(tensorbuf CONFIG), tensorbuf::tensorbuf and tensorbuf::c
# (the C API alone, no C++20 requirement: src/CMakeLists.txt).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(TARGETS tensorbuf tensorbuf_c EXPORT tensorbufTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY include/tensorbuf DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        PATTERN dist.hpp EXCLUDE)
install(EXPORT tensorbufTargets NAMESPACE tensorbuf::
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/tensorbuf)
# The package component `mpi` (tensorbuf::mpi), in its own export set so that only
# find_package(tensorbuf COMPONENTS mpi) looks for MPI.
if(TENSORBUF_WITH_MPI)
  install(TARGETS tensorbuf_mpi EXPORT tensorbufMpiTargets
          ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
          LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
          RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  install(FILES include/tensorbuf/dist.hpp DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/tensorbuf)
  install(EXPORT tensorbufMpiTargets NAMESPACE tensorbuf::
          DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/tensorbuf)
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
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/tensorbuf)
include(cmake/TensorbufPkgConfig.cmake)

# pkg-config files for build systems without CMake (plain make, autotools, Meson):
# tensorbuf.pc always, tensorbuf-mpi.pc with tensorbuf::mpi, tensorbuf-fortran.pc with the
# Fortran module; installed to <libdir>/pkgconfig. Included by TensorbufInstall.cmake.
#
# Paths are relative to the .pc file (${pcfiledir}), so the files stay right wherever the
# install lands: `cmake --install --prefix`, DESTDIR, a package, a moved tree.
file(RELATIVE_PATH _tensorbuf_pc_up "/r/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/r")
string(REGEX REPLACE "/$" "" _tensorbuf_pc_up "${_tensorbuf_pc_up}")
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  set(TENSORBUF_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
  set(TENSORBUF_PC_LIBDIR "${CMAKE_INSTALL_LIBDIR}")
else()
  set(TENSORBUF_PC_PREFIX "\${pcfiledir}/${_tensorbuf_pc_up}")
  set(TENSORBUF_PC_LIBDIR "\${prefix}/${CMAKE_INSTALL_LIBDIR}")
endif()
if(IS_ABSOLUTE "${CMAKE_INSTALL_INCLUDEDIR}")
  set(TENSORBUF_PC_INCLUDEDIR "${CMAKE_INSTALL_INCLUDEDIR}")
else()
  set(TENSORBUF_PC_INCLUDEDIR "\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}")
endif()

# Libs: what every consumer links. Libs.private: what a static libtensorbuf.a needs besides
# (`pkg-config --static`): the C++ runtime (a C or Fortran driver does not add it) and, with
# CUDA, the static CUDA runtime and the system libraries it uses. A shared libtensorbuf.so
# carries its own dependencies (cudart_static is linked into it).
set(TENSORBUF_PC_WITH_CUDA no)
if(TENSORBUF_WITH_CUDA)
  set(TENSORBUF_PC_WITH_CUDA yes)
endif()
set(TENSORBUF_PC_LIBS "")
if(CMAKE_THREAD_LIBS_INIT)  # empty where threads are in libc (glibc 2.34+)
  string(APPEND TENSORBUF_PC_LIBS " ${CMAKE_THREAD_LIBS_INIT}")
endif()
get_target_property(_tensorbuf_pc_type tensorbuf TYPE)
if(_tensorbuf_pc_type STREQUAL "STATIC_LIBRARY")
  set(TENSORBUF_PC_LIBRARY_TYPE static)
  set(TENSORBUF_PC_LIBS_PRIVATE "")
  if(TENSORBUF_WITH_CUDA)
    string(APPEND TENSORBUF_PC_LIBS_PRIVATE
           " -L${CUDAToolkit_LIBRARY_DIR} -lcudart_static -ldl -lrt -lpthread")
  endif()
  string(APPEND TENSORBUF_PC_LIBS_PRIVATE " -lstdc++ -lm")
else()
  set(TENSORBUF_PC_LIBRARY_TYPE shared)
  set(TENSORBUF_PC_LIBS_PRIVATE "")
endif()
set(_tensorbuf_pc_dir ${CMAKE_CURRENT_BINARY_DIR}/pkgconfig)
configure_file(cmake/pkgconfig/tensorbuf.pc.in ${_tensorbuf_pc_dir}/tensorbuf.pc @ONLY)
install(FILES ${_tensorbuf_pc_dir}/tensorbuf.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig
        COMPONENT dev)

if(TENSORBUF_WITH_MPI)
  # tensorbuf-mpi.pc requires the MPI's own pkg-config module: ompi-cxx for Open MPI (its
  # mpi.h, included from C++, brings the C++ bindings, which libtensorbuf_mpi and its
  # consumers then reference: ompi-c is not enough), recognised from mpi.h. For another MPI the
  # include directories and libraries of the MPI that CMake found are written into the file;
  # -DTENSORBUF_PKGCONFIG_MPI=<module> names a module instead.
  if(NOT DEFINED TENSORBUF_PKGCONFIG_MPI)
    set(_tensorbuf_pc_mpi "")
    find_file(_tensorbuf_mpi_h mpi.h PATHS ${MPI_CXX_INCLUDE_DIRS} NO_DEFAULT_PATH)
    if(_tensorbuf_mpi_h)
      file(STRINGS ${_tensorbuf_mpi_h} _tensorbuf_mpi_kind REGEX "#define OMPI_MAJOR_VERSION ")
      if(_tensorbuf_mpi_kind)
        set(_tensorbuf_pc_mpi ompi-cxx)
      endif()
    endif()
    unset(_tensorbuf_mpi_h CACHE)
    set(TENSORBUF_PKGCONFIG_MPI "${_tensorbuf_pc_mpi}" CACHE STRING
        "pkg-config module of the MPI that tensorbuf-mpi.pc requires (empty: MPI's flags are written into it)")
  endif()
  set(TENSORBUF_PC_MPI_REQUIRES "")
  set(TENSORBUF_PC_MPI_CFLAGS "")
  set(TENSORBUF_PC_MPI_LIBS "")
  if(TENSORBUF_PKGCONFIG_MPI)
    set(TENSORBUF_PC_MPI_REQUIRES ", ${TENSORBUF_PKGCONFIG_MPI}")
  else()
    foreach(_flag IN LISTS MPI_CXX_COMPILE_OPTIONS)
      string(APPEND TENSORBUF_PC_MPI_CFLAGS " ${_flag}")
    endforeach()
    foreach(_def IN LISTS MPI_CXX_COMPILE_DEFINITIONS)
      string(APPEND TENSORBUF_PC_MPI_CFLAGS " -D${_def}")
    endforeach()
    foreach(_dir IN LISTS MPI_CXX_INCLUDE_DIRS)
      string(APPEND TENSORBUF_PC_MPI_CFLAGS " -I${_dir}")
    endforeach()
    foreach(_lib IN LISTS MPI_CXX_LINK_FLAGS MPI_CXX_LIBRARIES)
      string(APPEND TENSORBUF_PC_MPI_LIBS " ${_lib}")
    endforeach()
  endif()
  configure_file(cmake/pkgconfig/tensorbuf-mpi.pc.in ${_tensorbuf_pc_dir}/tensorbuf-mpi.pc @ONLY)
  install(FILES ${_tensorbuf_pc_dir}/tensorbuf-mpi.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig
          COMPONENT mpi_dev)
endif()

if(TENSORBUF_WITH_FORTRAN)
  configure_file(cmake/pkgconfig/tensorbuf-fortran.pc.in ${_tensorbuf_pc_dir}/tensorbuf-fortran.pc
                 @ONLY)
  install(FILES ${_tensorbuf_pc_dir}/tensorbuf-fortran.pc
          DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig COMPONENT fortran_dev)
endif()

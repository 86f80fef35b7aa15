# Debian packages with CPack (`cpack -G DEB` in a build tree; docs/packaging.md, ".deb"): one
# package per install COMPONENT (cmake/TensorbufInstall.cmake), made from a shared build
# configured with -DCMAKE_INSTALL_PREFIX=/usr (Debian's layout: lib/<multiarch>,
# lib/python3/dist-packages). scripts/check_deb.sh builds and checks them in CI.
#
# Only a shared build packages: a static one would give -dev packages of libtensorbuf.a and
# empty runtime packages (`cpack` then finds no CPackConfig.cmake).
#
# Descriptions: the first line is the synopsis (Debian policy 3.4.1).
#
# Names follow Debian's library policy: the runtime package is named after the soname,
# libtensorbuf.so.0.1 -> libtensorbuf0.1 (the issue's "libtensorbuf0" would claim ABI
# stability across 0.x releases that the soname does not promise).
get_target_property(_tb_type tensorbuf TYPE)
if(NOT _tb_type STREQUAL "SHARED_LIBRARY")
  return()
endif()
set(CPACK_PACKAGE_NAME tensorbuf)
set(CPACK_PACKAGE_VENDOR tensorbuf)
if(NOT CPACK_PACKAGE_CONTACT)
  set(CPACK_PACKAGE_CONTACT "tensorbuf maintainers <tensorbuf@localhost>")
endif()
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGING_INSTALL_PREFIX "${CMAKE_INSTALL_PREFIX}")
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # <package>_<version>-<release>_<arch>.deb
if(NOT CPACK_DEBIAN_PACKAGE_RELEASE)
  set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
endif()
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_STRIP_FILES ON)  # Debian policy 10.1: shipped binaries are stripped
# Depends on system libraries (libc6, libstdc++6, libgfortran5, libopenmpi3, ...) from
# dpkg-shlibdeps; on each other, exact versions below (dpkg-shlibdeps cannot know packages that
# are not installed). The build tree's libraries let it resolve libtensorbuf.so.0.1.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS ${PROJECT_BINARY_DIR}/src ${PROJECT_BINARY_DIR}/src/mpi
    ${PROJECT_BINARY_DIR}/fortran)
# A shlibs file (and ldconfig in postinst / postrm) in each runtime package, for packages built
# on it: "libtensorbuf 0.1 libtensorbuf0.1 (>= 0.1.0-1)". (CPack warns that the Python extension,
# a module without soname, is left out of python3-tensorbuf's: it has no shlibs to give.)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS_POLICY ">=")

set(_tb_version "${PROJECT_VERSION}-${CPACK_DEBIAN_PACKAGE_RELEASE}")
set(_tb_runtime "libtensorbuf${TENSORBUF_SOVERSION}")

set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME ${_tb_runtime})
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SECTION libs)
set(CPACK_DEBIAN_RUNTIME_DESCRIPTION "tensorbuf: C++20 tensor buffers and ops (shared library)
The library libtensorbuf.so.${TENSORBUF_SOVERSION}: typed host/device tensor buffers and
scatter_nd, boolean_mask, gather_nd, substr and processing ops, with a C API.")

set(CPACK_DEBIAN_DEV_PACKAGE_NAME libtensorbuf-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS "${_tb_runtime} (= ${_tb_version})")
set(CPACK_DEBIAN_DEV_DESCRIPTION "tensorbuf: development files
Headers (C API and C++20 API), the libtensorbuf.so link, tensorbuf.pc and the CMake
package (find_package(tensorbuf CONFIG): tensorbuf::tensorbuf, tensorbuf::c).")

set(CPACK_DEBIAN_MPI_PACKAGE_NAME libtensorbuf-mpi${TENSORBUF_SOVERSION})
set(CPACK_DEBIAN_MPI_PACKAGE_SECTION libs)
set(CPACK_DEBIAN_MPI_PACKAGE_DEPENDS "${_tb_runtime} (= ${_tb_version})")
set(CPACK_DEBIAN_MPI_DESCRIPTION "tensorbuf: distributed ops over MPI (shared library)
The library libtensorbuf_mpi.so.${TENSORBUF_SOVERSION} (tensorbuf::mpi).")

set(CPACK_DEBIAN_MPI_DEV_PACKAGE_NAME libtensorbuf-mpi-dev)
set(CPACK_DEBIAN_MPI_DEV_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_MPI_DEV_PACKAGE_DEPENDS
    "libtensorbuf-mpi${TENSORBUF_SOVERSION} (= ${_tb_version}), libtensorbuf-dev (= ${_tb_version}), libopenmpi-dev")
set(CPACK_DEBIAN_MPI_DEV_DESCRIPTION "tensorbuf: distributed ops over MPI (development files)
tensorbuf/dist.hpp, the libtensorbuf_mpi.so link, tensorbuf-mpi.pc and the CMake
package's component mpi (tensorbuf::mpi).")

# The .mod files are readable by one gfortran module format only: Debian's gfortran-N packages
# provide gfortran-mod-<format> (gfortran 12: 15).
set(TENSORBUF_DEB_FORTRAN_MOD "gfortran-mod-15" CACHE STRING
    "The Debian virtual package of the Fortran module format libtensorbuf-fortran-dev needs")
set(CPACK_DEBIAN_FORTRAN_PACKAGE_NAME libtensorbuf-fortran${TENSORBUF_SOVERSION})
set(CPACK_DEBIAN_FORTRAN_PACKAGE_SECTION libs)
set(CPACK_DEBIAN_FORTRAN_PACKAGE_DEPENDS "${_tb_runtime} (= ${_tb_version})")
set(CPACK_DEBIAN_FORTRAN_DESCRIPTION "tensorbuf: Fortran module tensorbuf_f (shared library)
The library libtensorbuf_f.so.${TENSORBUF_SOVERSION} (tensorbuf::tensorbuf_f).")

set(CPACK_DEBIAN_FORTRAN_DEV_PACKAGE_NAME libtensorbuf-fortran-dev)
set(CPACK_DEBIAN_FORTRAN_DEV_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_FORTRAN_DEV_PACKAGE_DEPENDS
    "libtensorbuf-fortran${TENSORBUF_SOVERSION} (= ${_tb_version}), libtensorbuf-dev (= ${_tb_version}), ${TENSORBUF_DEB_FORTRAN_MOD}")
set(CPACK_DEBIAN_FORTRAN_DEV_DESCRIPTION "tensorbuf: Fortran module tensorbuf_f (development files)
The .mod files of tensorbuf_c and tensorbuf_f, the libtensorbuf_f.so link,
tensorbuf-fortran.pc and the CMake target tensorbuf::tensorbuf_f.")

if(TENSORBUF_WITH_PYTHON)
  set(CPACK_DEBIAN_PYTHON_PACKAGE_NAME python3-tensorbuf)
  set(CPACK_DEBIAN_PYTHON_PACKAGE_SECTION python)
  # The extension is built for one Python minor version (its ABI tag): python3 of that version.
  math(EXPR _tb_python_next "${Python_VERSION_MINOR} + 1")
  set(CPACK_DEBIAN_PYTHON_PACKAGE_DEPENDS "${_tb_runtime} (= ${_tb_version}), python3 (>= ${Python_VERSION_MAJOR}.${Python_VERSION_MINOR}~), python3 (<< ${Python_VERSION_MAJOR}.${_tb_python_next}), python3-numpy")
  set(CPACK_DEBIAN_PYTHON_PACKAGE_SUGGESTS python3-torch)
  set(CPACK_DEBIAN_PYTHON_DESCRIPTION "tensorbuf: Python package
import tensorbuf: the ops on NumPy arrays, PyTorch tensors and DLPack producers,
in place on the caller's memory (docs/python.md).")
endif()

# The torch accelerator (component python_torch, python/torch_fast) in a package of its own: it
# is for the one torch it was built against, and the loader silently ignores it for any other,
# so it depends on that torch's Debian package at the same upstream version (any Debian
# revision: >= U and << U-z); libtorch's package comes from dpkg-shlibdeps. A torch that no
# Debian package installed (pip) gives no package at all.
get_cmake_property(_tb_components COMPONENTS)
if(python_torch IN_LIST _tb_components)
  get_property(_tb_torch_dir GLOBAL PROPERTY TENSORBUF_TORCH_PY_DIR)
  execute_process(COMMAND dpkg-query -S ${_tb_torch_dir}/__init__.py
                  OUTPUT_VARIABLE _tb_torch_owner ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
  string(REGEX REPLACE ":.*" "" _tb_torch_package "${_tb_torch_owner}")
  set(_tb_torch_version "")
  if(_tb_torch_package)
    execute_process(COMMAND dpkg-query -W -f=\${Version} ${_tb_torch_package}
                    OUTPUT_VARIABLE _tb_torch_version ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
  endif()
  if(_tb_torch_version)
    string(REGEX REPLACE "-[^-]*$" "" _tb_torch_upstream "${_tb_torch_version}")
    set(CPACK_DEBIAN_PYTHON_TORCH_PACKAGE_NAME python3-tensorbuf-torch)
    set(CPACK_DEBIAN_PYTHON_TORCH_PACKAGE_SECTION python)
    set(CPACK_DEBIAN_PYTHON_TORCH_PACKAGE_DEPENDS "python3-tensorbuf (= ${_tb_version}), ${_tb_torch_package} (>= ${_tb_torch_upstream}), ${_tb_torch_package} (<< ${_tb_torch_upstream}-z)")
    set(CPACK_DEBIAN_PYTHON_PACKAGE_SUGGESTS "${CPACK_DEBIAN_PYTHON_PACKAGE_SUGGESTS}, python3-tensorbuf-torch")
    set(CPACK_DEBIAN_PYTHON_TORCH_DESCRIPTION "tensorbuf: accelerator for PyTorch tensor arguments
The module tensorbuf._torch_fast, built for ${_tb_torch_package} ${_tb_torch_upstream}: reads torch
tensors in C++ (python3-tensorbuf reads them through Python without it).")
  else()
    message(STATUS "tensorbuf._torch_fast: no .deb (no Debian package installed the torch in ${_tb_torch_dir})")
    list(REMOVE_ITEM _tb_components python_torch)
    set(CPACK_COMPONENTS_ALL ${_tb_components})
  endif()
endif()

set(CPACK_DEBIAN_TOOLS_PACKAGE_NAME tensorbuf-tools)
set(CPACK_DEBIAN_TOOLS_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_TOOLS_DESCRIPTION "tensorbuf: command-line tool
tensorbuf runs the ops on .npy files.")

set(CPACK_DEBIAN_TOOLS_PACKAGE_DEPENDS "${_tb_runtime} (= ${_tb_version})")
if(TENSORBUF_WITH_MPI)
  string(APPEND CPACK_DEBIAN_TOOLS_PACKAGE_DEPENDS
         ", libtensorbuf-mpi${TENSORBUF_SOVERSION} (= ${_tb_version})")
endif()

include(CPack)

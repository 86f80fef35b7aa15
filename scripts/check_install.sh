#!/usr/bin/env bash
# Installs tensorbuf from a configured build tree and builds + runs against it: tests/consumer
# (C++), tests/consumer_c (a C project: docs/c_api.md's C example), tests/consumer_cxx17 (the
# same example in a C++17 project, through tensorbuf::c), tests/consumer_fortran (the
# installed .mod files and tensorbuf::tensorbuf_f, and a program using the wrappers alone) when
# the build has the Fortran module, and
# tests/consumer_mpi (component mpi, on 2 ranks) when the build has tensorbuf::mpi, and imports
# the Python package from the install tree when the build has it. A shared install: also its
# sonames, RUNPATHs and exported symbols (scripts/check_symbols.sh).
# usage: scripts/check_install.sh BUILD_DIR WORK_DIR
set -euo pipefail
build_dir=$1
mkdir -p "$2"
work_dir=$(cd "$2" && pwd)  # absolute: the consumer's CMake resolves paths from elsewhere
root=$(cd "$(dirname "$0")/.." && pwd)
rm -rf "$work_dir"/prefix "$work_dir"/consumer "$work_dir"/consumer_c "$work_dir"/consumer_cxx17 \
  "$work_dir"/consumer_fortran "$work_dir"/consumer_mpi
cmake --install "$build_dir" --prefix "$work_dir/prefix" > /dev/null
# The lib directory: lib, lib64, or Debian's lib/<multiarch> (a build configured for /usr).
pc_file=$( (compgen -G "$work_dir/prefix/lib*/pkgconfig/tensorbuf.pc" ||
            compgen -G "$work_dir/prefix/lib/*/pkgconfig/tensorbuf.pc") | head -n 1) || {
  echo "check_install: no lib directory with pkgconfig/tensorbuf.pc under $work_dir/prefix" >&2
  exit 1
}
libdir=$(dirname "$(dirname "$pc_file")")
# A shared install: each library's soname is lib<name>.so.<major>.<minor> while the version is
# 0.x (lib<name>.so.<major> from 1.0), and every installed shared object (the Python module
# too) finds all it needs from the install itself, without LD_LIBRARY_PATH (RUNPATH $ORIGIN...).
if [ -e "$libdir/libtensorbuf.so" ]; then
  version=$(sed -n 's/^Version: //p' "$pc_file")
  major=${version%%.*} minor=${version#*.}
  soversion=$major
  [ "$major" != 0 ] || soversion=$major.${minor%%.*}
  for lib in "$libdir"/lib*.so; do
    soname=$(readelf -d "$lib" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
    if [ "$soname" != "$(basename "$lib").$soversion" ]; then
      echo "check_install: $lib: soname '$soname', expected $(basename "$lib").$soversion" >&2
      exit 1
    fi
  done
  while IFS= read -r -d '' object; do
    if env -u LD_LIBRARY_PATH ldd "$object" | grep 'not found'; then
      echo "check_install: $object does not find the libraries above from the install" >&2
      exit 1
    fi
  done < <(find "$work_dir/prefix" -name '*.so*' -type f -print0)
  echo "check_install: shared install: sonames lib*.so.$soversion, every shared object resolves"
  # Hidden visibility: only the API is exported (the counts against their ceilings).
  "$root/scripts/check_symbols.sh" "$libdir"
fi
cmake -S "$root/tests/consumer" -B "$work_dir/consumer" -G Ninja \
  -DCMAKE_PREFIX_PATH="$work_dir/prefix" > /dev/null
cmake --build "$work_dir/consumer" > /dev/null
"$work_dir/consumer/consumer"
if [ -f "$libdir/cmake/tensorbuf/tensorbufMpiTargets.cmake" ]; then
  cmake -S "$root/tests/consumer_mpi" -B "$work_dir/consumer_mpi" -G Ninja \
    -DCMAKE_PREFIX_PATH="$work_dir/prefix" > /dev/null
  cmake --build "$work_dir/consumer_mpi" > /dev/null
  # Open MPI: --oversubscribe (2 ranks whatever the core count); as root, the caller's
  # environment must allow it (OMPI_ALLOW_RUN_AS_ROOT, see .ci/run).
  mpiexec -n 2 --oversubscribe "$work_dir/consumer_mpi/consumer_mpi"
fi
cmake -S "$root/tests/consumer_c" -B "$work_dir/consumer_c" -G Ninja \
  -DCMAKE_PREFIX_PATH="$work_dir/prefix" > /dev/null
cmake --build "$work_dir/consumer_c" > /dev/null
"$work_dir/consumer_c/consumer_c"
"$work_dir/consumer_c/consumer_c_target_c"
cmake -S "$root/tests/consumer_cxx17" -B "$work_dir/consumer_cxx17" -G Ninja \
  -DCMAKE_PREFIX_PATH="$work_dir/prefix" > /dev/null
cmake --build "$work_dir/consumer_cxx17" > /dev/null
"$work_dir/consumer_cxx17/consumer_cxx17"
if [ -f "$work_dir/prefix/include/tensorbuf/fortran/tensorbuf_f.mod" ]; then
  cmake -S "$root/tests/consumer_fortran" -B "$work_dir/consumer_fortran" -G Ninja \
    -DCMAKE_PREFIX_PATH="$work_dir/prefix" > /dev/null
  cmake --build "$work_dir/consumer_fortran" > /dev/null
  "$work_dir/consumer_fortran/consumer_fortran"
  # Only the wrappers: with a shared install this starts only if libtensorbuf_f.so finds
  # libtensorbuf.so itself (--as-needed dropped it from the program).
  "$work_dir/consumer_fortran/consumer_fortran_wrappers"
else
  echo "check_install: no Fortran module in this build (no Fortran compiler): Fortran consumer skipped"
fi
# The Python package: `import tensorbuf` from the install tree alone (a package directory under
# the prefix), mutating a NumPy array in place.
python_dir=$(sed -n 's/^TENSORBUF_PYTHON_INSTALL_DIR:[A-Z]*=//p' "$build_dir/CMakeCache.txt")
if grep -q '^TENSORBUF_WITH_PYTHON:BOOL=ON' "$build_dir/CMakeCache.txt"; then
  python=$(sed -n 's/^Python_EXECUTABLE:[A-Z]*=//p' "$build_dir/CMakeCache.txt")
  # Where the package lands, unless chosen (-DTENSORBUF_PYTHON_INSTALL_DIR): under a plain
  # prefix lib/python3.X/site-packages; for the prefix /usr on Debian (the .deb) Debian's
  # lib/python3/dist-packages.
  configured_prefix=$(sed -n 's/^CMAKE_INSTALL_PREFIX:[A-Z]*=//p' "$build_dir/CMakeCache.txt")
  if grep -qx "_TENSORBUF_PYTHON_INSTALL_DIR_DEFAULT:INTERNAL=$python_dir" "$build_dir/CMakeCache.txt"; then
    if [ "$configured_prefix" = /usr ] && [ -f /etc/debian_version ]; then
      expected=lib/python3/dist-packages
    else
      expected=lib/$("$python" -c 'import sys; print("python%d.%d" % sys.version_info[:2])')/site-packages
    fi
    if [ ! -f "$work_dir/prefix/$expected/tensorbuf/__init__.py" ]; then
      echo "check_install: no package at <prefix>/$expected/tensorbuf (prefix $configured_prefix)" >&2
      exit 1
    fi
  fi
  (cd "$work_dir" && PYTHONPATH="$work_dir/prefix/$python_dir" "$python" -c '
import numpy as np, tensorbuf as tb
assert tb.__file__.startswith("'"$work_dir/prefix"'"), tb.__file__
a = np.zeros((4, 2), np.float32)
tb.tensor_scatter_nd_add_in_place(a, [[1]], [[1.0, 2.0]])
assert a.tolist() == [[0, 0], [1, 2], [0, 0], [0, 0]], a
print("check_install: import tensorbuf from", tb.__file__)')
  # The torch accelerator, where built: installed beside the package and loaded from there.
  if grep -q '^TENSORBUF_WITH_TORCH_FAST:BOOL=ON' "$build_dir/CMakeCache.txt"; then
    (cd "$work_dir" && PYTHONPATH="$work_dir/prefix/$python_dir" "$python" -c '
import sys, torch, tensorbuf as tb
x = torch.zeros(4)
tb.tensor_scatter_nd_add_in_place(x, torch.tensor([[1]]), torch.tensor([2.0]))
state = tb._tensorbuf._torch_fast_state()
assert x.tolist() == [0, 2, 0, 0] and state["status"] == "loaded" and state["bumps"] == 1, state
assert sys.modules["tensorbuf._torch_fast"].__file__.startswith("'"$work_dir/prefix"'")
print("check_install: the torch accelerator loaded from", sys.modules["tensorbuf._torch_fast"].__file__)')
  fi
else
  echo "check_install: no Python package in this build: Python check skipped"
fi
# Without CMake: the installed .pc files and plain compiler drivers.
"$root/scripts/check_pkgconfig.sh" "$work_dir/prefix" "$work_dir"

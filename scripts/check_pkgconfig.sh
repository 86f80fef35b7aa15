#!/usr/bin/env bash
# Builds and runs consumers of an installed tensorbuf with plain compiler drivers and
# pkg-config alone (no CMake), as a Makefile or autotools project would: a C program
# (docs/c_api.md's C example, also by make with tests/consumer_make/Makefile), the same as
# C++17, a C++20 program (tests/consumer), the Fortran test program and a wrappers-only Fortran
# program (with --as-needed) when tensorbuf-fortran.pc is installed, and the MPI consumer on 2
# ranks when tensorbuf-mpi.pc is. A static install is linked with `pkg-config --static` (its
# Libs.private: the C++ runtime, the static CUDA runtime); a shared one without, with an rpath
# to the install's libdir.
# usage: scripts/check_pkgconfig.sh PREFIX WORK_DIR  (called by scripts/check_install.sh)
set -euo pipefail
prefix=$1
mkdir -p "$2"
work_dir=$(cd "$2" && pwd)
root=$(cd "$(dirname "$0")/.." && pwd)
cc=${TENSORBUF_CHECK_CC:-gcc} cxx=${TENSORBUF_CHECK_CXX:-g++} fc=${TENSORBUF_CHECK_FC:-gfortran}
# lib, lib64, or Debian's lib/<multiarch> (an install for /usr, the .deb: scripts/check_deb.sh).
pc_file=$( (compgen -G "$prefix/lib*/pkgconfig/tensorbuf.pc" ||
            compgen -G "$prefix/lib/*/pkgconfig/tensorbuf.pc") | head -n 1) || {
  echo "check_pkgconfig: no lib*/pkgconfig/tensorbuf.pc or lib/*/pkgconfig/tensorbuf.pc under $prefix" >&2
  exit 1
}
# The install first, then the system's modules (MPI's ompi-cxx).
pc_dir=$(cd "$(dirname "$pc_file")" && pwd)  # absolute: make -C runs elsewhere
export PKG_CONFIG_PATH="$pc_dir${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
pkg-config --print-errors --exists tensorbuf
type=$(pkg-config --variable=library_type tensorbuf)
case $type in
  static) link=(--static) rpath=() ;;
  shared) link=() rpath=("-Wl,-rpath,$(pkg-config --variable=libdir tensorbuf)") ;;
  *) echo "check_pkgconfig: library_type '$type' in $pc_file" >&2; exit 1 ;;
esac
flags() { pkg-config --cflags --libs "${link[@]}" "$@"; }
echo "check_pkgconfig: $type tensorbuf $(pkg-config --modversion tensorbuf): $(flags tensorbuf)"
out=$work_dir/pkgconfig
rm -rf "$out" && mkdir -p "$out"
run() { echo "check_pkgconfig: $*" >&2; "$@"; }

# shellcheck disable=SC2046  # pkg-config's output is meant to be split into words
run "$cc" -std=c99 -Wall -Wextra -pedantic -Werror "$root/tests/c_api/example.c" -o "$out/c" \
  $(flags tensorbuf) "${rpath[@]}"
"$out/c"
# shellcheck disable=SC2046
run "$cxx" -std=c++20 -Wall -Wextra -Werror "$root/tests/consumer/main.cpp" -o "$out/cxx" \
  $(flags tensorbuf) "${rpath[@]}"
"$out/cxx"
# The same with make and tests/consumer_make/Makefile (the README's Makefile lines).
make_args=()
[ "$type" = static ] || make_args=(TENSORBUF_PKG_CONFIG_STATIC= "LDFLAGS=${rpath[*]}")
run make -s -C "$out" -f "$root/tests/consumer_make/Makefile" VPATH="$root/tests/c_api" \
  "${make_args[@]}" example
"$out/example"
# The C API from C++17: tensorbuf.pc's Cflags impose no standard.
# shellcheck disable=SC2046
run "$cxx" -std=c++17 -Wall -Wextra -pedantic -Werror "$root/tests/c_api/example_cxx17.cpp" \
  -o "$out/cxx17" $(flags tensorbuf) "${rpath[@]}"
"$out/cxx17"
if pkg-config --exists tensorbuf-fortran; then
  # -J: the programs' own .mod files go to the work dir, tensorbuf's are found by -I.
  # shellcheck disable=SC2046
  run "$fc" "$root/fortran/test_tensorbuf_f.f90" -J "$out" -o "$out/fortran" \
    $(flags tensorbuf-fortran) "${rpath[@]}"
  "$out/fortran"
  # shellcheck disable=SC2046
  run "$fc" -Wl,--as-needed "$root/tests/consumer_fortran/consumer_wrappers.f90" \
    -J "$out" -o "$out/fortran_wrappers" $(flags tensorbuf-fortran) "${rpath[@]}"
  "$out/fortran_wrappers"
else
  echo "check_pkgconfig: no tensorbuf-fortran.pc (built without Fortran): Fortran consumers skipped"
fi
if pkg-config --exists tensorbuf-mpi; then
  # No -Wextra -Werror: Open MPI's C++ binding headers warn (-Wcast-function-type), and its .pc
  # gives them as -I, not -isystem.
  # shellcheck disable=SC2046
  run "$cxx" -std=c++20 "$root/tests/consumer_mpi/main.cpp" \
    -o "$out/mpi" $(flags tensorbuf-mpi) "${rpath[@]}"
  mpiexec -n 2 --oversubscribe "$out/mpi"
else
  echo "check_pkgconfig: no tensorbuf-mpi.pc (built without MPI): MPI consumer skipped"
fi
echo "check_pkgconfig: $type install: C (gcc, make), C++17, C++20, Fortran and MPI consumers built with pkg-config ran"

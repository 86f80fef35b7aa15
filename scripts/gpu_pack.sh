#!/usr/bin/env bash
# Packs a CUDA build made on a machine without a GPU for scripts/gpu_check.sh on a lent GPU
# machine, so that none of its device time goes to nvcc:
#   here:   scripts/gpu_pack.sh                 builds $BUILD (default build/default) and writes
#                                               .gpu/build.tar.xz (ignored by git)
#   there:  bash scripts/gpu_check.sh           with the device tool's carry [".gpu"]; it
#                                               unpacks the archive when $BUILD is missing
# The archive holds the tool, the benchmarks, the library (scripts/gpu_python.sh links the Python
# extension against it), every test executable (gtest, Fortran, C) with its CTest files,
# Google Benchmark's shared library (Debian ships it shared), the other shared libraries they
# need beyond glibc and the GCC runtime as spares, and the source root the build was made in:
# test executables find their data files by that absolute path.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
BUILD=${BUILD:-build/default}

[ -f "$BUILD/CMakeCache.txt" ] || cmake --preset default
cmake --build "$BUILD" -j"$(nproc)"
grep -q '^TENSORBUF_WITH_CUDA:BOOL=ON' "$BUILD/CMakeCache.txt" ||
  { echo "gpu_pack: $BUILD was configured without CUDA (is nvcc on PATH?)" >&2; exit 1; }

mkdir -p "$BUILD/carried_libs/spare" .gpu
# Every executable that CTest runs (gtest, Fortran and C test programs, the tool, the benchmarks).
executables=$(find "$BUILD/apps" "$BUILD/bench" "$BUILD/tests" "$BUILD/fortran" -maxdepth 2 \
  -type f -executable -not -path '*/CMakeFiles/*' -not -name '*.so*' 2> /dev/null)
# Google Benchmark always travels; the other libraries beyond glibc and the GCC runtime (Open MPI,
# which the tool links, libgfortran, libgomp) travel as spares that scripts/gpu_check.sh puts on
# the library path only where that machine lacks them (its own copy wins where it has one).
ldd "$BUILD/bench/tensorbuf_bench" | awk '/libbenchmark/ {print $3}' |
  xargs -r -I{} cp -L {} "$BUILD/carried_libs/"
# shellcheck disable=SC2086  # one word per executable
ldd $executables 2> /dev/null | awk '$2 == "=>" && $3 ~ /^\// {print $3}' | sort -u |
  grep -vE '/(libc|libm|libstdc\+\+|libgcc_s|ld-linux[^/]*|libpthread|libdl|librt)\.so' |
  grep -v libbenchmark | xargs -r -I{} cp -L {} "$BUILD/carried_libs/spare/"
echo "$root" > "$BUILD/carried_root.txt"
# shellcheck disable=SC2086
tar cJf .gpu/build.tar.xz $executables "$BUILD/src/libtensorbuf.a" "$BUILD/carried_libs" \
  "$BUILD/carried_root.txt" $(find "$BUILD" -name CTestTestfile.cmake)
size=$(stat -c %s .gpu/build.tar.xz)
echo "gpu_pack: .gpu/build.tar.xz, $((size >> 20)) MiB (the device tool carries 64 MiB at most)"
[ "$size" -lt $((60 << 20)) ] || { echo "gpu_pack: too large to carry" >&2; exit 1; }

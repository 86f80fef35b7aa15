#!/usr/bin/env bash
# Packs a CUDA build made on a machine without a GPU for scripts/gpu_check.sh on a lent GPU
# machine, so that none of its device time goes to nvcc:
#   here:   scripts/gpu_pack.sh                 builds $BUILD (default build/default) and writes
#                                               .gpu/build.tar.xz (ignored by git)
#   there:  bash scripts/gpu_check.sh           with the device tool's carry [".gpu"]; it
#                                               unpacks the archive when $BUILD is missing
# The archive holds the tool, the benchmarks, the library (scripts/gpu_python.sh links the Python
# extension against it), the test executables with their CTest files,
# Google Benchmark's shared library (Debian ships it shared) and the source root the build was
# made in: test executables find their data files by that absolute path.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
BUILD=${BUILD:-build/default}

[ -f "$BUILD/CMakeCache.txt" ] || cmake --preset default
cmake --build "$BUILD" -j"$(nproc)"
grep -q '^TENSORBUF_WITH_CUDA:BOOL=ON' "$BUILD/CMakeCache.txt" ||
  { echo "gpu_pack: $BUILD was configured without CUDA (is nvcc on PATH?)" >&2; exit 1; }

mkdir -p "$BUILD/carried_libs" .gpu
ldd "$BUILD/bench/tensorbuf_bench" | awk '/libbenchmark/ {print $3}' |
  xargs -r -I{} cp -L {} "$BUILD/carried_libs/"
echo "$root" > "$BUILD/carried_root.txt"
tar cJf .gpu/build.tar.xz "$BUILD/apps/tensorbuf" "$BUILD/bench/tensorbuf_bench" \
  "$BUILD/src/libtensorbuf.a" \
  "$BUILD"/tests/*/test_* "$BUILD/carried_libs" "$BUILD/carried_root.txt" \
  $(find "$BUILD" -name CTestTestfile.cmake)
size=$(stat -c %s .gpu/build.tar.xz)
echo "gpu_pack: .gpu/build.tar.xz, $((size >> 20)) MiB (the device tool carries 64 MiB at most)"
[ "$size" -lt $((60 << 20)) ] || { echo "gpu_pack: too large to carry" >&2; exit 1; }

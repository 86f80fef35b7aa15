#!/usr/bin/env bash
# The one prepared check for a machine with a GPU (see README, "GPU runs").
# Runs every test with TENSORBUF_REQUIRE_CUDA=1, the CUDA tests again under compute-sanitizer,
# and the CUDA benchmarks and GPU peers; writes each log / JSON under $OUT as soon as it exists.
# Uses the build in $BUILD (default build/gpu, e.g. carried from a CPU machine:
#   cmake --preset default -B build/gpu -DTENSORBUF_BUILD_BENCH=ON && cmake --build build/gpu -j2
# ), else configures and builds one here.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
OUT=${OUT:-$root/out/gpu_check}
BUILD=${BUILD:-build/gpu}
mkdir -p "$OUT"
log() { echo "[$(date +%T)] $*" | tee -a "$OUT/summary.txt"; }

export PATH=/usr/local/cuda/bin:$PATH
# Google Benchmark is a shared library on Debian; a carried copy travels in the build dir.
export LD_LIBRARY_PATH="$root/$BUILD/carried_libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
nvidia-smi > "$OUT/nvidia-smi.txt" 2>&1
log "GPU: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null)"

if [ ! -x "$BUILD/apps/tensorbuf" ]; then
  log "no carried build: configuring $BUILD here"
  cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release > "$OUT/configure.log" 2>&1
  cmake --build "$BUILD" -j16 > "$OUT/build.log" 2>&1 || log "build FAILED (see build.log)"
fi

"$BUILD/apps/tensorbuf" info > "$OUT/info.txt" 2>&1
log "info: $(grep -i cuda "$OUT/info.txt" | head -2 | tr '\n' ' ')"

# 1. Every test, CUDA required.
(cd "$BUILD" && TENSORBUF_REQUIRE_CUDA=1 timeout 150 ctest --output-on-failure -j8 \
  > "$OUT/ctest.log" 2>&1)
log "ctest (TENSORBUF_REQUIRE_CUDA=1): exit $? — $(grep -E 'tests passed|tests failed' "$OUT/ctest.log" | tail -1)"

# 2. The CUDA tests under compute-sanitizer (memcheck), one executable at a time.
for exe in "$BUILD"/tests/test_*; do
  [ -x "$exe" ] || continue
  name=$(basename "$exe")
  TENSORBUF_REQUIRE_CUDA=1 TENSORBUF_RANDOM_CASES=20 timeout 60 \
    compute-sanitizer --tool memcheck --error-exitcode 99 "$exe" --gtest_filter='*CUDA*' \
    > "$OUT/sanitizer_$name.log" 2>&1
  log "compute-sanitizer $name: exit $? — $(grep -E 'ERROR SUMMARY|PASSED|FAILED' "$OUT/sanitizer_$name.log" | tr '\n' ' ' | cut -c1-160)"
done

# 3. CUDA benchmarks and GPU peers.
timeout 90 "$BUILD/apps/tensorbuf" bench --device cuda --json "$OUT/bench_cuda.json" \
  > "$OUT/bench_cuda.txt" 2>&1
log "tensorbuf bench --device cuda: exit $?"
timeout 90 python3 bench/peers.py --device cuda --json "$OUT/peers_cuda.json" \
  > "$OUT/peers_cuda.txt" 2>&1
log "peers (cuda): exit $?"
log "done"

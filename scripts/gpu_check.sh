#!/usr/bin/env bash
# The one prepared check for a machine with a GPU (see README, "GPU runs"), sized to fit a
# 15-minute device lease (steps 1-3 about 6 minutes at most, 1b up to 3 more, 2b up to 1.5
# more, step 4 up to 3.5 more):
#   1. every test with TENSORBUF_REQUIRE_CUDA=1 (with tests/capture/test_cuda.cpp: every op
#      form captured in a CUDA graph on a caller stream, replayed 100 times with new inputs);
#   1b. the Python package, built for that machine's python3 (scripts/gpu_python.sh);
#   2. the CUDA benchmarks (--quick), the variant cases of the tuning switches included (bench/
#      RESULTS.md, the variants' table: each beside the default case it competes with), and the
#      GPU peers (PyTorch CUDA, CuPy, JAX, pyarrow);
#   2b. the size sweep on the GPU (`tensorbuf bench --sweep --device cuda`, 2^10..2^20: every
#      op and form per call, beside a device copy of the same traffic);
#   3. the CUDA tests under compute-sanitizer memcheck, all executables at once (the capture
#      replays of test_capture among them; with the
#      interop stream contract of tests/interop/test_interop_cuda.cpp: the race detector, the
#      export to a consumer stream, the cudaFreeAsync release; its unordered controls run in
#      step 1 only, since memcheck may serialise the streams they race);
#   4. the GPU time of each kernel (Nsight Compute, scripts/gpu_kernel_times.sh) of the cases
#      in $KERNEL_CASES (default: those missing their H200 targets; KERNEL_CASES= skips it).
# Uses the build in $BUILD (default build/default); when it is missing, the archive that
# scripts/gpu_pack.sh made on a CPU machine (.gpu/build.tar.xz, carried), else configures and
# builds one here (minutes of device time).
# Results: $OUT/summary.txt and $OUT/logs.tar.gz (refreshed after every step, so a run cut short
# still returns what it did). The device tool returns at most 8 files, hence the archive.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
OUT=${OUT:-$root/out/gpu_check}
BUILD=${BUILD:-build/default}
LOGS=$(mktemp -d)
mkdir -p "$OUT"
log() { echo "[$(date +%T)] $*" | tee -a "$OUT/summary.txt"; }
pack() { tar czf "$OUT/logs.tar.gz" -C "$LOGS" . 2>/dev/null; }

export PATH=/usr/local/cuda/bin:$PATH
# Google Benchmark is a shared library on Debian; a carried copy travels in the build dir.
export LD_LIBRARY_PATH="$root/$BUILD/carried_libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
nvidia-smi > "$LOGS/nvidia-smi.txt" 2>&1
log "GPU: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null)"

if [ ! -x "$BUILD/apps/tensorbuf" ] && [ -f .gpu/build.tar.xz ]; then
  tar xJf .gpu/build.tar.xz
  # The test executables find their data under the root they were built in.
  packed_root=$(cat "$BUILD/carried_root.txt" 2>/dev/null || echo "$root")
  if [ "$packed_root" != "$root" ] && [ ! -e "$packed_root" ]; then
    mkdir -p "$(dirname "$packed_root")" && ln -s "$root" "$packed_root"
  fi
  log "unpacked .gpu/build.tar.xz (built in $packed_root)"
fi
# A spare library goes on the path only where this machine lacks it (two rounds: a spare's own
# needs show only once it is found).
if [ -d "$BUILD/carried_libs/spare" ]; then
  for _ in 1 2; do
    find "$BUILD" -maxdepth 3 -type f -executable -name 'test_*' -o -name tensorbuf -type f |
      xargs -r ldd 2> /dev/null | awk '/not found/ {print $1}' | sort -u |
      while read -r lib; do
        [ -f "$BUILD/carried_libs/spare/$lib" ] && cp "$BUILD/carried_libs/spare/$lib" "$BUILD/carried_libs/"
      done
  done
  log "carried spares used: $(cd "$BUILD/carried_libs" && ls -- *.so* | grep -v libbenchmark | tr '\n' ' ')"
fi
if [ ! -x "$BUILD/apps/tensorbuf" ]; then
  log "no carried build: configuring $BUILD here"
  cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release > "$LOGS/configure.log" 2>&1
  cmake --build "$BUILD" -j16 > "$LOGS/build.log" 2>&1 || log "build FAILED (see build.log)"
fi

"$BUILD/apps/tensorbuf" info > "$LOGS/info.txt" 2>&1
log "info: $(grep -i cuda "$LOGS/info.txt" | head -3 | tr '\n' ' ')"

# 1. Every test, CUDA required. The mpi tests (label mpi: the distributed ops, among them CUDA
#    shards routed on the device, DistScatter.D3_CudaShardsGiveTheSingleProcessCudaBits) need
#    mpiexec: where this machine has none they are left out, and the summary says so.
excluded=python
if command -v mpiexec > /dev/null; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  log "mpiexec: $(mpiexec --version 2>&1 | head -1): the mpi tests run (ranks share the GPU)"
else
  excluded='python|mpi'
  log "no mpiexec on this machine: the mpi tests (the distributed GPU paths) did NOT run"
fi
(cd "$BUILD" && TENSORBUF_REQUIRE_CUDA=1 timeout 120 ctest --output-on-failure -j8 --timeout 100 \
  -LE "$excluded" > "$LOGS/ctest.log" 2>&1)
log "ctest (TENSORBUF_REQUIRE_CUDA=1): exit $? — $(grep -E 'tests passed|tests failed' "$LOGS/ctest.log" | tail -1)"
grep -E '^\s*[0-9]+ - .*\((Failed|Timeout|Subprocess|SEGFAULT|Not Run)' "$LOGS/ctest.log" | tee -a "$OUT/summary.txt"
pack

# 1b. The Python package, built for this machine's python3 (torch CUDA tensors in place, CuPy
#     and JAX consumers: tests/python/test_gpu.py), then bench/python_overhead.py --device cuda
#     within the same 3 minutes; skips where that python3 lacks headers.
log "python package: $(timeout 180 bash scripts/gpu_python.sh "$BUILD" "$LOGS")"
pack

# 2. CUDA benchmarks and GPU peers (before the sanitizer runs, on an otherwise idle GPU). The
#    28 variant cases (*_tiles, *_copy_tiles, *_scan_counts, *_lane_scan, *_vectors,
#    *_one_scan) add about 70 s.
timeout 150 "$BUILD/apps/tensorbuf" bench --device cuda --quick --json "$LOGS/bench_cuda.json" \
  > "$LOGS/bench_cuda.txt" 2>&1
log "tensorbuf bench --device cuda --quick: exit $?"
cp "$LOGS/bench_cuda.txt" "$OUT/" 2>/dev/null
pack
if [ "${SKIP_PEERS:-0}" != 1 ]; then  # SKIP_PEERS=1: a rerun that needs no new peer figures
  PYTHONUNBUFFERED=1 timeout 75 python3 bench/peers.py --device cuda --quick \
    --json "$LOGS/peers_cuda.json" > "$LOGS/peers_cuda.txt" 2>&1
  log "peers (cuda): exit $?"
fi
cp "$LOGS/peers_cuda.txt" "$OUT/" 2>/dev/null
pack

# 2b. The size sweep on the GPU, one process (SKIP_SWEEP=1 skips it). Its lines print as the
#     points finish, so a run cut short keeps them; the JSON renders into bench/RESULTS.md with
#     `bench/sweep.py --from DIR` (its own CUDA section). The summary counts the forms whose
#     median call at 2^16 is within 15 us (the latency target for a 2^16 call).
if [ "${SKIP_SWEEP:-0}" != 1 ]; then
  mkdir -p "$LOGS/sweep_cuda"
  timeout 90 "$BUILD/apps/tensorbuf" bench --sweep --device cuda --sizes 10:20:2 \
    --json "$LOGS/sweep_cuda/sweep_0.json" > "$LOGS/sweep_cuda.txt" 2>&1
  log "tensorbuf bench --sweep --device cuda: exit $? — at 2^16: $(awk '$2 == 65536 {
    n++; if ($3 <= 15) ok++; if ($3 > worst) { worst = $3; form = $1 } }
    END { printf "%d of %d forms within 15 us per call, slowest %s %.1f us", ok, n, form, worst }' \
    "$LOGS/sweep_cuda.txt")"
  cp "$LOGS/sweep_cuda.txt" "$OUT/" 2>/dev/null
  pack
fi

# 3. The CUDA tests under compute-sanitizer memcheck, every executable at once (one GPU is
#    plenty; each is bounded). Not the pool-allocation count: memcheck allocates on its own.
pids=()
for exe in "$BUILD"/tests/*/test_*; do
  [ -x "$exe" ] || continue
  "$exe" --gtest_list_tests --gtest_filter='*CUDA*' | grep -q '^  ' || continue
  name=$(basename "$exe")
  (TENSORBUF_REQUIRE_CUDA=1 TENSORBUF_RANDOM_CASES=20 timeout 80 \
     compute-sanitizer --tool memcheck --error-exitcode 99 "$exe" \
       --gtest_filter='*CUDA*:-*SteadyStateAllocatesNothing:*ControlSeesStaleData' \
     > "$LOGS/sanitizer_$name.log" 2>&1
   echo "compute-sanitizer $name: exit $? — $(grep -E 'ERROR SUMMARY|PASSED|FAILED' \
     "$LOGS/sanitizer_$name.log" | tr '\n' ' ' | cut -c1-200)" > "$LOGS/sanitizer_$name.status") &
  pids+=($!)
done
wait "${pids[@]}"
cat "$LOGS"/sanitizer_*.status | tee -a "$OUT/summary.txt"
pack

# 4. Where the time of the cases that miss their targets goes, kernel by kernel.
KERNEL_CASES=${KERNEL_CASES-boolean_mask_update_in_place_f32_4mx8_d001/cuda \
boolean_mask_update_in_place_f32_4mx8_d050/cuda boolean_mask_update_in_place_f32_64m_d050/cuda \
boolean_mask_update_in_place_f32_4mx8_d050_tiles/cuda \
substr_long_byte_elementwise/cuda substr_long_utf8_elementwise/cuda}
if [ -n "$KERNEL_CASES" ]; then
  # shellcheck disable=SC2086  # one word per case
  OUT="$LOGS" BUILD="$BUILD" timeout 210 bash scripts/gpu_kernel_times.sh $KERNEL_CASES \
    > "$LOGS/kernel_times.log" 2>&1
  log "kernel times: exit $?"
  cp "$LOGS/kernel_times.txt" "$OUT/" 2>/dev/null
  pack
fi
log "done"

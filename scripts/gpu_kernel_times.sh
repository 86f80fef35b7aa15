#!/usr/bin/env bash
# GPU time of each kernel one benchmark iteration launches, read by Nsight Compute (ncu) on a
# machine with a GPU: where an op's time goes, against its wall time in `tensorbuf bench`.
#   scripts/gpu_kernel_times.sh CASE/cuda [CASE/cuda ...]   (names as `tensorbuf bench` prints)
# Writes $OUT/kernel_times.txt (kernel name, duration in us), one block per case. Uses the build
# in $BUILD (default build/default) and its carried libbenchmark, as scripts/gpu_check.sh does.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
OUT=${OUT:-$root/out/gpu_check}
BUILD=${BUILD:-build/default}
mkdir -p "$OUT"
export PATH=/usr/local/cuda/bin:$PATH
export LD_LIBRARY_PATH="$root/$BUILD/carried_libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
[ -n "$ncu" ] || { echo "ncu not found" | tee -a "$OUT/kernel_times.txt"; exit 1; }
for name in "$@"; do
  echo "== $name" >> "$OUT/kernel_times.txt"
  # Skip set-up and warm-up launches; 24 launches cover a few iterations of any op here.
  timeout 60 "$ncu" --clock-control none --metrics gpu__time_duration.sum --csv --print-units base \
    --launch-skip 40 --launch-count 24 \
    "$BUILD/bench/tensorbuf_bench" --benchmark_filter="^${name}(/real_time)?\$" \
    --benchmark_min_time=0.2 --benchmark_repetitions=1 2> /dev/null |
    python3 -c '
import csv, sys
rows = [r for r in csv.reader(l for l in sys.stdin if l.startswith("\""))]
head, body = rows[0], rows[1:]
k, v = head.index("Kernel Name"), head.index("Metric Value")
for r in body:
    print(f"{float(r[v].replace(",", "")) / 1000:10.2f} us  {r[k][:110]}")
' >> "$OUT/kernel_times.txt" 2>&1
done

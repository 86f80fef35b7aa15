#!/usr/bin/env bash
# The Python package on a lent GPU machine (from scripts/gpu_check.sh): builds the extension for
# that machine's python3 (its version differs from Debian's) against the carried CUDA build's
# libtensorbuf.a with g++ directly -- no nvcc, no CMake configure -- and runs tests/python
# (test_gpu.py included), then bench/python_overhead.py --device cuda (the per-call cost with
# torch CUDA tensors, into LOG_DIR/python_overhead_cuda.log) in what is left of the 3 minutes
# gpu_check.sh gives this step (60 s at most). Skips, saying why, where that python3 lacks
# headers or pybind11.
# usage: scripts/gpu_python.sh BUILD_DIR LOG_DIR
set -uo pipefail
SECONDS=0
root=$(cd "$(dirname "$0")/.." && pwd)
build=$1
logs=$2
python=${PYTHON:-python3}
include=$("$python" -c 'import sysconfig; print(sysconfig.get_paths()["include"])' 2>/dev/null)
pybind=$("$python" -m pybind11 --includes 2>/dev/null)
if [ ! -f "$include/Python.h" ] || [ -z "$pybind" ]; then
  echo "skipped: $python has no headers ($include) or no pybind11"
  exit 0
fi
package=$root/$build/python-gpu/tensorbuf
mkdir -p "$package"
cp "$root/python/tensorbuf/__init__.py" "$package/"
suffix=$("$python" -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')
mkdir -p "$root/$build/python-gpu/ops"
objects=()
# Every object linked in as it is (no archive): the op files of ops/ register themselves.
for source in "$root"/python/src/*.cpp "$root"/python/src/ops/*.cpp; do
  object=$root/$build/python-gpu/${source#"$root"/python/src/}
  object=${object%.cpp}.o
  g++ -std=c++20 -O2 -fPIC -fvisibility=hidden -I"$root/python/src" -I"$root/include" $pybind \
    -c "$source" -o "$object" >> "$logs/python_build.log" 2>&1 &
  objects+=("$object")
done
wait
g++ -shared -o "$package/_tensorbuf$suffix" "${objects[@]}" "$root/$build/src/libtensorbuf.a" \
  -L/usr/local/cuda/lib64 -lcudart_static -ldl -lrt -lpthread >> "$logs/python_build.log" 2>&1 ||
  { echo "build FAILED (python_build.log)"; exit 1; }
PYTHONPATH="$root/$build/python-gpu" TENSORBUF_TEST_DATA_DIR="$root/tests/data" \
  timeout 120 "$python" -m pytest -q -p no:cacheprovider -rs "$root/tests/python" \
  > "$logs/python_tests.log" 2>&1
tests="exit $? -- $(tail -1 "$logs/python_tests.log")"
# gpu_check.sh stops this script at 180 s: the benchmark takes what is left, 10 s to spare.
left=$((170 - SECONDS))
[ "$left" -le 60 ] || left=60
if [ "$left" -ge 15 ]; then
  PYTHONPATH="$root/$build/python-gpu" timeout "$left" "$python" "$root/bench/python_overhead.py" \
    --device cuda > "$logs/python_overhead_cuda.log" 2>&1
  bench="exit $? -- $(grep -E 'torch cuda /|skipped' "$logs/python_overhead_cuda.log" | tail -1)"
else
  bench="not run: ${left} s left of the step's 3 minutes"
fi
echo "$tests; python_overhead --device cuda: $bench"
